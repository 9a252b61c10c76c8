import type { ContractTool } from '../../contract/index.js';
import type { ServerInfo } from '../server/index.js';
import type { ServeHttpHandle, ServeHttpOptions } from './serve-http.js';

/**
 * `serveHttp` as the package root exports it: the same function, but the HTTP transport (and
 * the SDK's HTTP code) is loaded only when it is called, so a stdio-only server never loads it.
 * It behaves exactly as `serveHttp` from `toolwright/mcp` in everything else.
 */
export async function serveHttp(
  info: ServerInfo,
  tools: readonly ContractTool[],
  options: ServeHttpOptions = {},
): Promise<ServeHttpHandle> {
  const { serveHttp: serve } = await import('./serve-http.js');
  return serve(info, tools, options);
}

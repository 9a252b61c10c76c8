import type { ContractTool } from '../../contract/index.js';
import { createServer, type ServerInfo, type ServerOptions } from '../server/index.js';
import { connectStdio, type StdioHandle, type StdioOptions } from './stdio/connect-stdio.js';
import { listenHttp, type HttpHandle, type HttpOptions } from './http/listen-http.js';

/** Options of `serveStdio`: the stdio transport's and the server's (the transport kind is set here). */
export interface ServeStdioOptions extends StdioOptions, Omit<ServerOptions, 'transport'> {}

/** Options of `serveHttp`: the HTTP transport's and the server's (the transport kind is set here). */
export interface ServeHttpOptions extends HttpOptions, Omit<ServerOptions, 'transport'> {}

/**
 * Serves contract tools over stdio: `connectStdio` with one `createServer(info, tools)` whose
 * calls see `session.transport === 'stdio'`. Rejects, naming the tool, when the tool set is
 * invalid (see `createServer`). Tools must not write to stdout: log with `ctx.log` (to the
 * client) or to stderr; while serving the process's own stdout, stray `console.log` output is
 * rerouted to stderr (`guardStdout`). Resolves to the running server's handle.
 */
export function serveStdio(info: ServerInfo, tools: readonly ContractTool[], options: ServeStdioOptions = {}): Promise<StdioHandle> {
  return connectStdio(() => createServer(info, tools, { ...options, transport: 'stdio' }), options);
}

/**
 * Serves contract tools over streamable HTTP: `listenHttp` with a fresh
 * `createServer(info, tools)` per session (per request when `stateless`), whose calls see
 * `session.transport === 'http'`. The tool set is checked once up front, so an invalid set
 * rejects here (naming the tool) rather than failing the first request. Resolves once listening.
 */
export async function serveHttp(info: ServerInfo, tools: readonly ContractTool[], options: ServeHttpOptions = {}): Promise<HttpHandle> {
  const serverOptions = { ...options, transport: 'http' as const };
  createServer(info, tools, serverOptions);
  return listenHttp(() => createServer(info, tools, serverOptions), options);
}

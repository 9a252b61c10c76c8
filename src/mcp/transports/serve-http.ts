import type { ContractTool } from '../../contract/index.js';
import type { ServerInfo, ServerOptions } from '../server/index.js';
import { serverFor } from '../server/create-server.js';
import { servedToolsOf } from '../server/served-tools.js';
import { toolScopesOf } from '../auth/tool-scopes.js';
import { ParkedRuns } from '../server/input-rounds/parked-runs.js';
import { listedUnderProfile, type ServeProfileOptions } from './serve-profile.js';
import { keepServingOnFloatingRejections } from './process-guard.js';
import { listenHttp, type HttpHandle, type HttpOptions } from './http/listen-http.js';
import { closingFirst } from './http/closing-first.js';

/** Options of `serveHttp`: the HTTP transport's and the server's (the transport kind is set here). */
export interface ServeHttpOptions extends HttpOptions, Omit<ServerOptions, 'transport'>, ServeProfileOptions {}

/**
 * Serves contract tools over streamable HTTP: `listenHttp` with a fresh
 * `createServer(info, tools)` per session (per request when `stateless`), whose calls see
 * `session.transport === 'http'`. The tool set is checked and prepared once, up front (never per
 * session or request), so an invalid set rejects here (naming the tool) rather than failing the
 * first request. A rejection a tool leaves unhandled is logged and the process keeps serving
 * (`keepServingOnFloatingRejections`; `createHttpHandler` alone never installs it). With
 * `auth`, each tool's `scopes` are checked at the HTTP level (see `createAuthGate`). Calls
 * parked in the 2026-07-28 era (see `InputRoundOptions`) are shared by the endpoint's
 * per-request servers and stopped by `close()`; with `inputRounds.relay`, the node listens on
 * its relay bus before it listens for requests (rejecting when the bus cannot listen). Resolves
 * once listening.
 */
export async function serveHttp(
  info: ServerInfo,
  tools: readonly ContractTool[],
  options: ServeHttpOptions = {},
): Promise<HttpHandle> {
  keepServingOnFloatingRejections();
  const serverOptions = { ...options, transport: 'http' as const };
  const prepared = servedToolsOf(listedUnderProfile(tools, options), 'createServer', serverOptions);
  const auth =
    options.auth === undefined
      ? undefined
      : {
          toolScopes: toolScopesOf([...prepared.values()].map((served) => ({ tool: served.prepared.tool }))),
          ...options.auth,
        };
  const runs = new ParkedRuns(options.inputRounds);
  // With a relay, this node listens for retries relayed to it before it takes requests.
  await runs.open();
  let handle: HttpHandle;
  try {
    handle = await listenHttp(() => serverFor(info, prepared, serverOptions, runs), {
      ...options,
      ...(auth !== undefined ? { auth } : {}),
    });
  } catch (error) {
    await runs.closeAll();
    throw error;
  }
  return closingFirst(handle, () => runs.closeAll());
}

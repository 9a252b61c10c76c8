import type { ContractTool } from '../../contract/index.js';
import type { ServerInfo, ServerOptions } from '../server/index.js';
import { serverFor } from '../server/create-server.js';
import { prepareTools } from '../server/served-tools.js';
import { ParkedRuns } from '../server/input-rounds/parked-runs.js';
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
export async function serveStdio(info: ServerInfo, tools: readonly ContractTool[], options: ServeStdioOptions = {}): Promise<StdioHandle> {
  const serverOptions = { ...options, transport: 'stdio' as const };
  const prepared = prepareTools(tools, 'createServer', serverOptions);
  const runs = new ParkedRuns(options.inputRounds);
  return connectStdio(() => serverFor(info, prepared, serverOptions, runs), options);
}

/**
 * Serves contract tools over streamable HTTP: `listenHttp` with a fresh
 * `createServer(info, tools)` per session (per request when `stateless`), whose calls see
 * `session.transport === 'http'`. The tool set is checked and prepared once, up front (never per
 * session or request), so an invalid set rejects here (naming the tool) rather than failing the
 * first request. Calls parked in the 2026-07-28 era (see `InputRoundOptions`) are shared by the
 * endpoint's per-request servers and stopped by `close()`. Resolves once listening.
 */
export async function serveHttp(info: ServerInfo, tools: readonly ContractTool[], options: ServeHttpOptions = {}): Promise<HttpHandle> {
  const serverOptions = { ...options, transport: 'http' as const };
  const prepared = prepareTools(tools, 'createServer', serverOptions);
  const runs = new ParkedRuns(options.inputRounds);
  const handle = await listenHttp(() => serverFor(info, prepared, serverOptions, runs), options);
  return {
    get url() {
      return handle.url;
    },
    get port() {
      return handle.port;
    },
    get server() {
      return handle.server;
    },
    get sessionCount() {
      return handle.sessionCount;
    },
    close: () => {
      runs.closeAll();
      return handle.close();
    },
  };
}

import type { ContractTool } from '../../contract/index.js';
import type { ServerInfo, ServerOptions } from '../server/index.js';
import { serverFor } from '../server/create-server.js';
import { LiveSet } from '../server/live-set.js';
import { servedSetFacade, withServedSet, type ServedSet } from '../server/served-set.js';
import { ParkedRuns } from '../server/input-rounds/parked-runs.js';
import type { ProtocolEra } from '../server/extra.js';
import { listedUnderProfile, type ServeProfileOptions } from './serve-profile.js';
import { keepServingOnFloatingRejections } from './process-guard.js';
import { connectStdio, type StdioHandle, type StdioOptions } from './stdio/connect-stdio.js';
import { checkOptionsObject, optionKeys } from '../../util/options.js';
import { CALL_CORE, FEATURES, PROFILE, SERVER, STDIO, unique } from '../entry-options.js';

/** Options of `serveStdio`: the stdio transport's and the server's (the transport kind is set here). */
export interface ServeStdioOptions extends StdioOptions, Omit<ServerOptions, 'transport'>, ServeProfileOptions {}

/** `serveStdio`'s option keys. */
const SERVE_STDIO_KEYS = unique(
  optionKeys<ServeStdioOptions>()(...STDIO, ...CALL_CORE, ...FEATURES, ...SERVER, ...PROFILE),
);
/** The running stdio server of `serveStdio`: its transport handle, and what it serves (see `ServedSet`). */
export interface ServeStdioHandle extends StdioHandle, ServedSet {}

/**
 * Serves contract tools (and the `resources` and `prompts` of the options) over stdio:
 * `connectStdio` with one `createServer(info, tools, options)` whose calls see
 * `session.transport === 'stdio'`. Rejects, naming the tool, when the tool set is
 * invalid (see `createServer`), and on an unknown option (`serveStdio: unknown option "x" (known
 * options: ...)`). Tools must not write to stdout: log with `ctx.log` (to the
 * client) or to stderr; while serving the process's own stdout, stray `console.log` output is
 * rerouted to stderr (`guardStdout`). A rejection a tool leaves unhandled is logged and the
 * process keeps serving (`keepServingOnFloatingRejections`). Resolves to the running server's
 * handle, which is also what it serves: `addTools`, `removeTools` (and the resource and prompt
 * twins) change the set while the client is connected, and the client is told as its era defines
 * (see `ServedSet`). Tools added later are listed under the same `schemaProfile`.
 */
export async function serveStdio(
  info: ServerInfo,
  tools: readonly ContractTool[],
  options: ServeStdioOptions = {},
): Promise<ServeStdioHandle> {
  checkOptionsObject('serveStdio', options, SERVE_STDIO_KEYS);
  keepServingOnFloatingRejections(options.log);
  const serverOptions = { ...options, transport: 'stdio' as const };
  const live = new LiveSet({
    where: 'createServer',
    tools,
    options: serverOptions,
    listed: (given) => listedUnderProfile(given, options),
  });
  const runs = new ParkedRuns(options.inputRounds);
  let handle: StdioHandle;
  try {
    handle = await connectStdio(
      (context?: { readonly era?: ProtocolEra }) => serverFor(info, live, serverOptions, runs, context?.era),
      options,
    );
  } catch (error) {
    live.close();
    throw error;
  }
  void handle.closed.then(() => live.close());
  return withServedSet(handle, servedSetFacade(live));
}

import type { ContractTool } from '../../contract/index.js';
import type { ServerInfo, ServerOptions } from '../server/index.js';
import { serverFor } from '../server/create-server.js';
import { LiveSet } from '../server/live-set.js';
import { servedSetFacade, withServedSet, type ServedSet } from '../server/served-set.js';
import { liveToolScopes } from '../auth/tool-scopes.js';
import { ParkedRuns } from '../server/input-rounds/parked-runs.js';
import { changeBusOf } from './change-bus.js';
import type { ProtocolEra } from '../server/extra.js';
import { listedUnderProfile, type ServeProfileOptions } from './serve-profile.js';
import { keepServingOnFloatingRejections } from './process-guard.js';
import { listenHttp, type HttpHandle, type HttpOptions } from './http/listen-http.js';
import { closingFirst } from './http/closing-first.js';
import { withModernToolCalls, withResettableServers } from './server-factory.js';
import { modernToolCallsOf } from '../server/modern-tool-calls.js';
import { stopTasksOf } from '../server/tasks/serve-tasks.js';
import { checkOptionsObject, optionKeys } from '../../util/options.js';
import { CALL_CORE, FEATURES, HTTP_HANDLER, PROFILE, SERVER, unique } from '../entry-options.js';

/** Options of `serveHttp`: the HTTP transport's and the server's (the transport kind is set here). */
export interface ServeHttpOptions extends HttpOptions, Omit<ServerOptions, 'transport'>, ServeProfileOptions {}

/** `serveHttp`'s option keys. */
const SERVE_HTTP_KEYS = unique(
  optionKeys<ServeHttpOptions>()('host', 'port', ...HTTP_HANDLER, ...CALL_CORE, ...FEATURES, ...SERVER, ...PROFILE),
);
/** The listening endpoint of `serveHttp`: its transport handle, and what it serves (see `ServedSet`). */
export interface ServeHttpHandle extends HttpHandle, ServedSet {}

/**
 * Serves contract tools (and the `resources` and `prompts` of the options) over streamable
 * HTTP: `listenHttp` with a fresh `createServer(info, tools, options)` per session (per request
 * when `stateless`, where one may answer POST after POST as if new, see `createStatelessLeg`; and
 * for every 2026-07-28 request, answered on `node:http` itself, see `serveModernDirectly`, except
 * a plain 2026-07-28 `tools/call` or `tools/list`, answered as such a server would answer it with
 * none built, see `serveToolCallDirectly`), whose calls see
 * `session.transport === 'http'`. The tool set is checked and prepared once, up front (never per
 * session or request), so an invalid set rejects here (naming the tool) rather than failing the
 * first request. The handle it resolves to is also what it serves: `addTools`, `removeTools`
 * (and the resource and prompt twins) change the set for every session and request at once (see
 * `ServedSet`); 2025-era sessions are told through their servers, 2026-07-28
 * `subscriptions/listen` streams through the endpoint's change bus (`changeEvents`, or one of its
 * own), which also hears what `changes` announces. A rejection a tool leaves unhandled is logged
 * and the process keeps serving (`keepServingOnFloatingRejections`; `createHttpHandler` alone
 * never installs it). With `auth`, each tool's `scopes` are checked at the HTTP level (see
 * `createAuthGate`), for the tools served at the time of the request. Calls parked in the
 * 2026-07-28 era (see `InputRoundOptions`) are shared by the endpoint's per-request servers and
 * stopped by `close()`; with `inputRounds.relay`, the node listens on its relay bus before it
 * listens for requests (rejecting when the bus cannot listen). Rejects on an unknown option
 * (`serveHttp: unknown option "x" (known options: ...)`). Resolves once listening.
 */
export async function serveHttp(
  info: ServerInfo,
  tools: readonly ContractTool[],
  options: ServeHttpOptions = {},
): Promise<ServeHttpHandle> {
  checkOptionsObject('serveHttp', options, SERVE_HTTP_KEYS);
  keepServingOnFloatingRejections();
  const serverOptions = { ...options, transport: 'http' as const };
  const live = new LiveSet({
    where: 'createServer',
    tools,
    options: serverOptions,
    listed: (given) => listedUnderProfile(given, options),
  });
  const auth = options.auth === undefined ? undefined : { toolScopes: liveToolScopes(live), ...options.auth };
  const changeEvents = changeBusOf(live, options.changeEvents);
  const stopAll = async (): Promise<void> => {
    changeEvents.stop();
    // Running tasks get the drain time, then end failed ("the server stopped before the task finished").
    await Promise.all([stopTasksOf(live.source), runs.closeAll()]);
    live.close();
  };
  const runs = new ParkedRuns(options.inputRounds);
  let generation = 0;
  const nextGeneration = (): void => void generation++;
  live.changes.listen({
    toolsChanged: nextGeneration,
    promptsChanged: nextGeneration,
    resourcesChanged: nextGeneration,
  });
  let handle: HttpHandle;
  try {
    // With a relay, this node listens for retries relayed to it before it takes requests.
    await runs.open();
    handle = await listenHttp(
      // Its servers are serverFor's alone: stateless HTTP may hand one to POST after POST while
      // the set stays as it was when the server was built.
      // Its plain 2026-07-28 tools/call requests may be answered as its servers answer them, without one.
      withModernToolCalls(
        withResettableServers(
          (context?: { readonly era?: ProtocolEra }) => serverFor(info, live, serverOptions, runs, context?.era),
          () => generation,
        ),
        modernToolCallsOf(live, serverOptions, runs),
      ),
      {
        ...options,
        ...(options.nodeId === undefined && options.inputRounds?.nodeId !== undefined
          ? { nodeId: options.inputRounds.nodeId }
          : {}),
        ...(auth !== undefined ? { auth } : {}),
        changeEvents: changeEvents.bus,
      },
    );
  } catch (error) {
    await stopAll();
    throw error;
  }
  return withServedSet(closingFirst(handle, stopAll), servedSetFacade(live));
}

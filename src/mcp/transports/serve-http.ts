import type { ContractTool } from '../../contract/index.js';
import type { ServerInfo, ServerOptions } from '../server/index.js';
import { serverFor } from '../server/create-server.js';
import { servedToolsOf } from '../server/served-tools.js';
import { toolScopesOf } from '../auth/tool-scopes.js';
import { ParkedRuns } from '../server/input-rounds/parked-runs.js';
import { servedFeaturesOf } from '../server/features.js';
import { changeBusOf } from './change-bus.js';
import type { ProtocolEra } from '../server/extra.js';
import { listedUnderProfile, type ServeProfileOptions } from './serve-profile.js';
import { keepServingOnFloatingRejections } from './process-guard.js';
import { listenHttp, type HttpHandle, type HttpOptions } from './http/listen-http.js';
import { closingFirst } from './http/closing-first.js';
import { checkOptionsObject, optionKeys } from '../../util/options.js';
import { CALL_CORE, FEATURES, HTTP_HANDLER, PROFILE, SERVER, unique } from '../entry-options.js';

/** Options of `serveHttp`: the HTTP transport's and the server's (the transport kind is set here). */
export interface ServeHttpOptions extends HttpOptions, Omit<ServerOptions, 'transport'>, ServeProfileOptions {}

/** `serveHttp`'s option keys. */
const SERVE_HTTP_KEYS = unique(
  optionKeys<ServeHttpOptions>()('host', 'port', ...HTTP_HANDLER, ...CALL_CORE, ...FEATURES, ...SERVER, ...PROFILE),
);

/**
 * Serves contract tools (and the `resources` and `prompts` of the options) over streamable
 * HTTP: `listenHttp` with a fresh `createServer(info, tools, options)` per session (per request
 * when `stateless`, and for every 2026-07-28 request), whose calls see
 * `session.transport === 'http'`. With `changes`, announced resource changes reach 2025-era
 * sessions through their servers and 2026-07-28 listen streams through the endpoint's change
 * bus (`changeEvents`, or one of its own). The tool set is checked and prepared once, up front (never per
 * session or request), so an invalid set rejects here (naming the tool) rather than failing the
 * first request. A rejection a tool leaves unhandled is logged and the process keeps serving
 * (`keepServingOnFloatingRejections`; `createHttpHandler` alone never installs it). With
 * `auth`, each tool's `scopes` are checked at the HTTP level (see `createAuthGate`). Calls
 * parked in the 2026-07-28 era (see `InputRoundOptions`) are shared by the endpoint's
 * per-request servers and stopped by `close()`; with `inputRounds.relay`, the node listens on
 * its relay bus before it listens for requests (rejecting when the bus cannot listen). Rejects
 * on an unknown option (`serveHttp: unknown option "x" (known options: ...)`). Resolves once
 * listening.
 */
export async function serveHttp(
  info: ServerInfo,
  tools: readonly ContractTool[],
  options: ServeHttpOptions = {},
): Promise<HttpHandle> {
  checkOptionsObject('serveHttp', options, SERVE_HTTP_KEYS);
  keepServingOnFloatingRejections();
  const serverOptions = { ...options, transport: 'http' as const };
  const prepared = servedToolsOf(listedUnderProfile(tools, options), 'createServer', serverOptions);
  const features = servedFeaturesOf(serverOptions, 'createServer');
  const changeEvents = changeBusOf(features, options.changeEvents);
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
    handle = await listenHttp(
      (context?: { readonly era?: ProtocolEra }) =>
        serverFor(info, prepared, serverOptions, runs, features, context?.era),
      {
        ...options,
        ...(auth !== undefined ? { auth } : {}),
        ...(changeEvents === undefined ? {} : { changeEvents: changeEvents.bus }),
      },
    );
  } catch (error) {
    changeEvents?.stop();
    await runs.closeAll();
    throw error;
  }
  return closingFirst(handle, () => {
    changeEvents?.stop();
    return runs.closeAll();
  });
}

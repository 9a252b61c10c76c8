import { Server } from '@modelcontextprotocol/server';
import type { ContractTool } from '../../contract/index.js';
import { closeWithServer, serveTools, type ServerOptions } from './add-tools.js';
import { FACTS_CAPABILITY } from './constants.js';
import { ParkedRuns } from './input-rounds/parked-runs.js';
import type { ProtocolEra } from './extra.js';
import { featureCapabilitiesOf } from './features.js';
import { followChanges } from './follow-changes.js';
import { LiveSet } from './live-set.js';
import { serveFeatures } from './serve-features.js';
import { checkOptionsObject, optionKeys } from '../../util/options.js';
import { CALL_CORE, FEATURES, SERVER, unique } from '../entry-options.js';
import { stateOf } from './state.js';

/** Who the server says it is at `initialize`. */
export interface ServerInfo {
  readonly name: string;
  readonly version: string;
  readonly title?: string;
  /** Shown to the client's model as the server's instructions. */
  readonly instructions?: string;
}

/** `createServer`'s option keys. */
const CREATE_SERVER_KEYS = unique(optionKeys<ServerOptions>()(...CALL_CORE, ...FEATURES, ...SERVER, 'transport'));

/**
 * Builds an SDK low-level `Server` (one per connection) serving `tools`, and `options.resources`
 * and `options.prompts` when given (see `serveFeatures`). It advertises `tools`
 * (`listChanged: true`: the set may change, see `servedSetOf`), `logging` and
 * `experimental[FACTS_CAPABILITY] = {}`, `resources` (`subscribe` and `listChanged`) and
 * `prompts` (`listChanged`) when it serves them, and `completions` only when a prompt or template
 * completes (else `completion/complete` is "Method not found"); it answers `tools/list`,
 * `tools/call`, `execution/facts`, `logging/setLevel` and `ping`, and the resource, prompt and
 * completion methods. Connect it to one transport with `server.connect(t)`;
 * closing the transport aborts every call in flight (the SDK aborts each request's signal).
 * Every call runs through the call core with `options` (see `runToolCall`). Throws, naming the
 * tool, on a duplicate name, an invalid name or a schema that cannot be used, and on bad options
 * (see `prepareTools`; an unknown key is `createServer: unknown option "x" (known options: ...)`).
 * The server's set is its own: `servedSetOf(server)` changes it while its client is connected (a
 * set shared by every connection is `serveStdio`'s and `serveHttp`'s).
 */
export function createServer(info: ServerInfo, tools: readonly ContractTool[], options: ServerOptions = {}): Server {
  checkOptionsObject('createServer', options, CREATE_SERVER_KEYS);
  const live = new LiveSet({ where: 'createServer', tools, options });
  const server = serverFor(info, live, options);
  closeWithServer(server, live);
  return server;
}

/**
 * `createServer` for a set already checked and prepared (see `LiveSet`), so a transport that
 * builds a server per session or per request prepares (checks, bounds, compiles) the set once and
 * every server serves it as it changes. The capabilities are the set's when the server is made.
 * `runs` holds the calls parked in the 2026-07-28 era; share one between the servers of one
 * endpoint (an HTTP endpoint builds a server per request). `era` is the era the SDK built the
 * server for, when it says (its factories pass `{ era }`), which decides how changes reach it
 * (see `followChanges`). Internal: not exported from the server index.
 */
export function serverFor(
  info: ServerInfo,
  live: LiveSet,
  options: ServerOptions = {},
  runs: ParkedRuns = new ParkedRuns(options.inputRounds),
  era?: ProtocolEra,
): Server {
  const implementation: { name: string; version: string; title?: string } = { name: info.name, version: info.version };
  if (info.title !== undefined) implementation.title = info.title;
  const server = new Server(implementation, {
    // A 2025-era client that hands the server an input_required result never gets one from
    // toolwright (its runs push elicitation/create instead), so the SDK's legacy shim, which
    // would re-enter a handler from the start, stays off.
    inputRequired: { legacyShim: false },
    capabilities: {
      tools: { listChanged: true },
      logging: {},
      experimental: { [FACTS_CAPABILITY]: {} },
      ...featureCapabilitiesOf(live.features),
    },
    ...(info.instructions !== undefined ? { instructions: info.instructions } : {}),
  });
  serveTools(server, live, options, runs);
  serveFeatures(server, live, runs);
  followChanges(server, live, stateOf(server)!, era);
  return server;
}

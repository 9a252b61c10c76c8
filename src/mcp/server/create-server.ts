import { Server } from '@modelcontextprotocol/server';
import type { ContractTool } from '../../contract/index.js';
import { serveTools, type ServerOptions } from './add-tools.js';
import { FACTS_CAPABILITY } from './constants.js';
import { servedToolsOf, type ServedTools } from './served-tools.js';
import { ParkedRuns } from './input-rounds/parked-runs.js';
import type { ProtocolEra } from './extra.js';
import { featureCapabilitiesOf, servedFeaturesOf, type ServedFeatures } from './features.js';
import { serveFeatures } from './serve-features.js';
import { checkOptionsObject, optionKeys } from '../../util/options.js';
import { CALL_CORE, FEATURES, SERVER, unique } from '../entry-options.js';

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
 * (`listChanged: false`: the set is fixed), `logging` and `experimental[FACTS_CAPABILITY] = {}`,
 * `resources` (`subscribe: true`, and `listChanged: true` with `options.changes`) and `prompts`
 * (`listChanged: false`) when it serves them, and `completions` only when a prompt or template
 * completes (else `completion/complete` is "Method not found"); it answers `tools/list`,
 * `tools/call`, `execution/facts`, `logging/setLevel` and `ping`, and the resource, prompt and
 * completion methods. Connect it to one transport with `server.connect(t)`;
 * closing the transport aborts every call in flight (the SDK aborts each request's signal).
 * Every call runs through the call core with `options` (see `runToolCall`). Throws, naming the
 * tool, on a duplicate name, an invalid name or a schema that cannot be used, and on bad options
 * (see `prepareTools`; an unknown key is `createServer: unknown option "x" (known options: ...)`).
 */
export function createServer(info: ServerInfo, tools: readonly ContractTool[], options: ServerOptions = {}): Server {
  checkOptionsObject('createServer', options, CREATE_SERVER_KEYS);
  const prepared = servedToolsOf(tools, 'createServer', options);
  return serverFor(info, prepared, options, undefined, servedFeaturesOf(options, 'createServer'));
}

/**
 * `createServer` for tools already checked and prepared with `servedToolsOf` (and resources
 * and prompts with `servedFeaturesOf`), so a transport that builds a server per session or per
 * request prepares (checks, bounds, compiles) the set once. `runs` holds the calls parked in the
 * 2026-07-28 era; share one between the servers of one endpoint (an HTTP endpoint builds a
 * server per request). `era` is the era the SDK built the server for, when it says (its
 * factories pass `{ era }`), which decides how announced changes reach it (see
 * `serveFeatures`). Internal: not exported from the server index.
 */
export function serverFor(
  info: ServerInfo,
  prepared: ServedTools,
  options: ServerOptions = {},
  runs: ParkedRuns = new ParkedRuns(options.inputRounds),
  features?: ServedFeatures,
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
      tools: { listChanged: false },
      logging: {},
      experimental: { [FACTS_CAPABILITY]: {} },
      ...featureCapabilitiesOf(features),
    },
    ...(info.instructions !== undefined ? { instructions: info.instructions } : {}),
  });
  serveTools(server, prepared, options, runs);
  if (features !== undefined) serveFeatures(server, features, runs, era);
  return server;
}

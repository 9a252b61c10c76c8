import type { LogLevel, Session } from '../../contract/index.js';
import type { SchemaValidator } from '../../compiler/validation/index.js';
import type { ServedTools } from './served-tools.js';
import type { CallScheduling } from './scheduling.js';
import type { ReplayStore } from '../../runtime/index.js';
import type { ParkedRuns } from './input-rounds/parked-runs.js';

/**
 * What toolwright keeps for one SDK `Server` (one connection): its tools (the ones its set serves
 * now: read when a request arrives), the session object handed to every call on it, the log
 * level each session asked for, and the resources its client subscribed to.
 */
export interface ServerState {
  readonly tools: ServedTools;
  /** How its calls wait for their turn (see `schedulingOf`); `undefined`: they never wait. */
  readonly scheduling: CallScheduling | undefined;
  readonly transport: Session['transport'];
  /** Whether the server has the logging capability (without it, `ctx.log` sends nothing). */
  readonly logging: boolean;
  /** What elicitation forms are validated with (`undefined`: the default validator). */
  readonly validator: SchemaValidator | undefined;
  /** Where the calls of `keyed` tools are deduplicated by idempotency key (`undefined`: they are not). */
  readonly replay: ReplayStore | undefined;
  /** Where the server parks its 2026-07-28-era calls (shared by the servers of one `serveHttp` endpoint). */
  readonly runs: ParkedRuns;
  /** Made on the first request, with the transport's session id as it is then. */
  session: Session | undefined;
  /** The minimum level each session set with `logging/setLevel`, keyed by session id (`""` for none). */
  readonly logLevels: Map<string, LogLevel>;
  /** The resource URIs this connection's 2025-era client subscribed to with `resources/subscribe`. */
  readonly subscribed: Set<string>;
  /** Whether its requests and calls are traced when a tracer provider is registered (`telemetry` is not `false`). */
  readonly traced: boolean;
}

const states = new WeakMap<object, ServerState>();

/** The toolwright state of `server`, or `undefined` when no tools were added to it. */
export function stateOf(server: object): ServerState | undefined {
  return states.get(server);
}

/** Records the state of `server`; throws when the server already serves toolwright tools. */
export function attachState(server: object, state: ServerState): void {
  if (states.has(server))
    throw new Error('addTools: this server already serves toolwright tools; pass every tool in one call');
  states.set(server, state);
}

/**
 * The session object of the connection `state` belongs to: one frozen object per server, made
 * on first use with `id` = the transport's session id (`""` when it has none, as on stdio and
 * in memory) and the transport kind given to `createServer`/`addTools`.
 */
export function sessionOfState(state: ServerState, sessionId: string | undefined): Session {
  if (state.session === undefined) state.session = Object.freeze({ id: sessionId ?? '', transport: state.transport });
  return state.session;
}

/**
 * Makes `server` look to its next request like a server that never served one (for a transport
 * that hands one server to one client's request after another's, see `createStatelessLeg`): its
 * next call gets a new session object (so nothing a tool keyed on the last one is seen again),
 * and the log levels and resource subscriptions of earlier requests are forgotten. Returns
 * `false`, changing nothing, for a server toolwright does not serve. It never touches the SDK's
 * own state: only a server whose SDK state holds nothing of a client may be handed on.
 */
export function forgetConnection(server: object): boolean {
  const state = states.get(server);
  if (state === undefined) return false;
  state.session = undefined;
  state.logLevels.clear();
  state.subscribed.clear();
  return true;
}

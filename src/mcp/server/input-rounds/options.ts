import { kindOf } from '../../../util/describe.js';
import { isPositiveInteger, MAX_TIMEOUT_MS } from '../../../util/limits.js';
import type { RelayBus } from './relay-bus.js';

/** How the 2026-07-28 era's input rounds (MRTR) are bounded. Every member is optional. */
export interface InputRoundOptions {
  /**
   * The most `tools/call` requests one call may take, the first included: a positive integer, `0`
   * for the default (`DEFAULT_MAX_INPUT_REQUESTS`, 10, the clients' own limit; as the Go seed's
   * zero value), or `Infinity` for no limit (the Go seed's negative value; a negative number is
   * refused here). A question asked while the last of them is waiting is answered at once with an
   * error the tool sees (`InputRoundLimitError`); the call then finishes as the tool decides.
   */
  readonly maxRequests?: number;
  /** How long a parked call waits for the client's retry before it is stopped (default 30 minutes). */
  readonly abandonAfterMs?: number;
  /**
   * A name for this process, put in front of every `requestState` it mints (`<nodeId>.<hex>`) so
   * that, with `relay`, a retry reaching another process finds the one that owns its parked call.
   * 1 to 64 characters of `A-Za-z0-9_-`, unique among the processes of a cluster. Default none.
   */
  readonly nodeId?: string;
  /**
   * The bus that relays a retry whose `requestState` names another node to that node (and its
   * outcome back), so the processes of a cluster can sit behind a balancer that spreads
   * 2026-07-28-era requests freely: `redisRelayBus(...)` from `toolwright/redis` between
   * processes, `MemoryRelayBus` between endpoints of one process. Needs `nodeId`. Takes effect
   * with `serveHttp` (whose per-request servers share one set of parked calls). Default none: a
   * state of another node is answered as an unknown one (`STALE_STATE_TEXT`).
   */
  readonly relay?: RelayBus;
  /**
   * How long a relayed retry waits without a word from the owning process before it is answered
   * `STALE_STATE_TEXT` (the owner says it is alive every third of this while the call runs).
   * Default 5000 ms.
   */
  readonly relayTimeoutMs?: number;
  /**
   * The most calls one client may have parked at once (a positive integer, or `Infinity` for no
   * bound; default `DEFAULT_MAX_PARKED_PER_CLIENT`, 100). The client is the verified principal;
   * over HTTP without auth, the address the request came from (as for `maxSessionsPerAddress`,
   * with the same `forwarded` rule); on stdio, the connection. Over HTTP (`serveHttp`,
   * `createHttpHandler`, the Nest module) a new 2026-07-28 `tools/call` of a client at the bound
   * is answered 503 (see `tooManyParkedMessage`); a retry carrying a `requestState` never is. A
   * question whose round would park one call too many (calls started at once, or stdio) fails
   * with `ParkedRunLimitError`, which the tool sees as it sees `InputRoundLimitError`.
   */
  readonly maxParkedPerClient?: number;
}

/** The options with their defaults filled in. */
export interface ResolvedInputRoundOptions {
  readonly maxRequests: number;
  readonly abandonAfterMs: number;
  readonly nodeId: string | undefined;
  readonly relay: RelayBus | undefined;
  readonly relayTimeoutMs: number;
  readonly maxParkedPerClient: number;
}

/** Default `maxRequests`. */
export const DEFAULT_MAX_INPUT_REQUESTS = 10;
/** Default `abandonAfterMs`: 30 minutes. */
export const DEFAULT_ABANDON_AFTER_MS = 30 * 60 * 1000;
/** Default `relayTimeoutMs`: 5 seconds. */
export const DEFAULT_RELAY_TIMEOUT_MS = 5000;
/**
 * Default `maxParkedPerClient`: 100, as `DEFAULT_MAX_SESSIONS_PER_PRINCIPAL` (a parked call holds
 * a running tool for up to `abandonAfterMs`, as a session holds a server).
 */
export const DEFAULT_MAX_PARKED_PER_CLIENT = 100;

const KNOWN_OPTIONS = ['maxRequests', 'abandonAfterMs', 'nodeId', 'relay', 'relayTimeoutMs', 'maxParkedPerClient'];

const NODE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Checks and completes `InputRoundOptions`. Throws a `TypeError` naming the option:
 * `inputRounds.maxRequests must be a positive integer, 0 (the default, 10) or Infinity (no limit), got -1`,
 * `inputRounds.abandonAfterMs must be a positive number of milliseconds up to 2147483647, got -1`,
 * `inputRounds.nodeId must be 1 to 64 characters of A-Za-z0-9_-, got "a.b"`,
 * `inputRounds.relay must be a relay bus (an object with send and listen), got string`,
 * `inputRounds.relay needs inputRounds.nodeId (the name other processes reach this one by)`,
 * `inputRounds.relayTimeoutMs must be a positive number of milliseconds up to 2147483647, got 0`,
 * `inputRounds.maxParkedPerClient must be a positive integer or Infinity, got 0`,
 * `inputRounds: unknown option "maxParked" (known options: maxRequests, ...)`.
 */
export function resolveInputRoundOptions(options: InputRoundOptions = {}): ResolvedInputRoundOptions {
  if (typeof options !== 'object' || options === null)
    throw new TypeError(`inputRounds must be an object, got ${kindOf(options)}`);
  for (const key of Object.keys(options)) {
    if (!KNOWN_OPTIONS.includes(key))
      throw new TypeError(
        `inputRounds: unknown option ${JSON.stringify(key)} (known options: ${KNOWN_OPTIONS.join(', ')})`,
      );
  }
  const maxRequests =
    options.maxRequests === undefined || options.maxRequests === 0 ? DEFAULT_MAX_INPUT_REQUESTS : options.maxRequests;
  if (!(isPositiveInteger(maxRequests) || maxRequests === Infinity)) {
    const negative =
      typeof maxRequests === 'number' && maxRequests < 0 ? ' (a negative number is not "no limit" here)' : '';
    throw new TypeError(
      `inputRounds.maxRequests must be a positive integer, 0 (the default, ${DEFAULT_MAX_INPUT_REQUESTS}) or Infinity (no limit), got ${typeof maxRequests === 'number' ? String(maxRequests) : kindOf(maxRequests)}${negative}`,
    );
  }
  const abandonAfterMs = options.abandonAfterMs ?? DEFAULT_ABANDON_AFTER_MS;
  if (typeof abandonAfterMs !== 'number' || !(abandonAfterMs > 0) || abandonAfterMs > MAX_TIMEOUT_MS) {
    throw new TypeError(
      `inputRounds.abandonAfterMs must be a positive number of milliseconds up to ${MAX_TIMEOUT_MS}, got ${String(abandonAfterMs)}`,
    );
  }
  const nodeId = options.nodeId;
  if (nodeId !== undefined && (typeof nodeId !== 'string' || !NODE_ID.test(nodeId))) {
    throw new TypeError(
      `inputRounds.nodeId must be 1 to 64 characters of A-Za-z0-9_-, got ${typeof nodeId === 'string' ? JSON.stringify(nodeId) : kindOf(nodeId)}`,
    );
  }
  const relay = options.relay;
  if (
    relay !== undefined &&
    (typeof relay !== 'object' ||
      relay === null ||
      typeof relay.send !== 'function' ||
      typeof relay.listen !== 'function')
  ) {
    throw new TypeError(`inputRounds.relay must be a relay bus (an object with send and listen), got ${kindOf(relay)}`);
  }
  if (relay !== undefined && nodeId === undefined)
    throw new TypeError('inputRounds.relay needs inputRounds.nodeId (the name other processes reach this one by)');
  const relayTimeoutMs = options.relayTimeoutMs ?? DEFAULT_RELAY_TIMEOUT_MS;
  if (typeof relayTimeoutMs !== 'number' || !(relayTimeoutMs > 0) || relayTimeoutMs > MAX_TIMEOUT_MS) {
    throw new TypeError(
      `inputRounds.relayTimeoutMs must be a positive number of milliseconds up to ${MAX_TIMEOUT_MS}, got ${String(relayTimeoutMs)}`,
    );
  }
  const maxParkedPerClient = options.maxParkedPerClient ?? DEFAULT_MAX_PARKED_PER_CLIENT;
  if (!(isPositiveInteger(maxParkedPerClient) || maxParkedPerClient === Infinity))
    throw new TypeError(
      `inputRounds.maxParkedPerClient must be a positive integer or Infinity, got ${String(maxParkedPerClient)}`,
    );
  return { maxRequests, abandonAfterMs, nodeId, relay, relayTimeoutMs, maxParkedPerClient };
}

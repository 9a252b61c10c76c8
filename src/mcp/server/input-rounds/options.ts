import { kindOf } from '../../../util/describe.js';
import { isPositiveInteger, MAX_TIMEOUT_MS } from '../../../util/limits.js';

/** How the 2026-07-28 era's input rounds (MRTR) are bounded. Every member is optional. */
export interface InputRoundOptions {
  /**
   * The most `tools/call` requests one call may take, the first included (default 10, the
   * clients' own limit). A question asked while the last of them is waiting is answered at once
   * with an error the tool sees (`InputRoundLimitError`); the call then finishes as the tool decides.
   */
  readonly maxRequests?: number;
  /** How long a parked call waits for the client's retry before it is stopped (default 30 minutes). */
  readonly abandonAfterMs?: number;
  /**
   * A name for this process, put in front of every `requestState` it mints (`<nodeId>.<hex>`) so a
   * later multi-process setup can find the process that owns a parked call. 1 to 64 characters of
   * `A-Za-z0-9_-`. Default none.
   */
  readonly nodeId?: string;
}

/** The options with their defaults filled in. */
export interface ResolvedInputRoundOptions {
  readonly maxRequests: number;
  readonly abandonAfterMs: number;
  readonly nodeId: string | undefined;
}

/** Default `maxRequests`. */
export const DEFAULT_MAX_INPUT_REQUESTS = 10;
/** Default `abandonAfterMs`: 30 minutes. */
export const DEFAULT_ABANDON_AFTER_MS = 30 * 60 * 1000;

const NODE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Checks and completes `InputRoundOptions`. Throws a `TypeError` naming the option:
 * `inputRounds.maxRequests must be a positive integer, got 0`,
 * `inputRounds.abandonAfterMs must be a positive number of milliseconds up to 2147483647, got -1`,
 * `inputRounds.nodeId must be 1 to 64 characters of A-Za-z0-9_-, got "a.b"`.
 */
export function resolveInputRoundOptions(options: InputRoundOptions = {}): ResolvedInputRoundOptions {
  if (typeof options !== 'object' || options === null) throw new TypeError(`inputRounds must be an object, got ${kindOf(options)}`);
  const maxRequests = options.maxRequests ?? DEFAULT_MAX_INPUT_REQUESTS;
  if (!isPositiveInteger(maxRequests)) throw new TypeError(`inputRounds.maxRequests must be a positive integer, got ${String(maxRequests)}`);
  const abandonAfterMs = options.abandonAfterMs ?? DEFAULT_ABANDON_AFTER_MS;
  if (typeof abandonAfterMs !== 'number' || !(abandonAfterMs > 0) || abandonAfterMs > MAX_TIMEOUT_MS) {
    throw new TypeError(`inputRounds.abandonAfterMs must be a positive number of milliseconds up to ${MAX_TIMEOUT_MS}, got ${String(abandonAfterMs)}`);
  }
  const nodeId = options.nodeId;
  if (nodeId !== undefined && (typeof nodeId !== 'string' || !NODE_ID.test(nodeId))) {
    throw new TypeError(`inputRounds.nodeId must be 1 to 64 characters of A-Za-z0-9_-, got ${typeof nodeId === 'string' ? JSON.stringify(nodeId) : kindOf(nodeId)}`);
  }
  return { maxRequests, abandonAfterMs, nodeId };
}

/**
 * The text of the `isError` result a retry gets when its `requestState` names no call waiting in
 * this process (unknown, already answered, abandoned, stopped, or bound to another session or
 * principal). It tells the model what to do.
 */
export const STALE_STATE_TEXT = 'the call these answers belong to is no longer waiting for them; call the tool again';

/** The `-32602` message for a `requestState` of a form no toolwright process mints. */
export const INVALID_STATE_TEXT = 'Invalid or expired requestState';

/**
 * Rejects a question (`ctx.elicit`, `ctx.sample`, a permission question) asked while the last
 * request a call may take is waiting: the client would not retry again. Its message reads
 * `this call already used its <n> requests; the question "<message>" cannot be asked`.
 */
export class InputRoundLimitError extends Error {
  override readonly name = 'InputRoundLimitError';
  constructor(maxRequests: number, question: string) {
    super(
      `this call already used its ${maxRequests} requests; the question ${JSON.stringify(question)} cannot be asked`,
    );
  }
}

/** Why a parked call was stopped (the reason its signal aborts with). */
export class InputRoundStoppedError extends Error {
  override readonly name = 'InputRoundStoppedError';
  constructor(why: string) {
    super(`the call was stopped while it waited for input: ${why}`);
  }
}

/**
 * The text of the `isError` result a retry gets when its answers could not be passed to the
 * process running its call, because the relay's bus failed (Redis unreachable): `the answers could
 * not be passed to the process running this call (<reason>); call the tool again`.
 */
export function relayFailedText(reason: string): string {
  return `the answers could not be passed to the process running this call (${reason}); call the tool again`;
}

/**
 * Rejects a question whose round would park one call more than its client may have parked
 * (`inputRounds.maxParkedPerClient`). Its message reads `too many calls of this client wait for
 * input (inputRounds.maxParkedPerClient <n>); the question "<message>" cannot be asked now`.
 */
export class ParkedRunLimitError extends Error {
  override readonly name = 'ParkedRunLimitError';
  constructor(maxParked: number, question: string) {
    super(
      `too many calls of this client wait for input (inputRounds.maxParkedPerClient ${maxParked}); the question ${JSON.stringify(question)} cannot be asked now`,
    );
  }
}

/**
 * The message of the 503 a new 2026-07-28 `tools/call` gets over HTTP while its client has
 * `maxParked` calls parked: `Service Unavailable: too many calls waiting for input for this
 * principal (inputRounds.maxParkedPerClient 100); answer or cancel one, or retry later` (`from
 * <address>` for a client without a principal).
 */
export function tooManyParkedMessage(
  maxParked: number,
  client: { readonly kind: string; readonly address: string },
): string {
  const whose = client.kind === 'principal' ? 'for this principal' : `from ${client.address}`;
  return `Service Unavailable: too many calls waiting for input ${whose} (inputRounds.maxParkedPerClient ${maxParked}); answer or cancel one, or retry later`;
}

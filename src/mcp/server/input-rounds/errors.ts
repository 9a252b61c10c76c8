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

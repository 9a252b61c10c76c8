import { CallTimeoutError } from '../../runtime/executor/index.js';

/** A call's time limit: the signal the tool gets, and whether the limit has passed. */
export interface TimeLimit {
  readonly signal: AbortSignal;
  /** The timeout error once the limit has passed, else `undefined`. */
  expired(): CallTimeoutError | undefined;
  /**
   * Races `work` against the limit: rejects with the timeout error when the limit passes first.
   * Without a limit it returns `work` itself (racing a promise that never settles would keep one
   * reaction per call alive for ever).
   */
  race<T>(work: Promise<T>): Promise<T>;
  /** Stops the timer; call it once the call is answered. */
  clear(): void;
}

/**
 * Applies a tool's `timeoutMs` to one call, as the executor does: when the time passes, the
 * call's signal aborts with a `CallTimeoutError` (`tool "<name>" timed out after <ms> ms`) and
 * the host stops waiting, answering with that error (the tool may still be running). Without a
 * limit the request's own signal is used as it is and nothing is scheduled.
 */
export function timeLimitOf(signal: AbortSignal, tool: string, timeoutMs: number | undefined): TimeLimit {
  if (timeoutMs === undefined) return { signal, expired: () => undefined, race: (work) => work, clear: () => {} };
  const controller = new AbortController();
  let error: CallTimeoutError | undefined;
  let reject: (reason: unknown) => void = () => {};
  const passed = new Promise<never>((_resolve, rejectPassed) => { reject = rejectPassed; });
  passed.catch(() => {});
  const timer = setTimeout(() => {
    error = new CallTimeoutError(tool, timeoutMs);
    controller.abort(error);
    reject(error);
  }, timeoutMs);
  return { signal: AbortSignal.any([signal, controller.signal]), expired: () => error, race: (work) => Promise.race([work, passed]), clear: () => clearTimeout(timer) };
}

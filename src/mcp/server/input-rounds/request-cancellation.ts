/**
 * How a request that waits for a parked call's outcome tells the call it was cancelled, without
 * an `AbortSignal`: what the direct 2026-07-28 HTTP path gives a call (see `DirectCall`), whose
 * request signal nobody reads on a plain call. A `ParkedRun` given one listens to it instead of
 * the request's signal; everywhere else the signal is used.
 */
export interface RequestCancellation {
  /** Whether the request was cancelled already. */
  readonly cancelled: boolean;
  /** Calls `listener` once, when the request is cancelled (never when it was already). */
  onCancel(listener: () => void): void;
  /** Forgets `listener` (given to `onCancel`); nothing when it was never given or has run. */
  offCancel(listener: () => void): void;
}

/**
 * An abort controller made only when someone looks at its signal. Most calls finish without
 * anyone reading `ctx.signal`, and a Node `AbortController` costs more than the rest of a call's
 * bookkeeping, so the executor hands out this instead. It behaves exactly like an eager one: a
 * signal first read after `abort` is already aborted, with the same reason; aborting twice keeps
 * the first reason.
 */
export class LazyAbort {
  private controller: AbortController | undefined;
  private reason: unknown;
  private abortedFlag = false;

  /** The signal, made on first read. */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.abortedFlag) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  /** True once `abort` was called. Reading it never makes the signal. */
  get aborted(): boolean {
    return this.abortedFlag;
  }

  /** Aborts with `reason` (the first reason wins); listeners of a signal already handed out run now. */
  abort(reason: unknown): void {
    if (this.abortedFlag) return;
    this.abortedFlag = true;
    this.reason = reason;
    this.controller?.abort(reason);
  }
}

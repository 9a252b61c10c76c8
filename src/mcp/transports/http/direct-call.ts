import type { ServerResponse } from 'node:http';
import type { RequestCancellation } from '../../server/input-rounds/request-cancellation.js';

/**
 * One call in flight on the direct 2026-07-28 path (see `serveToolCallDirectly`): its response and
 * its request's cancellation (the client hanging up, the endpoint closing). The request's
 * `AbortSignal` is made only when something reads `signal` (a plain call never does: its parked
 * run listens through `onCancel`, see `RequestCancellation`); made after `cancel`, it is aborted
 * already, with the same reason. The first listener is kept in a field of its own; any later one
 * listens on the signal.
 */
export class DirectCall implements RequestCancellation {
  private controller: AbortController | undefined;
  private listener: (() => void) | undefined;
  private reason: Error | undefined;

  constructor(readonly res: ServerResponse) {}

  /** Whether the request was cancelled (see `cancel`). */
  get cancelled(): boolean {
    return this.reason !== undefined;
  }

  /** The request's signal, made on first read; aborted with the reason of `cancel` once cancelled. */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.reason !== undefined) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  onCancel(listener: () => void): void {
    if (this.reason !== undefined) return;
    if (this.listener === undefined) this.listener = listener;
    else this.signal.addEventListener('abort', listener, { once: true });
  }

  offCancel(listener: () => void): void {
    if (this.listener === listener) this.listener = undefined;
    else this.controller?.signal.removeEventListener('abort', listener);
  }

  /** Cancels the request once: its signal (if made) aborts with `reason`, then the listener runs. */
  cancel(reason: Error): void {
    if (this.reason !== undefined) return;
    this.reason = reason;
    this.controller?.abort(reason);
    const listener = this.listener;
    this.listener = undefined;
    listener?.();
  }
}

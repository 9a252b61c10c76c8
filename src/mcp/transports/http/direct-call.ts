import type { ServerResponse } from 'node:http';
import { LazyAbort } from '../../../runtime/internal.js';
import type { RequestCancellation } from '../../server/input-rounds/request-cancellation.js';

/**
 * One call in flight on the direct 2026-07-28 path (see `serveToolCallDirectly`): its response and
 * its request's cancellation (the client hanging up, the endpoint closing). The request's
 * `AbortSignal` is the runtime's `LazyAbort`, made only when something reads `signal` (a plain
 * call never does: its parked run listens through `onCancel`, see `RequestCancellation`); made
 * after `cancel`, it is aborted already, with the same reason. The first listener is kept in a
 * field of its own; any later one listens on the signal.
 */
export class DirectCall implements RequestCancellation {
  private readonly abort = new LazyAbort();
  private listener: (() => void) | undefined;

  constructor(readonly res: ServerResponse) {}

  /** Whether the request was cancelled (see `cancel`). */
  get cancelled(): boolean {
    return this.abort.aborted;
  }

  /** The request's signal, made on first read; aborted with the reason of `cancel` once cancelled. */
  get signal(): AbortSignal {
    return this.abort.signal;
  }

  onCancel(listener: () => void): void {
    if (this.abort.aborted) return;
    if (this.listener === undefined) this.listener = listener;
    else this.abort.signal.addEventListener('abort', listener, { once: true });
  }

  offCancel(listener: () => void): void {
    if (this.listener === listener) this.listener = undefined;
    else if (!this.abort.aborted) this.abort.signal.removeEventListener('abort', listener);
  }

  /** Cancels the request once: its signal (if made) aborts with `reason`, then the listener runs. */
  cancel(reason: Error): void {
    if (this.abort.aborted) return;
    this.abort.abort(reason);
    const listener = this.listener;
    this.listener = undefined;
    listener?.();
  }
}

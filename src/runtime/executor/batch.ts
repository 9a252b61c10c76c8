import { CallCancelledError } from './errors.js';
import { Scheduler, type CallClaims, type Ticket } from '../scheduler/index.js';
import type { LazyAbort } from './lazy-abort.js';
import { runCall, type CallEnvironment, type PreparedCall } from './run-call.js';
import type { CallOutcome, OnComplete } from './types.js';

/** What scheduling one batch needs besides its calls and plan. */
export interface BatchSettings {
  readonly maxParallel: number;
  readonly signal: AbortSignal | undefined;
  readonly onComplete: OnComplete | undefined;
  readonly environment: Omit<CallEnvironment, 'batchSignal' | 'running'>;
}

function cancelledBeforeStart(prepared: PreparedCall): CallOutcome {
  const key = prepared.call.idempotencyKey;
  return {
    id: prepared.call.id,
    tool: prepared.name,
    started: false,
    endedAt: performance.now(),
    ...(key === undefined ? {} : { idempotencyKey: key }),
    ok: false,
    error: new CallCancelledError(),
  };
}

/**
 * Runs the calls of one batch through one online `Scheduler` (the same scheduler the MCP server
 * feeds calls as they arrive), fed the whole batch at once in model order with each call's
 * claims (see `batchClaims`), and resolves their outcomes in model order. At most `maxParallel`
 * calls run at once; a freed slot goes to the earliest waiting call the rules allow. When the
 * batch's signal aborts, every call not yet started completes at once with `CallCancelledError`,
 * every running call's signal is aborted, and the promise resolves once the running calls
 * completed. It never rejects; `onComplete` sees each outcome once, in completion order (a throw
 * from it is ignored).
 */
export function runBatch(
  prepared: readonly PreparedCall[],
  claims: readonly CallClaims[],
  settings: BatchSettings,
): Promise<CallOutcome[]> {
  const total = prepared.length;
  if (total === 0) return Promise.resolve([]);
  const { maxParallel, signal, onComplete } = settings;
  const running = new Set<LazyAbort>();
  const environment: CallEnvironment = { ...settings.environment, batchSignal: signal, running };

  return new Promise<CallOutcome[]>((resolve) => {
    const outcomes: CallOutcome[] = new Array(total);
    const launched = new Uint8Array(total);
    const scheduler = new Scheduler({ maxConcurrent: maxParallel });
    let remaining = total;

    const complete = (index: number, outcome: CallOutcome): void => {
      if (outcomes[index] !== undefined) return;
      outcomes[index] = outcome;
      remaining -= 1;
      if (onComplete !== undefined) {
        try {
          onComplete(outcome);
        } catch {
          // A consumer's failure never changes the batch.
        }
      }
      if (remaining === 0) {
        signal?.removeEventListener('abort', cancel);
        resolve(outcomes);
      }
    };

    const launch = (index: number, ticket: () => Ticket): void => {
      launched[index] = 1;
      void runCall(prepared[index]!, environment).then((outcome) => {
        complete(index, outcome);
        ticket().release();
      });
    };

    function cancel(): void {
      scheduler.cancelWaiting();
      const reason: unknown = signal?.reason;
      for (const controller of running) controller.abort(reason);
      for (let index = 0; index < total; index += 1) {
        if (launched[index] === 0) complete(index, cancelledBeforeStart(prepared[index]!));
      }
    }

    if (signal?.aborted === true) {
      cancel();
      return;
    }
    signal?.addEventListener('abort', cancel, { once: true });
    const tickets: Ticket[] = new Array(total);
    for (let index = 0; index < total; index += 1) {
      tickets[index] = scheduler.submit({
        claims: claims[index]!,
        label: prepared[index]!.name,
        start: () => launch(index, () => tickets[index]!),
      });
    }
  });
}

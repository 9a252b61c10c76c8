import { asError } from '../../util/describe.js';
import { CallCancelledError } from './errors.js';
import type { BatchPlan } from './plan.js';
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

interface ChainCursor {
  readonly calls: readonly number[];
  next: number;
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
 * Runs the calls of one batch as `plan` says and resolves their outcomes in model order. Stages
 * run one after another; in a stage, a free slot goes to the chain that has waited longest, and a
 * chain's next call is queued only when its previous call completed. When the batch's signal
 * aborts, every call not yet handed a slot completes at once with `CallCancelledError`, every
 * running call's signal is aborted, and the promise resolves once the running calls completed.
 * It never rejects; `onComplete` sees each outcome once, in completion order (a throw from it is
 * ignored).
 */
export function runBatch(prepared: readonly PreparedCall[], plan: BatchPlan, settings: BatchSettings): Promise<CallOutcome[]> {
  const total = prepared.length;
  if (total === 0) return Promise.resolve([]);
  const { maxParallel, signal, onComplete } = settings;
  const running = new Set<LazyAbort>();
  const environment: CallEnvironment = { ...settings.environment, batchSignal: signal, running };

  return new Promise<CallOutcome[]>((resolve) => {
    const outcomes: CallOutcome[] = new Array(total);
    const launched = new Uint8Array(total);
    let remaining = total;
    let stageIndex = -1;
    let stageRemaining = 0;
    let queue: ChainCursor[] = [];
    let queueHead = 0;
    let active = 0;
    let cancelled = false;

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

    const launch = (chain: ChainCursor): void => {
      const index = chain.calls[chain.next]!;
      chain.next += 1;
      launched[index] = 1;
      active += 1;
      runCall(prepared[index]!, environment)
        .catch((thrown: unknown): CallOutcome => ({
          id: prepared[index]!.call.id,
          tool: prepared[index]!.name,
          started: false,
          endedAt: performance.now(),
          ok: false,
          error: asError(thrown),
        }))
        .then((outcome) => {
          active -= 1;
          stageRemaining -= 1;
          complete(index, outcome);
          if (chain.next < chain.calls.length) queue.push(chain);
          pump();
        });
    };

    const pump = (): void => {
      if (cancelled) return;
      while (active < maxParallel && queueHead < queue.length) {
        launch(queue[queueHead]!);
        queueHead += 1;
      }
      if (stageRemaining === 0 && active === 0) nextStage();
    };

    const nextStage = (): void => {
      stageIndex += 1;
      const stage = plan.stages[stageIndex];
      if (stage === undefined) return;
      queue = stage.map((calls) => ({ calls, next: 0 }));
      queueHead = 0;
      stageRemaining = stage.reduce((sum, calls) => sum + calls.length, 0);
      pump();
    };

    function cancel(): void {
      if (cancelled) return;
      cancelled = true;
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
    nextStage();
  });
}

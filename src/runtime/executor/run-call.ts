import { randomUUID } from '../../util/random.js';
import {
  UnknownToolError,
  replayOf,
  type ToolRecord,
  type Call,
  type CallContext,
  type ContractTool,
  type JsonObject,
  type ProgressUpdate,
  type ToolOutput,
  type ToolReplay,
} from '../../contract/index.js';
import { createLazySignalContext } from '../../contract/internal.js';
import { isThenable } from '../../contract/internal.js';
import { runToolCall, type CallObserver, type PreparedTool } from '../call/index.js';
import { CallCancelledError, IdempotencyConflictError, errorFromThrown } from './errors.js';
import { recordOnSettle, type ReplayBegin, type ReplayOutcome, type ReplayStore } from './replay-store.js';
import { LazyAbort } from './lazy-abort.js';
import type { BatchCall, CallOutcome, ContextSource, OnProgress, OnStart, OnUpdate } from './types.js';

/**
 * A call of a batch after its tool was looked up (`tool` is undefined when the name is unknown)
 * and prepared for the call core: a known tool has exactly one of `prepared` and the `problem`
 * that kept it from being prepared.
 */
export interface PreparedCall {
  readonly index: number;
  readonly call: BatchCall;
  readonly tool: ContractTool | undefined;
  readonly name: string;
  readonly prepared?: PreparedTool;
  readonly problem?: Error;
}

/** What running one call needs from its executor and batch. */
export interface CallEnvironment {
  readonly onStart: OnStart | undefined;
  readonly onUpdate: OnUpdate | undefined;
  readonly onProgress: OnProgress | undefined;
  readonly context: ContextSource | undefined;
  readonly replayStore: ReplayStore | null;
  /** Aborted when the batch is cancelled. */
  readonly batchSignal: AbortSignal | undefined;
  /** The abort handles of the batch's running calls; the batch aborts them all when it is cancelled. */
  readonly running: Set<LazyAbort>;
}

/** The contract's `Call` for a batch call run as tool `name`, with `key` as its idempotency key when there is one. */
export function contractCallOf(call: BatchCall, name: string, key: string | undefined): Call {
  return key === undefined
    ? { id: call.id, tool: name, args: call.args }
    : { id: call.id, tool: name, args: call.args, idempotencyKey: key };
}

/** True when the tool's replay claim might answer `keyed`, so its calls need an idempotency key. */
function mayBeKeyed(tool: ContractTool): boolean {
  return tool.replay === 'keyed' || typeof tool.replay === 'function';
}

/**
 * Runs one call that got its slot and its chain turn, and resolves its outcome; it never rejects.
 * In order: an unknown tool, a tool that could not be prepared or a cancelled batch completes at
 * once; the context is built (host overrides first, the executor's `call`, `signal`, `progress` and
 * `update` last); `onStart` may refuse; a `keyed` call goes through the replay store; then the call
 * core runs the call (see `runToolCall`: validation, permissions, interceptors, time limit,
 * `execute`, output check and bounds). Updates and progress reach the consumers only until the
 * outcome is decided.
 */
export async function runCall(prepared: PreparedCall, env: CallEnvironment): Promise<CallOutcome> {
  const { call, tool, name } = prepared;
  let key = call.idempotencyKey;
  let started = false;
  let startedAt: number | undefined;
  let replayed = false;
  let completed = false;
  const finish = (outcome: ReplayOutcome): CallOutcome => {
    completed = true;
    const done: Record<string, unknown> = { id: call.id, tool: name, started };
    if (startedAt !== undefined) done.startedAt = startedAt;
    done.endedAt = performance.now();
    if (key !== undefined) done.idempotencyKey = key;
    if (replayed) done.replayed = true;
    done.ok = outcome.ok;
    if (outcome.ok) done.result = outcome.result;
    else {
      done.error = outcome.error;
      const record = (outcome as { readonly record?: ToolRecord }).record;
      if (record !== undefined) done.record = record;
    }
    return done as unknown as CallOutcome;
  };
  const fail = (error: Error): CallOutcome => finish({ ok: false, error });
  const markStarted = (): void => {
    if (started) return;
    started = true;
    startedAt = performance.now();
  };
  const observer: CallObserver = { started: markStarted };

  if (tool === undefined) return fail(new UnknownToolError(name));
  const core = prepared.prepared;
  // A known tool comes with exactly one of `prepared` and `problem` (see `Executor.preparedCall`).
  if (core === undefined) return fail(prepared.problem!);
  if (env.batchSignal?.aborted === true) return fail(new CallCancelledError());

  if (key === undefined && mayBeKeyed(tool)) key = randomUUID();
  const contractCall = contractCallOf(call, name, key);
  const controller = new LazyAbort();

  let ctx: CallContext;
  try {
    const overrides = typeof env.context === 'function' ? env.context(contractCall, tool) : env.context;
    const { onUpdate, onProgress } = env;
    ctx = createLazySignalContext(
      {
        ...overrides,
        call: contractCall,
        update:
          onUpdate === undefined
            ? undefined
            : (output: ToolOutput) => {
                if (completed) return;
                try {
                  onUpdate(call.id, output);
                } catch {
                  // A consumer's failure never fails the call.
                }
              },
        progress:
          onProgress === undefined
            ? undefined
            : (update: ProgressUpdate | string) => {
                if (completed) return;
                try {
                  onProgress(call.id, typeof update === 'string' ? { message: update } : update);
                } catch {
                  // A consumer's failure never fails the call.
                }
              },
      },
      () => controller.signal,
    );
  } catch (thrown) {
    return fail(errorFromThrown(name, thrown));
  }

  if (env.onStart !== undefined) {
    try {
      const returned: unknown = env.onStart(contractCall, ctx, tool);
      if (isThenable(returned)) {
        return fail(
          new Error(
            'onStart returned a promise, but it must decide synchronously; put asynchronous checks in a tool wrapper',
          ),
        );
      }
    } catch (thrown) {
      return fail(errorFromThrown(name, thrown));
    }
  }

  env.running.add(controller);
  try {
    const store = env.replayStore;
    let replay: ToolReplay = 'unknown';
    if (store !== null && key !== undefined && mayBeKeyed(tool)) {
      replay = tool.replay === 'keyed' ? 'keyed' : await replayOf(tool, call.args as JsonObject, ctx);
    }
    if (replay === 'keyed' && store !== null && key !== undefined) {
      if (controller.aborted) return fail(new CallCancelledError());
      let begun: ReplayBegin;
      try {
        begun =
          (await store.begin({ key, tool: name, args: call.args })) ??
          ({ status: undefined } as unknown as ReplayBegin);
      } catch (thrown) {
        return fail(errorFromThrown(name, thrown));
      }
      if (begun.status === 'done') {
        replayed = true;
        return finish(begun.outcome);
      }
      if (begun.status === 'running' || begun.status === 'different-arguments') {
        return fail(new IdempotencyConflictError(key, begun.status));
      }
      if (begun.status !== 'new') {
        return fail(
          new Error(
            `the replay store answered ${JSON.stringify((begun as { status?: unknown }).status) ?? 'nothing'} for idempotency key ${JSON.stringify(key)}; expected "new", "done", "running" or "different-arguments"`,
          ),
        );
      }
      const recording = recordOnSettle(store, key, undefined);
      const end = await runToolCall(core, call.args, ctx, {
        started: markStarted,
        settled: (outcome) => recording.settled(outcome as ReplayOutcome),
      });
      // The outcome is recorded before it is returned (see `recordOnSettle`).
      await recording.recorded();
      return finish(end);
    }
    return finish(await runToolCall(core, call.args, ctx, observer));
  } finally {
    env.running.delete(controller);
  }
}

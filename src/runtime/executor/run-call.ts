import { randomUUID } from 'node:crypto';
import { createCallContext, replayOf, resultOf, type Call, type CallContext, type ContractTool, type JsonObject, type ProgressUpdate, type ToolOutput, type ToolReplay } from '../../contract/index.js';
import { kindOf } from '../../util/describe.js';
import { isThenable, isToolOutput } from '../../contract/shapes.js';
import { CallCancelledError, CallTimeoutError, IdempotencyConflictError, errorFromThrown } from './errors.js';
import type { ReplayBegin, ReplayOutcome, ReplayStore } from './replay-store.js';
import { LazyAbort } from './lazy-abort.js';
import { checkTimeout } from './timeout-limit.js';
import type { BatchCall, CallOutcome, ContextSource, OnProgress, OnStart, OnUpdate } from './types.js';

/** A call of a batch after its tool was looked up (`tool` is undefined when the name is unknown). */
export interface PreparedCall {
  readonly index: number;
  readonly call: BatchCall;
  readonly tool: ContractTool | undefined;
  readonly name: string;
}

/** What running one call needs from its executor and batch. */
export interface CallEnvironment {
  readonly timeoutMs: number | undefined;
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
  return key === undefined ? { id: call.id, tool: name, args: call.args } : { id: call.id, tool: name, args: call.args, idempotencyKey: key };
}

/** True when the tool's replay claim might answer `keyed`, so its calls need an idempotency key. */
function mayBeKeyed(tool: ContractTool): boolean {
  return tool.replay === 'keyed' || typeof tool.replay === 'function';
}

/** What came back instead of a tool output (never an array or a string: both are outputs). */
function describeOutput(value: unknown): string {
  return typeof value === 'object' && value !== null ? 'an object without a "content" array' : kindOf(value);
}

/**
 * Turns what `execute` resolved to into an outcome: a string, an array (of content parts) or an
 * object with a `content` array is a result; anything else is an error naming what came back.
 */
function outcomeOfOutput(name: string, output: unknown): ReplayOutcome {
  if (isToolOutput(output)) {
    return { ok: true, result: resultOf(output) };
  }
  return { ok: false, error: new Error(`tool "${name}" returned ${describeOutput(output)}; execute must resolve to a string, an array of content parts or a result with "content"`) };
}

/**
 * Invokes `execute` and settles with its outcome; it never rejects. A synchronous throw, a
 * rejection and a value that is no tool output all become failed outcomes.
 */
function invoke(tool: ContractTool, name: string, args: unknown, ctx: CallContext): Promise<ReplayOutcome> {
  try {
    return Promise.resolve(tool.execute(args, ctx)).then(
      (output) => outcomeOfOutput(name, output),
      (thrown: unknown) => ({ ok: false, error: errorFromThrown(name, thrown) }),
    );
  } catch (thrown) {
    return Promise.resolve({ ok: false, error: errorFromThrown(name, thrown) });
  }
}

/**
 * Waits for `settled`, or for `limitMs` to pass: then the call's signal is aborted with a
 * `CallTimeoutError` and that error is the outcome; what the tool settles with later is left to
 * `settled`'s other readers.
 */
function withTimeout(settled: Promise<ReplayOutcome>, limitMs: number | undefined, name: string, controller: LazyAbort): Promise<ReplayOutcome> {
  if (limitMs === undefined) return settled;
  return new Promise<ReplayOutcome>((resolve) => {
    const timer = setTimeout(() => {
      const error = new CallTimeoutError(name, limitMs);
      controller.abort(error);
      resolve({ ok: false, error });
    }, limitMs);
    void settled.then((outcome) => {
      clearTimeout(timer);
      resolve(outcome);
    });
  });
}

/**
 * The context `built` with its `signal` read from `controller` on demand: every other member is
 * copied as it is (so members the contract adds later come along), and the result is frozen.
 */
function withLazySignal(built: CallContext, controller: LazyAbort): CallContext {
  return Object.freeze({
    ...built,
    get signal(): AbortSignal {
      return controller.signal;
    },
  });
}

/**
 * Runs one call that got its slot and its chain turn, and resolves its outcome; it never
 * rejects. In order: an unknown tool or a cancelled batch completes at once; the context is
 * built (host overrides first, the executor's `call`, `signal`, `progress` and `update` last);
 * `onStart` may refuse; a `keyed` call goes through the replay store; then `execute` runs under
 * the time limit. Updates and progress reach the consumers only until the outcome is decided.
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
    else done.error = outcome.error;
    return done as unknown as CallOutcome;
  };
  const fail = (error: Error): CallOutcome => finish({ ok: false, error });

  if (tool === undefined) return fail(new Error(`unknown tool ${JSON.stringify(name)}`));
  if (env.batchSignal?.aborted === true) return fail(new CallCancelledError());
  const limit = tool.timeoutMs === undefined ? env.timeoutMs : tool.timeoutMs;
  const limitProblem = checkTimeout(limit);
  if (limitProblem !== undefined) return fail(new Error(`tool "${name}" has an invalid timeoutMs: ${limitProblem}`));

  if (key === undefined && mayBeKeyed(tool)) key = randomUUID();
  const contractCall = contractCallOf(call, name, key);
  const controller = new LazyAbort();

  let ctx: CallContext;
  try {
    const overrides = typeof env.context === 'function' ? env.context(contractCall, tool) : env.context;
    const { onUpdate, onProgress } = env;
    const built = createCallContext({
      ...overrides,
      call: contractCall,
      update: onUpdate === undefined ? undefined : (output: ToolOutput) => {
        if (completed) return;
        try {
          onUpdate(call.id, output);
        } catch {
          // A consumer's failure never fails the call.
        }
      },
      progress: onProgress === undefined ? undefined : (update: ProgressUpdate | string) => {
        if (completed) return;
        try {
          onProgress(call.id, typeof update === 'string' ? { message: update } : update);
        } catch {
          // A consumer's failure never fails the call.
        }
      },
    });
    ctx = withLazySignal(built, controller);
  } catch (thrown) {
    return fail(errorFromThrown(name, thrown));
  }

  if (env.onStart !== undefined) {
    try {
      const returned: unknown = env.onStart(contractCall, ctx, tool);
      if (isThenable(returned)) {
        return fail(new Error('onStart returned a promise, but it must decide synchronously; put asynchronous checks in a tool wrapper'));
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
        begun = (await store.begin({ key, tool: name, args: call.args })) ?? ({ status: undefined } as unknown as ReplayBegin);
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
        return fail(new Error(`the replay store answered ${JSON.stringify((begun as { status?: unknown }).status) ?? 'nothing'} for idempotency key ${JSON.stringify(key)}; expected "new", "done", "running" or "different-arguments"`));
      }
      started = true;
      startedAt = performance.now();
      const settled = invoke(tool, name, call.args, ctx);
      const storedKey = key;
      void settled
        .then((outcome) => store.complete(storedKey, outcome))
        .catch(() => {
          // A store that cannot record leaves the key running; the call's own outcome stands.
        });
      return finish(await withTimeout(settled, limit, name, controller));
    }
    started = true;
    startedAt = performance.now();
    return finish(await withTimeout(invoke(tool, name, call.args, ctx), limit, name, controller));
  } finally {
    env.running.delete(controller);
  }
}

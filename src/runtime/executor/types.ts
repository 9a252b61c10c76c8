import type {
  Call,
  CallContext,
  CallContextInit,
  ContractTool,
  ProgressUpdate,
  ToolOutput,
  ToolRecord,
  ToolResult,
} from '../../contract/index.js';
import type { CallCoreOptions } from '../call/options.js';
import type { ReplayStore } from './replay-store.js';

/**
 * One call of a batch, as the model gave it. `tool` is the contract tool itself, or its name
 * looked up in the executor's `tools`. `args` are the raw arguments, handed to `execute` as they
 * are. `idempotencyKey` is the key of a first run when a host re-runs an ambiguous call; leave it
 * out otherwise (the executor mints one for tools that may claim `keyed` replay).
 */
export interface BatchCall {
  readonly id: string;
  readonly tool: ContractTool | string;
  readonly args: unknown;
  readonly idempotencyKey?: string;
}

/** What every outcome says, succeeded or failed. Times are `performance.now()` milliseconds. */
export interface OutcomeBase {
  /** The call's id. */
  readonly id: string;
  /** The tool's name (the name asked for, when it named no known tool). */
  readonly tool: string;
  /**
   * True when the tool's own `execute` was invoked; false when the call completed before
   * (cancelled, refused by `onStart`, replayed, unknown tool, or ended by the call core before
   * `execute`: invalid arguments, a permission denied, an interceptor's refusal).
   */
  readonly started: boolean;
  /** When `execute` was invoked; absent when it never was. */
  readonly startedAt?: number;
  /** When the call completed. */
  readonly endedAt: number;
  /** The idempotency key the call ran with, when it had one; pass it back to `retryAmbiguous`. */
  readonly idempotencyKey?: string;
  /** True when the replay store answered with the outcome of the key's first call instead of running the tool. */
  readonly replayed?: true;
}

/** A call that produced a result (possibly one the tool itself marked `isError`). */
export interface CallSucceeded extends OutcomeBase {
  readonly ok: true;
  readonly result: ToolResult;
}

/** A call that failed: the tool threw, or the executor completed it with one of its errors. */
export interface CallFailed extends OutcomeBase {
  readonly ok: false;
  readonly error: Error;
  /**
   * The call's record, when the failure carries one (a permission denial's, a `ToolError`'s, the
   * last one the tool wrote).
   */
  readonly record?: ToolRecord;
}

/** How one call completed. Every call of a batch completes exactly once. */
export type CallOutcome = CallSucceeded | CallFailed;

/**
 * What a host adds to every call's context: session, elicitation, sampling, logging and the
 * permission requester. `call`, `signal`, `progress` and `update` belong to the executor (use
 * `onProgress` and `onUpdate` to receive the last two).
 */
export type ContextOverrides = Omit<CallContextInit, 'call' | 'signal' | 'progress' | 'update'>;

/** Context overrides as a fixed object, or made per call (a throw completes the call with that error). */
export type ContextSource = ContextOverrides | ((call: Call, tool: ContractTool) => ContextOverrides);

/**
 * Called synchronously after a call got its slot and its chain turn, before the call core runs
 * it. A throw completes the call with that error and the tool never runs (the durable-dispatch
 * hook). It must not return a promise: asynchronous checks belong in an interceptor.
 */
export type OnStart = (call: Call, ctx: CallContext, tool: ContractTool) => void;

/** Receives a call's intermediate results (`ctx.update`), in send order, never after its outcome. */
export type OnUpdate = (callId: string, output: ToolOutput) => void;

/**
 * Receives a call's progress (`ctx.progress`, a string read as `{message}`), in send order, never
 * after its outcome.
 */
export type OnProgress = (callId: string, update: ProgressUpdate) => void;

/** Receives each outcome as the call completes, in completion order. */
export type OnComplete = (outcome: CallOutcome) => void;

/** The parts of the executor's behaviour a single `run` may override. */
export interface RunOptions {
  /** Cancels the batch: calls not yet started complete as cancelled, running calls' signals abort. */
  readonly signal?: AbortSignal;
  readonly onUpdate?: OnUpdate;
  readonly onProgress?: OnProgress;
  readonly onComplete?: OnComplete;
  readonly context?: ContextSource;
}

/**
 * How an `Executor` runs batches. Every member is optional; the call-core members (`policy`,
 * `interceptors`, `timeoutMs`, `maxOutputChars`, `validator`) are those of every host.
 */
export interface ExecutorOptions extends Omit<RunOptions, 'signal'>, CallCoreOptions {
  /** At most this many calls of one batch run at once (a positive integer; default 8). */
  readonly maxParallel?: number;
  /** Runs every batch one call at a time, in model order. */
  readonly serial?: boolean;
  readonly onStart?: OnStart;
  /** Tools that calls may name instead of passing the tool itself (a `Map` by name, or a list). */
  readonly tools?: ReadonlyMap<string, ContractTool> | Iterable<ContractTool>;
  /**
   * Deduplicates calls of tools that claim `keyed` replay by idempotency key. Defaults to a fresh
   * `MemoryReplayStore`; `null` turns deduplication off (the tools then deduplicate themselves).
   */
  readonly replayStore?: ReplayStore | null;
}

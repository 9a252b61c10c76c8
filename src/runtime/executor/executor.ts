import { createCallContext, replayOf, type ContractTool, type JsonObject } from '../../contract/index.js';
import { kindOf } from '../../util/describe.js';
import { isPositiveInteger } from '../../util/limits.js';
import { isContractTool } from '../../contract/internal.js';
import { CALL_CORE_OPTION_KEYS, coreSettingsOf, type CoreSettings } from '../call/options.js';
import { prepareTool } from '../call/prepare.js';
import type { PreparedTool } from '../call/prepared-tool.js';
import { runBatch } from './batch.js';
import { InvalidBatchError, UnknownOutcomeError } from './errors.js';
import { batchClaims, planBatch, type BatchPlan } from './plan.js';
import { MemoryReplayStore, type ReplayStore } from './replay-store.js';
import { contractCallOf, type PreparedCall } from './run-call.js';
import type { BatchCall, CallOutcome, ExecutorOptions, RunOptions } from './types.js';
import { checkOptionsObject, invalidOption, optionKeys } from '../../util/options.js';

const DEFAULT_MAX_PARALLEL = 8;

function toolRegistry(tools: ExecutorOptions['tools']): ReadonlyMap<string, ContractTool> {
  if (tools === undefined) return new Map();
  if (tools instanceof Map) {
    for (const [name, tool] of tools) {
      if (!isContractTool(tool))
        throw new TypeError(
          `Executor: "tools" entry ${JSON.stringify(name)} is not a contract tool (it needs a string "name" and an "execute" function)`,
        );
    }
    return tools;
  }
  if (typeof (tools as { [Symbol.iterator]?: unknown } | null)?.[Symbol.iterator] !== 'function') {
    throw invalidOption('Executor', 'tools', 'a Map of name -> contract tool or a list of contract tools', tools);
  }
  const registry = new Map<string, ContractTool>();
  let index = 0;
  for (const tool of tools as Iterable<unknown>) {
    if (!isContractTool(tool))
      throw new TypeError(
        `Executor: "tools" entry ${index} is not a contract tool (it needs a string "name" and an "execute" function)`,
      );
    index += 1;
    if (registry.has(tool.name))
      throw new TypeError(`Executor: "tools" holds two tools named ${JSON.stringify(tool.name)}`);
    registry.set(tool.name, tool);
  }
  return registry;
}

const OPTION_KEYS = optionKeys<ExecutorOptions>()(
  'maxParallel',
  'serial',
  'onStart',
  'tools',
  'replayStore',
  'onUpdate',
  'onProgress',
  'onComplete',
  'context',
  ...CALL_CORE_OPTION_KEYS,
);

function checkOptions(options: ExecutorOptions): void {
  checkOptionsObject('Executor', options, OPTION_KEYS);
  const { maxParallel, serial, onStart, replayStore } = options;
  if (maxParallel !== undefined && !isPositiveInteger(maxParallel)) {
    throw invalidOption('Executor', 'maxParallel', 'a positive integer', maxParallel);
  }
  if (serial !== undefined && typeof serial !== 'boolean')
    throw invalidOption('Executor', 'serial', 'a boolean', serial);
  if (onStart !== undefined && typeof onStart !== 'function')
    throw invalidOption('Executor', 'onStart', 'a function', onStart);
  if (
    replayStore !== undefined &&
    replayStore !== null &&
    (typeof replayStore.begin !== 'function' || typeof replayStore.complete !== 'function')
  ) {
    throw new TypeError('Executor: "replayStore" must have "begin" and "complete" methods, or be null');
  }
}

/**
 * Runs batches of tool calls: the calls of one model response, in the model's order.
 *
 * - A batch holding any sequential tool that is not a barrier (or any batch, with `serial`) runs
 *   one call at a time, in model order; resources are ignored.
 * - Otherwise barrier calls split the batch: everything before a barrier completes, the barrier
 *   runs alone, and nothing after it starts until it completed. Between barriers, calls that share
 *   a resource run one after another in model order; the rest run concurrently.
 * - At most `maxParallel` calls of a batch run at once. Separate `run`s share nothing but options.
 *
 * Each batch is fed, whole and in model order, to one online `Scheduler` (the one the MCP server
 * feeds calls as they arrive); the serial rule above is the executor's alone (see `batchClaims`).
 *
 * Every call completes exactly once. A call starts when its tool's `execute` is invoked;
 * waiting for a slot or a chain turn is not started. The executor never re-runs a call on its
 * own (see `retryAmbiguous`) and never calls a tool's `close`. Each call runs through the call
 * core (see `runToolCall`), with the executor's `policy`, `interceptors`, `timeoutMs`,
 * `maxOutputChars` and `validator`: the same steps, in the same order, as on every other host.
 */
export class Executor {
  private readonly maxParallel: number;
  private readonly serial: boolean;
  private readonly registry: ReadonlyMap<string, ContractTool>;
  private readonly replayStore: ReplayStore | null;
  private readonly core: CoreSettings;
  /** Each tool prepared for the call core with this executor's settings (or why it could not be), once per tool. */
  private readonly preparedTools = new WeakMap<ContractTool, PreparedTool | Error>();

  constructor(private readonly options: ExecutorOptions = {}) {
    checkOptions(options);
    this.core = coreSettingsOf(options, 'Executor');
    this.maxParallel = options.maxParallel ?? DEFAULT_MAX_PARALLEL;
    this.serial = options.serial === true;
    this.registry = toolRegistry(options.tools);
    this.replayStore = options.replayStore === undefined ? new MemoryReplayStore() : options.replayStore;
  }

  /**
   * How `run` would group `calls`, as indices into them: the chains of each stage, stage after
   * stage (see `plan`). A barrier is a chain of its own between the chains of the stages around
   * it; a serial batch is one chain. Throws `InvalidBatchError` for a malformed batch.
   */
  chains(calls: readonly BatchCall[]): number[][] {
    return this.plan(calls).stages.flatMap((stage) => stage.map((chain) => [...chain]));
  }

  /** The full plan of `calls`: stages in order, each a list of chains. Never runs anything. */
  plan(calls: readonly BatchCall[]): BatchPlan {
    const prepared = this.prepare(calls);
    return planBatch(
      prepared.map((p) => p.tool),
      { serial: this.serial },
    );
  }

  /**
   * Runs one batch and resolves every call's outcome in model order (matched by id). It rejects
   * only, before running anything, with `InvalidBatchError` for a malformed batch: not an array,
   * a call without a non-empty string `id`, a `tool` that is neither a contract tool nor a
   * string, an `idempotencyKey` that is not a non-empty string, two calls with the same id, or a
   * `signal` that is not an `AbortSignal`. A tool name not in `tools` completes that call with
   * `unknown tool "<name>"`. `runOptions` override the executor's hooks for this batch.
   */
  async run(calls: readonly BatchCall[], runOptions: RunOptions = {}): Promise<CallOutcome[]> {
    const prepared = this.prepare(calls);
    const signal = runOptions.signal;
    if (signal !== undefined && !(signal instanceof AbortSignal))
      throw new InvalidBatchError('"signal" must be an AbortSignal');
    const claims = batchClaims(
      prepared.map((p) => p.tool),
      { serial: this.serial },
    );
    return runBatch(prepared, claims, {
      maxParallel: this.maxParallel,
      signal,
      onComplete: runOptions.onComplete ?? this.options.onComplete,
      environment: {
        onStart: this.options.onStart,
        onUpdate: runOptions.onUpdate ?? this.options.onUpdate,
        onProgress: runOptions.onProgress ?? this.options.onProgress,
        context: runOptions.context ?? this.options.context,
        replayStore: this.replayStore,
      },
    });
  }

  /**
   * Re-runs one call whose outcome was ambiguous: it may have run, but no result came back (a
   * `CallTimeoutError`, an `AmbiguousOutcomeError` from a tool forwarding calls elsewhere, or a
   * host that lost the call some other way). Give the call as first run, with the idempotency
   * key of the first run (`outcome.idempotencyKey`). The tool's replay claim decides:
   * `safe` runs the call again; `keyed` runs it again with the same key, so the replay store (or
   * the tool) answers with the first outcome or refuses while the first call still runs;
   * `unknown`, and `keyed` without a key, never run and complete with `UnknownOutcomeError`.
   * The call runs as a batch of one under this executor's rules.
   */
  async retryAmbiguous(call: BatchCall, runOptions: RunOptions = {}): Promise<CallOutcome> {
    const [prepared] = this.prepare([call]);
    const { tool, name } = prepared!;
    if (tool !== undefined) {
      const overrides = runOptions.context ?? this.options.context;
      const contractCall = contractCallOf(call, name, call.idempotencyKey);
      let replay: string = 'unknown';
      try {
        const ctx = createCallContext({
          ...(typeof overrides === 'function' ? overrides(contractCall, tool) : overrides),
          call: contractCall,
          signal: runOptions.signal,
        });
        replay = await replayOf(tool, call.args as JsonObject, ctx);
      } catch {
        // A claim that cannot be read (a throwing context factory or replay claim) leaves `replay` unknown.
      }
      const mayRerun = replay === 'safe' || (replay === 'keyed' && call.idempotencyKey !== undefined);
      if (!mayRerun) {
        return {
          id: call.id,
          tool: name,
          started: false,
          endedAt: performance.now(),
          ...(call.idempotencyKey === undefined ? {} : { idempotencyKey: call.idempotencyKey }),
          ok: false,
          error: new UnknownOutcomeError(call.id, name),
        };
      }
    }
    const [outcome] = await this.run([call], runOptions);
    return outcome!;
  }

  /**
   * The call {tool}, prepared for the call core once per tool; a tool that cannot be prepared fails
   * each of its calls.
   */
  private preparedCall(index: number, call: BatchCall, tool: ContractTool | undefined, name: string): PreparedCall {
    if (tool === undefined) return { index, call, tool, name };
    let prepared = this.preparedTools.get(tool);
    if (prepared === undefined) {
      try {
        prepared = prepareTool(tool, this.core, 'Executor');
      } catch (err) {
        prepared = err instanceof Error ? err : new Error(String(err));
      }
      this.preparedTools.set(tool, prepared);
    }
    return prepared instanceof Error
      ? { index, call, tool, name, problem: prepared }
      : { index, call, tool, name, prepared };
  }

  /** Checks a batch and looks up its tools; throws `InvalidBatchError` naming the first problem. */
  private prepare(calls: readonly BatchCall[]): PreparedCall[] {
    if (!Array.isArray(calls)) throw new InvalidBatchError(`a batch must be an array of calls, got ${kindOf(calls)}`);
    const positions = new Map<string, number>();
    return calls.map((call: unknown, index): PreparedCall => {
      if (typeof call !== 'object' || call === null)
        throw new InvalidBatchError(
          `call ${index} must be an object with "id", "tool" and "args", got ${kindOf(call)}`,
        );
      const { id, tool } = call as { id?: unknown; tool?: unknown };
      if (typeof id !== 'string' || id === '')
        throw new InvalidBatchError(
          `call ${index} needs a non-empty string "id", got ${JSON.stringify(id) ?? 'undefined'}`,
        );
      const first = positions.get(id);
      if (first !== undefined)
        throw new InvalidBatchError(`duplicate call id ${JSON.stringify(id)} at positions ${first} and ${index}`);
      positions.set(id, index);
      const key = (call as { idempotencyKey?: unknown }).idempotencyKey;
      if (key !== undefined && (typeof key !== 'string' || key === ''))
        throw new InvalidBatchError(
          `call ${JSON.stringify(id)}: "idempotencyKey" must be a non-empty string when given`,
        );
      if (typeof tool === 'string') {
        const registered = this.registry.get(tool);
        return this.preparedCall(index, call as BatchCall, registered, tool);
      }
      if (isContractTool(tool)) return this.preparedCall(index, call as BatchCall, tool, tool.name);
      throw new InvalidBatchError(
        `call ${JSON.stringify(id)}: "tool" must be a contract tool or a tool name, got ${kindOf(tool)}`,
      );
    });
  }
}

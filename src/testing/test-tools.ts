import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/server';
import { createCallContext, taskTermsOf, type CallContextInit, type Session } from '../contract/index.js';
import { compile, type CompileOptions } from '../compiler/compile/index.js';
import { runToolCall, type CallCoreOptions } from '../runtime/call/index.js';
import { CALL_CORE_OPTION_KEYS } from '../runtime/internal.js';
import { LiveSet, mcpResultOf, ProtocolError, TaskRunner, toolCallOf } from '../mcp/internal.js';
import { isTerminalStatus, MemoryTaskStore, type TaskRecord, type TaskStore } from '../runtime/tasks/index.js';
import { checkOptionsObject, optionKeys } from '../util/options.js';

/**
 * Options of `testTools`: how the classes are compiled (`resolve`, `resolveForCall`, `maxDepth`),
 * the call-core options every host takes (`policy`, `interceptors`, `timeoutMs`,
 * `maxOutputChars`, `validator`), and what every call's context offers (`context`).
 */
export interface TestToolsOptions extends Omit<CompileOptions, 'validator'>, CallCoreOptions {
  /**
   * Members of every call's context (`principal`, `request`, `elicit`, `requirePermission`, `log`,
   * ...); a call's own `context` wins.
   */
  readonly context?: TestCallContext;
  /** Where `startTask` keeps its tasks (default: a fresh `MemoryTaskStore` per tester). */
  readonly taskStore?: TaskStore;
}

/** What a test may put in a call's context: everything a host offers except the call itself. */
export type TestCallContext = Omit<CallContextInit, 'call'>;

/** Options of one `callTool`. */
export interface TestCallOptions {
  /** Members of this call's context, over the tester's `context`. */
  readonly context?: TestCallContext;
}

/** Calls tools in process, through the call core, with the exact MCP results a server sends. */
export interface ToolTester {
  /** The tools as `tools/list` lists them (the exact MCP definitions), in order. */
  listTools(): McpTool[];
  /**
   * Calls the tool named `name` with `args` (raw JSON, as a client sends them; missing is `{}`)
   * and resolves the exact `CallToolResult` a toolwright server sends for it: the same call core
   * (validation, permissions, interceptors, time limit, output check, bounds, records) and the
   * same result mapping. Rejects as a server answers with a protocol error: an unknown tool
   * (`Unknown tool: <name>`) or arguments that are not an object, each with `code` -32602.
   */
  callTool(name: string, args?: unknown, options?: TestCallOptions): Promise<CallToolResult>;
  /**
   * Serves more tools (classes, instances or contract tools, compiled as the first ones were), as
   * a server's `addTools` does (see `ServedSet`): a name served already is replaced where it is
   * listed, a new one listed last; a call already running finishes with the tool it started with.
   * Throws what `compile` throws, and a `SetChangeError` for a change that is refused (nothing
   * changes then).
   */
  addTools(sources: readonly unknown[]): void;
  /** Stops serving the tools named, as a server's `removeTools` does: a later call of one is `Unknown tool`. */
  removeTools(names: readonly string[]): void;
  /**
   * Starts the tool `name` as a task, as a server does for a task-augmented call (the same call
   * core, detached: its time limit covers the whole task), and resolves its handle once the task
   * is recorded. Rejects as a server refuses: `-32601` for a tool without `@TaskSupport`, and what
   * `callTool` rejects for (`-32602`), and the store's `TaskLimitError` at a bound.
   */
  startTask(name: string, args?: unknown, options?: TestCallOptions): Promise<TestTask>;
}

/** A task started with `startTask`. */
export interface TestTask {
  readonly taskId: string;
  /** The task as its store now has it (`status`, `statusMessage`, times, TTL). */
  status(): Promise<TaskRecord>;
  /**
   * Waits for the task to end and resolves its `CallToolResult` (a tool error is an `isError`
   * result, as a server answers it). Rejects with the task's message when it ended `failed`, and
   * with `task <id> was cancelled: it has no result` when it was cancelled.
   */
  result(): Promise<CallToolResult>;
  /** Cancels the task (its run's signal aborts) and resolves it as it then is; an ended task stays as it is. */
  cancel(): Promise<TaskRecord>;
}

const OPTION_KEYS = optionKeys<TestToolsOptions>()(
  'context',
  'resolve',
  'resolveForCall',
  'maxDepth',
  'schemaProfile',
  'recursionDepth',
  'lint',
  'taskStore',
  ...CALL_CORE_OPTION_KEYS,
);

/**
 * Makes a `ToolTester` for `sources`: tool classes, instances of tool classes and contract tools,
 * compiled with `compile` (so every `ContractError` shows here, too) and prepared with
 * `prepareTools`, exactly as `createServer` prepares them. No transport and no client are set up.
 * Every call's context has `session` `{ id: "", transport: "memory" }` (one object per tester),
 * a call id `test-<n>`, and the host defaults for what `context` leaves out (elicitation answers
 * `cancel`, sampling and permission requests are refused). Throws what `compile` and
 * `prepareTools` throw for bad tools or options.
 */
export function testTools(sources: readonly unknown[], options: TestToolsOptions = {}): ToolTester {
  checkOptionsObject('testTools', options, OPTION_KEYS);
  const { resolve, resolveForCall, maxDepth, validator, context: shared } = options;
  const compileOptions: CompileOptions = {
    ...(resolve === undefined ? {} : { resolve }),
    ...(resolveForCall === undefined ? {} : { resolveForCall }),
    ...(maxDepth === undefined ? {} : { maxDepth }),
    ...(validator === undefined ? {} : { validator }),
  };
  const live = new LiveSet({ where: 'testTools', tools: compile(sources, compileOptions), options });
  const session: Session = Object.freeze({ id: '', transport: 'memory' });
  let calls = 0;
  let runner: TaskRunner | undefined;
  const run = async (
    name: string,
    args: unknown,
    callOptions: TestCallOptions,
    signal?: AbortSignal,
  ): Promise<CallToolResult> => {
    const { served: tool, args: checked } = toolCallOf(live.tools, { name, arguments: args });
    calls += 1;
    const ctx = createCallContext({
      session,
      ...shared,
      ...callOptions.context,
      ...(signal === undefined ? {} : { signal }),
      call: { id: `test-${calls}`, tool: name, args: checked },
    });
    return mcpResultOf(await runToolCall(tool.prepared, checked, ctx));
  };
  return Object.freeze({
    listTools: () => [...live.definitions],
    addTools: (more: readonly unknown[]) => live.update({ addTools: compile(more, compileOptions) }, 'addTools'),
    removeTools: (names: readonly string[]) => live.update({ removeTools: names }, 'removeTools'),
    async callTool(name: string, args?: unknown, callOptions: TestCallOptions = {}): Promise<CallToolResult> {
      const tool = toolCallOf(live.tools, { name, arguments: args }).served;
      if (taskTermsOf(tool.prepared.tool).support === 'required')
        throw new ProtocolError(
          -32601,
          `tool "${name}" runs only as a task (execution.taskSupport "required"): call it with params.task`,
        );
      return run(name, args, callOptions);
    },
    async startTask(name: string, args?: unknown, callOptions: TestCallOptions = {}): Promise<TestTask> {
      const tool = toolCallOf(live.tools, { name, arguments: args }).served;
      const terms = taskTermsOf(tool.prepared.tool);
      if (terms.support === 'forbidden')
        throw new ProtocolError(
          -32601,
          `tool "${name}" does not run as a task (execution.taskSupport "forbidden"): call it without params.task`,
        );
      runner ??= new TaskRunner(options.taskStore ?? new MemoryTaskStore());
      const tasks = runner;
      const owner = 'connection:test';
      const task = await tasks.start(
        { owner, tool: name, ttlMs: terms.ttlMs, pollIntervalMs: terms.pollIntervalMs },
        (signal) => run(name, args, callOptions, signal),
      );
      const current = async (): Promise<TaskRecord> => {
        const now = await tasks.store.get(task.taskId, owner);
        if (now === undefined)
          throw new ProtocolError(-32602, `Failed to retrieve task: Task not found (${task.taskId})`);
        return now;
      };
      return Object.freeze({
        taskId: task.taskId,
        status: current,
        async result(): Promise<CallToolResult> {
          const ended = (await tasks.settled(task.taskId)) ?? (await current());
          // Every task of a tester runs in its process: once its run settled, the task has ended.
          if (!isTerminalStatus(ended.status)) throw new Error(`task ${task.taskId} is still ${ended.status}`);
          if (ended.status === 'failed')
            throw new ProtocolError(ended.error?.code ?? -32603, ended.statusMessage ?? 'failed');
          if (ended.status === 'cancelled')
            throw new ProtocolError(-32602, `task ${task.taskId} was cancelled: it has no result`);
          return ended.result as CallToolResult;
        },
        async cancel(): Promise<TaskRecord> {
          return (await tasks.cancel(await current(), 'cancelled by the client')) ?? current();
        },
      });
    },
  });
}

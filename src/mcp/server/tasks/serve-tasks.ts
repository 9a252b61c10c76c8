import { taskTermsOf } from '../../../contract/index.js';
import type { TaskOptions } from './task-options.js';
import type { ServedTools } from '../served-tools.js';
import { DEFAULT_TASK_DRAIN_MS, SERVER_STOPPED_TEXT, TASKS_EXTENSION } from './constants.js';
import { TaskRunner } from './task-runner.js';

const runners = new WeakMap<object, { readonly runner: TaskRunner; readonly drainMs: number }>();

/** True when one of `tools` may run as a task. */
export function servesTasks(tools: ServedTools): boolean {
  for (const served of tools.values()) if (taskTermsOf(served.prepared.tool).support !== 'forbidden') return true;
  return false;
}

/**
 * The task runner of a served tool set, made on first use with `options` (every server of one
 * endpoint shares the set, so they share the runner and its store), or `undefined` when no tool
 * of the set runs as a task.
 */
export function taskRunnerOf(tools: ServedTools, options: TaskOptions | undefined): TaskRunner | undefined {
  if (!servesTasks(tools)) return undefined;
  let made = runners.get(tools);
  if (made === undefined) {
    made = { runner: new TaskRunner(options?.store), drainMs: options?.drainMs ?? DEFAULT_TASK_DRAIN_MS };
    runners.set(tools, made);
  }
  return made.runner;
}

/**
 * Stops the tasks of a served tool set for a server that stops: each gets the drain time, then
 * ends `failed` with "the server stopped before the task finished" (see `TaskRunner.stop`).
 * Nothing to do for a set with no runner.
 */
export function stopTasksOf(tools: ServedTools): Promise<void> {
  const made = runners.get(tools);
  return made === undefined ? Promise.resolve() : made.runner.stop(SERVER_STOPPED_TEXT, made.drainMs);
}

/**
 * The capabilities a server serving tasks adds: the 2025-11-25 `tasks` (list, cancel,
 * `tools/call`), which the SDK's 2026-07-28 codec removes, and the 2026-07-28
 * `extensions["io.modelcontextprotocol/tasks"]`.
 */
export function taskCapabilities(existingExtensions: unknown): Record<string, unknown> {
  const extensions = typeof existingExtensions === 'object' && existingExtensions !== null ? existingExtensions : {};
  return {
    tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
    extensions: { ...extensions, [TASKS_EXTENSION]: {} },
  };
}

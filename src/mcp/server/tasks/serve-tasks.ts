import { taskTermsOf } from '../../../contract/index.js';
import type { TaskOptions } from './task-options.js';
import type { ServedTools } from '../served-tools.js';
import { DEFAULT_TASK_DRAIN_MS, SERVER_STOPPED_TEXT, TASKS_EXTENSION } from './constants.js';
import { TaskRunner } from './task-runner.js';

const runners = new WeakMap<object, { readonly runner: TaskRunner; readonly drainMs: number }>();

const taskToolsBySet = new WeakMap<ServedTools, boolean>();

/**
 * True when one of `tools` may run as a task; read once per served tool map (a live set makes a
 * new map only when it changes, so a server built per request never walks the tools again).
 */
export function servesTasks(tools: ServedTools): boolean {
  let serves = taskToolsBySet.get(tools);
  if (serves === undefined) {
    serves = false;
    for (const served of tools.values()) serves ||= taskTermsOf(served.prepared.tool).support !== 'forbidden';
    taskToolsBySet.set(tools, serves);
  }
  return serves;
}

/**
 * The task runner of an endpoint's served set (`set`, the live set's stable `source`: every
 * server of one endpoint shares it, so they share the runner and its store), made on first use
 * with `options`, or `undefined` while no tool of `tools` (the set's tools now) runs as a task
 * and none did before. A set that gains its first task tool at runtime serves it as a task on
 * the servers made after the change (each 2026-07-28 request, new 2025-era sessions).
 */
export function taskRunnerOf(
  set: object,
  tools: ServedTools,
  options: TaskOptions | undefined,
): TaskRunner | undefined {
  let made = runners.get(set);
  if (made === undefined) {
    if (!servesTasks(tools)) return undefined;
    made = { runner: new TaskRunner(options?.store), drainMs: options?.drainMs ?? DEFAULT_TASK_DRAIN_MS };
    runners.set(set, made);
  }
  return made.runner;
}

/**
 * Stops the tasks of an endpoint's served set (its live set's `source`) for a server that stops:
 * each gets the drain time, then ends `failed` with "the server stopped before the task
 * finished" (see `TaskRunner.stop`). Nothing to do for a set with no runner.
 */
export function stopTasksOf(set: object): Promise<void> {
  const made = runners.get(set);
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

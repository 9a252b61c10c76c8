import type { TaskRecord } from '../../../runtime/tasks/index.js';

/** What both eras write of a task: id, status, message (when there is one), ISO 8601 times. */
function commonOf(task: TaskRecord): Record<string, unknown> {
  return {
    taskId: task.taskId,
    status: task.status,
    ...(task.statusMessage === undefined ? {} : { statusMessage: task.statusMessage }),
    createdAt: new Date(task.createdAt).toISOString(),
    lastUpdatedAt: new Date(task.lastUpdatedAt).toISOString(),
  };
}

/**
 * A task as the 2025-11-25 utility writes it: `taskId`, `status`, `statusMessage` (when there is
 * one), `createdAt` and `lastUpdatedAt` as ISO 8601, `ttl` and `pollInterval` in milliseconds.
 */
export function legacyTaskOf(task: TaskRecord): Record<string, unknown> {
  return { ...commonOf(task), ttl: task.ttlMs, pollInterval: task.pollIntervalMs };
}

/**
 * A task as the 2026-07-28 extension writes it (`ttlMs`, `pollIntervalMs`); `detailed` adds what
 * `tasks/get` inlines: the `inputRequests` of an `input_required` task, the `result` of a
 * completed task, the `error` of a failed one.
 */
export function modernTaskOf(task: TaskRecord, detailed: boolean): Record<string, unknown> {
  return {
    ...commonOf(task),
    ttlMs: task.ttlMs,
    pollIntervalMs: task.pollIntervalMs,
    ...(detailed && task.status === 'input_required' ? { inputRequests: task.inputRequests ?? {} } : {}),
    ...(detailed && task.status === 'completed' && task.result !== undefined ? { result: task.result } : {}),
    ...(detailed && task.status === 'failed' && task.error !== undefined ? { error: task.error } : {}),
  };
}

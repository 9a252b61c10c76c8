/** The 2026-07-28 extension's identifier, under `capabilities.extensions` on both sides. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** The `_meta` key that relates a message to its task (`{ taskId }`), in the 2025-11-25 utility. */
export const RELATED_TASK_META = 'io.modelcontextprotocol/related-task';

/** The message of a task still running when its server stopped (it then ends `failed`). */
export const SERVER_STOPPED_TEXT = 'the server stopped before the task finished';

/** The message of a task still running when its TTL passed (it then ends `failed`). */
export function ttlPassedText(ttlMs: number): string {
  return `the task's TTL of ${ttlMs} ms passed before it finished`;
}

/** How long a stopping server waits for its running tasks before it ends them `failed`: 5,000 ms. */
export const DEFAULT_TASK_DRAIN_MS = 5_000;

/** Tasks one `tasks/list` page holds (2025-11-25): 100. */
export const TASK_LIST_PAGE_SIZE = 100;

import { checkOptionsObject, invalidOption } from '../../../util/options.js';
import type { TaskStore } from '../../../runtime/tasks/index.js';

/** How a server runs the calls of its `@TaskSupport` tools as MCP tasks. */
export interface TaskOptions {
  /**
   * Where tasks are kept: a `MemoryTaskStore` by default (bounded: 32 live tasks per owner, 1,000
   * on the server, 10,000 kept), a shared store (`RedisTaskStore`) for several processes.
   */
  readonly store?: TaskStore;
  /**
   * How long a stopping server (`close()`, SIGTERM) waits for its running tasks before it ends
   * them `failed` ("the server stopped before the task finished"), in milliseconds. Default 5,000.
   */
  readonly drainMs?: number;
}

/** Throws, naming the option, unless `tasks` is a valid `TaskOptions` (or absent). */
export function checkTaskOptions(tasks: unknown, where: string): void {
  if (tasks === undefined) return;
  checkOptionsObject(`${where}: tasks`, tasks, ['store', 'drainMs']);
  const { store, drainMs } = tasks as { store?: unknown; drainMs?: unknown };
  if (
    store !== undefined &&
    (typeof store !== 'object' ||
      store === null ||
      typeof (store as TaskStore).create !== 'function' ||
      typeof (store as TaskStore).get !== 'function' ||
      typeof (store as TaskStore).update !== 'function' ||
      typeof (store as TaskStore).list !== 'function')
  )
    throw invalidOption(where, 'tasks.store', 'a TaskStore (create, get, update, list)', store);
  if (drainMs !== undefined && (typeof drainMs !== 'number' || !Number.isInteger(drainMs) || drainMs < 0))
    throw invalidOption(where, 'tasks.drainMs', 'a whole number of milliseconds, 0 or more', drainMs);
}

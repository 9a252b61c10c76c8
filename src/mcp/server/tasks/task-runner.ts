import { ProtocolErrorCode } from '@modelcontextprotocol/server';
import { errorText } from '../../../util/describe.js';
import { raceTimeout } from '../../../util/timeout.js';
import {
  isTerminalStatus,
  MemoryTaskStore,
  type TaskInit,
  type TaskRecord,
  type TaskStore,
} from '../../../runtime/tasks/index.js';
import { ttlPassedText } from './constants.js';

/** How long `stop` waits for the runs it aborted to settle: 2,000 ms. */
const ABORTED_RUN_SETTLE_MS = 2_000;

/** Why a task's signal aborted: its client cancelled it, its TTL passed, or its server stopped. */
export class TaskEndedError extends Error {
  override readonly name = 'TaskEndedError';
}

interface LocalTask {
  readonly controller: AbortController;
  readonly owner: string;
  readonly settled: Promise<TaskRecord | undefined>;
}

/**
 * Runs the tasks of one endpoint (every server of a `serveHttp` endpoint, of a stdio process)
 * detached from the requests that created them, and records what happens in the task store.
 * `start` records the task before it runs anything (so a `tasks/get` finds it as soon as the
 * client has its id), then runs it: a run that resolves ends the task `completed` with that
 * result, one that rejects ends it `failed` (`-32603` with the reason). A task is never run twice
 * and never moves out of a terminal status: a cancel records `cancelled` first and then aborts
 * the run, whose late end is dropped. A task still running when its TTL passes ends `failed`
 * (`the task's TTL of <n> ms passed before it finished`) and its run is aborted.
 */
export class TaskRunner {
  private readonly local = new Map<string, LocalTask>();

  constructor(readonly store: TaskStore = new MemoryTaskStore()) {}

  /** Records a new task for `init` and starts `run` with the task's own signal. */
  async start(init: TaskInit, run: (signal: AbortSignal, task: TaskRecord) => Promise<unknown>): Promise<TaskRecord> {
    const task = await this.store.create(init);
    const controller = new AbortController();
    const ttl = setTimeout(() => void this.end(task.taskId, ttlPassedText(task.ttlMs)), task.ttlMs);
    ttl.unref?.();
    // A shared store tells this process when the task ended elsewhere (cancelled by another process).
    let running = true;
    const unwatch = this.store.watch?.(task.taskId, (reason) => {
      if (running) controller.abort(new TaskEndedError(reason));
    });
    const settled = (async (): Promise<TaskRecord | undefined> => {
      try {
        const result = (await run(controller.signal, task)) as Record<string, unknown>;
        running = false;
        return await this.store.update(task.taskId, { status: 'completed', result });
      } catch (err) {
        running = false;
        const message = errorText(err);
        return await this.store
          .update(task.taskId, {
            status: 'failed',
            statusMessage: message,
            error: { code: ProtocolErrorCode.InternalError, message },
          })
          .catch(() => undefined);
      } finally {
        clearTimeout(ttl);
        unwatch?.();
        this.local.delete(task.taskId);
      }
    })();
    this.local.set(task.taskId, { controller, owner: init.owner, settled });
    return task;
  }

  /**
   * Cancels a live task: records `cancelled` (with `message`) and aborts its run. A terminal
   * task is left as it is. Resolves the task as it then is.
   */
  async cancel(task: TaskRecord, message: string): Promise<TaskRecord | undefined> {
    if (isTerminalStatus(task.status)) return task;
    const now = await this.store.update(task.taskId, { status: 'cancelled', statusMessage: message });
    this.local.get(task.taskId)?.controller.abort(new TaskEndedError(message));
    return now;
  }

  /**
   * Resolves the task `taskId` as it ended, once its run here settles (even when its TTL has
   * passed and the store no longer answers it); `undefined` at once when it does not run here.
   */
  settled(taskId: string): Promise<TaskRecord | undefined> {
    return this.local.get(taskId)?.settled ?? Promise.resolve(undefined);
  }

  /** True when the task `taskId` runs in this process. */
  runsHere(taskId: string): boolean {
    return this.local.has(taskId);
  }

  /**
   * Ends the running tasks (those of `owner` only, when given): waits up to `drainMs` for them to
   * settle, then ends those still running `failed` with `message` and aborts their runs, and
   * waits up to `ABORTED_RUN_SETTLE_MS` (2,000 ms) for the aborted runs to settle (a run that
   * honours its signal settles at once; a proxied one cancels its upstream task first).
   */
  async stop(message: string, drainMs: number, owner?: string): Promise<void> {
    const running = [...this.local.values()].filter((task) => owner === undefined || task.owner === owner);
    if (running.length === 0) return;
    if (drainMs > 0) await raceTimeout(Promise.all(running.map((task) => task.settled)), drainMs, () => undefined);
    const left = [...this.local.entries()].filter(([, task]) => owner === undefined || task.owner === owner);
    await Promise.all(left.map(([taskId]) => this.end(taskId, message)));
    await raceTimeout(Promise.all(left.map(([, task]) => task.settled)), ABORTED_RUN_SETTLE_MS, () => undefined);
  }

  private async end(taskId: string, message: string): Promise<void> {
    await this.store
      .update(taskId, {
        status: 'failed',
        statusMessage: message,
        error: { code: ProtocolErrorCode.InternalError, message },
      })
      .catch(() => undefined);
    this.local.get(taskId)?.controller.abort(new TaskEndedError(message));
  }
}

import { ProtocolErrorCode } from '@modelcontextprotocol/server';
import { errorText } from '../../../util/describe.js';
import { raceTimeout } from '../../../util/timeout.js';
import {
  isTerminalStatus,
  MemoryTaskStore,
  type TaskError,
  type TaskInit,
  type TaskRecord,
  type TaskStore,
} from '../../../runtime/tasks/index.js';
import type { OutboundRequest } from '../extra.js';
import { ProtocolError } from '../protocol-error.js';
import { ttlPassedText } from './constants.js';
import { TaskQuestions } from './task-questions.js';

/** How long `stop` waits for the runs it aborted to settle: 2,000 ms. */
const ABORTED_RUN_SETTLE_MS = 2_000;

/** Why a task's signal aborted: its client cancelled it, its TTL passed, or its server stopped. */
export class TaskEndedError extends Error {
  override readonly name = 'TaskEndedError';
}

interface LocalTask {
  readonly controller: AbortController;
  readonly owner: string;
  /** Set once the run has started (it may ask its first question before that). */
  settled: Promise<TaskRecord | undefined>;
  readonly questions: TaskQuestions;
}

/**
 * The JSON-RPC error a task's run ended with: a `ProtocolError` (what a plain call of the same
 * request is answered with as a JSON-RPC error: malformed params, a missing client capability)
 * as it is, anything else `-32603` with its text.
 */
function runErrorOf(err: unknown): TaskError {
  if (err instanceof ProtocolError)
    return err.data === undefined
      ? { code: err.code, message: err.message }
      : { code: err.code, message: err.message, data: err.data };
  return { code: ProtocolErrorCode.InternalError, message: errorText(err) };
}

/**
 * Runs the tasks of one endpoint (every server of a `serveHttp` endpoint, of a stdio process)
 * detached from the requests that created them, and records what happens in the task store.
 * `start` records the task before it runs anything (so a `tasks/get` finds it as soon as the
 * client has its id), then runs it: a run that resolves ends the task `completed` with that
 * result, one that rejects ends it `failed` with the JSON-RPC error a plain call would have been
 * answered with (a `ProtocolError` as it is, anything else `-32603` with the reason); a tool's
 * own failure is a result (`isError`), never a rejection. A task is never run twice
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
    const questions = new TaskQuestions(task.taskId, this.store);
    const unwatch = this.store.watch?.(
      task.taskId,
      (reason) => {
        if (running) controller.abort(new TaskEndedError(reason));
      },
      (answers) => void questions.answer(answers),
    );
    // Registered before the run starts: a run may ask its first question synchronously.
    const entry: LocalTask = { controller, owner: init.owner, settled: Promise.resolve(undefined), questions };
    this.local.set(task.taskId, entry);
    entry.settled = (async (): Promise<TaskRecord | undefined> => {
      try {
        const result = (await run(controller.signal, task)) as Record<string, unknown>;
        running = false;
        return await this.store.update(task.taskId, { status: 'completed', result });
      } catch (err) {
        running = false;
        const error = runErrorOf(err);
        return await this.store
          .update(task.taskId, { status: 'failed', statusMessage: error.message, error })
          .catch(() => undefined);
      } finally {
        questions.stop(new TaskEndedError('the task ended before its question was answered'));
        clearTimeout(ttl);
        unwatch?.();
        this.local.delete(task.taskId);
      }
    })();
    return task;
  }

  /**
   * Asks the question `request` of the task `taskId`, which runs here, the 2026-07-28 way (see
   * `TaskQuestions`): the task moves to `input_required` with it among its `inputRequests` until
   * `answer` hands over the client's answer. Rejects when the task does not run here.
   */
  ask(taskId: string, request: OutboundRequest, signal: AbortSignal): Promise<unknown> {
    const local = this.local.get(taskId);
    if (local === undefined) return Promise.reject(new TaskEndedError('the task no longer runs'));
    return local.questions.ask(request, signal);
  }

  /**
   * Hands checked `answers` (by key) to the open questions of the task `taskId`: at once when it
   * runs here (resolved once the task's new state is written), else through a shared store's
   * `deliver` to the process that runs it (eventually). Answers nobody waits for are dropped.
   * Rejects, taking nothing, with `the task runs in another process and the task store cannot
   * hand answers to it (it has watch but no deliver)` for a shared store (one with `watch`) that
   * has no `deliver`: such answers would otherwise be lost without a word.
   */
  async answer(taskId: string, answers: Readonly<Record<string, unknown>>): Promise<void> {
    const local = this.local.get(taskId);
    if (local !== undefined) return local.questions.answer(answers);
    if (this.store.deliver !== undefined) return this.store.deliver(taskId, answers);
    if (this.store.watch !== undefined)
      throw new Error(
        'the task runs in another process and the task store cannot hand answers to it (it has watch but no deliver)',
      );
  }

  /**
   * Ends the live task `taskId`, which runs here, `failed` with the JSON-RPC `error` (a question
   * the creating request's capabilities do not offer, as a plain call is refused) and aborts its
   * run. A terminal task is left as it is.
   */
  async fail(taskId: string, error: TaskError): Promise<void> {
    await this.store.update(taskId, { status: 'failed', statusMessage: error.message, error }).catch(() => undefined);
    this.local.get(taskId)?.controller.abort(new TaskEndedError(error.message));
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

  private end(taskId: string, message: string): Promise<void> {
    return this.fail(taskId, { code: ProtocolErrorCode.InternalError, message });
  }
}

import type { TaskInputRequest, TaskStore } from '../../../runtime/tasks/index.js';
import type { OutboundRequest } from '../extra.js';
import { questionKeyPrefixOf } from '../input-rounds/question-capability.js';

/** One open question of a task: what was asked, and how to hand back its answer. */
interface OpenQuestion {
  readonly request: TaskInputRequest;
  resolve(answer: unknown): void;
  reject(reason: unknown): void;
}

/**
 * The questions one 2026-07-28 task asks (`ctx.elicit`, `ctx.sample`, `ctx.roots`, a permission
 * question), the `io.modelcontextprotocol/tasks` extension's way: each becomes an entry of the
 * task's `inputRequests` (keyed by the key the tool chose, else `elicit_<n>`, `sample_<n>`,
 * `roots_<n>`; a key is never used twice in a task's life, as the extension requires), the task
 * moves to `input_required` while one is open and back to `working` once none is, and the
 * client's `tasks/update` answers them (`answer`). Every change is written to the task store in
 * order, so `tasks/get` (in any process, with a shared store) shows the questions still open. A
 * question is never asked twice: it waits in place until its answer comes, the call's signal
 * aborts (a cancel, the TTL, the server stopping), or `stop`. A failed store write is dropped:
 * the question then waits unseen, bounded by the task's TTL.
 */
export class TaskQuestions {
  private readonly open = new Map<string, OpenQuestion>();
  private readonly used = new Set<string>();
  private sequence = 0;
  private writes: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly taskId: string,
    private readonly store: TaskStore,
  ) {}

  /** Asks `request` and resolves the client's answer (rejects with the signal's reason when it aborts). */
  ask(request: OutboundRequest, signal: AbortSignal): Promise<unknown> {
    if (signal.aborted) return Promise.reject(signal.reason);
    let key = request.key !== undefined && !this.used.has(request.key) ? request.key : undefined;
    while (key === undefined || this.used.has(key)) key = `${questionKeyPrefixOf(request.method)}_${++this.sequence}`;
    const chosen = key;
    this.used.add(chosen);
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        if (!this.open.delete(chosen)) return;
        reject(signal.reason);
        void this.write();
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.open.set(chosen, {
        request: { method: request.method, params: request.params ?? {} },
        resolve: (answer) => {
          signal.removeEventListener('abort', onAbort);
          resolve(answer);
        },
        reject: (reason) => {
          signal.removeEventListener('abort', onAbort);
          reject(reason);
        },
      });
      void this.write();
    });
  }

  /** The questions open now, by key. */
  requests(): Readonly<Record<string, TaskInputRequest>> {
    // Keys are chosen by tools (`__proto__` is a valid one): no prototype to write through.
    const requests: Record<string, TaskInputRequest> = Object.create(null) as Record<string, TaskInputRequest>;
    for (const [key, question] of this.open) requests[key] = question.request;
    return requests;
  }

  /**
   * Hands `answers` (by key, already checked) to the questions still open; keys of no open
   * question are ignored. The task's new state (the questions left, or `working`) is written
   * before the tool sees an answer, so a `tasks/get` after this resolves never shows an answered
   * question.
   */
  async answer(answers: Readonly<Record<string, unknown>>): Promise<void> {
    const taken: [OpenQuestion, unknown][] = [];
    for (const [key, answer] of Object.entries(answers)) {
      const question = this.open.get(key);
      if (question === undefined || answer === undefined) continue;
      this.open.delete(key);
      taken.push([question, answer]);
    }
    if (taken.length === 0) return;
    await this.write();
    for (const [question, answer] of taken) question.resolve(answer);
  }

  /** Rejects every open question with `reason` (the run settled, or its task ended). */
  stop(reason: unknown): void {
    const open = [...this.open.values()];
    this.open.clear();
    for (const question of open) question.reject(reason);
  }

  /** Writes the task's state as the open questions make it, after every earlier write. */
  private write(): Promise<unknown> {
    this.writes = this.writes.then(() => {
      const keys = [...this.open.keys()];
      return this.store
        .update(
          this.taskId,
          keys.length === 0
            ? { status: 'working' }
            : {
                status: 'input_required',
                statusMessage: `waiting for the client's answer to ${keys.join(', ')} (tasks/update)`,
                inputRequests: this.requests(),
              },
        )
        .catch(() => undefined);
    });
    return this.writes;
  }
}

import type { ClientCapabilities, RequestId } from '@modelcontextprotocol/server';
import type { LogLevel } from '../../../contract/index.js';
import type { HandlerExtra, OutboundRequest } from '../extra.js';
import { InputRoundLimitError, InputRoundStoppedError, ParkedRunLimitError } from './errors.js';
import { missingCapabilityOf, questionKeyPrefixOf } from './question-capability.js';
import type { RequestCancellation } from './request-cancellation.js';
import type { RunBinding } from './run-binding.js';
import { asError, errorText } from '../../../util/describe.js';
import { callSpanOf, linkRequest, noteInputRound } from '../request-span.js';

/** What one `tools/call` request of a parked call is answered with. */
export type RoundOutcome =
  | { readonly kind: 'result'; readonly result: Record<string, unknown> }
  | { readonly kind: 'error'; readonly error: unknown }
  | { readonly kind: 'input'; readonly result: Record<string, unknown> };

/**
 * What a run needs of the store it parks in (`ParkedRuns`): its limits, a place to park, and to be
 * forgotten once it finished.
 */
export interface RunHost {
  /** How many input requests one call may send in all. */
  readonly maxRequests: number;
  /** How many calls one client may have parked at once. */
  readonly maxParkedPerClient: number;
  /** Parks `run`: its fresh `requestState`, or `undefined` when its client may park no more. */
  park(run: ParkedRun, binding: RunBinding): string | undefined;
  /** Forgets `run` wherever it is parked. */
  forget(run: ParkedRun): void;
}

/**
 * How a parked call turns into a task at `ctx.continueAsTask()`: given the request being answered
 * and the call's end (`ended` resolves the call's result, rejects with its protocol error), it
 * records the task and resolves what that request is answered with (the `CreateTaskResult`) and
 * the task's own request context (its signal, questions and notifications). Rejects, recording
 * nothing, when no task can be made (a task store bound).
 */
export type Escalation = (
  request: HandlerExtra,
  ended: Promise<Record<string, unknown>>,
) => Promise<{ readonly answer: Record<string, unknown>; readonly extra: HandlerExtra }>;

/** One question the call asked: the request sent to the client and how to hand back its answer. */
interface Question {
  readonly key: string;
  readonly request: OutboundRequest;
  resolve(answer: unknown): void;
  reject(error: unknown): void;
}

/** The request waiting for the call's next outcome. */
interface Waiting {
  readonly extra: HandlerExtra;
  readonly settle: (outcome: RoundOutcome) => void;
  readonly unlink: () => void;
}

/**
 * One `tools/call` served in the 2026-07-28 era, run detached from the request that started it, the
 * way the Go seed parks runs: the tool runs with a signal of its own, and every question it asks
 * (`ctx.elicit`, `ctx.sample`, a permission question) goes into the current round instead of being
 * pushed to the client (that era has no server-to-client requests). Questions asked in the same
 * turn form one round (`elicit_<n>` ids for elicitations, `sample_<n>` for sampling, `roots_<n>`
 * for roots, one sequence per call, unless the question names its own `key`). When a round closes
 * while a request waits, the call is parked and the request is answered `input_required` with the
 * round's requests and a fresh `requestState` (unless its client has `maxParkedPerClient` calls
 * parked already: then the round's questions fail with `ParkedRunLimitError` and the call goes on,
 * still answering the waiting request); the client's retry resumes it (`resume`), each answer
 * resolving its question (an elicitation with no answer is `cancel`; a sampling or roots request
 * with no answer fails). The call's own result, or its protocol error, answers the request that is
 * waiting when it finishes. The call never runs twice: a question waits in place.
 *
 * The request that is waiting relays the call's progress and log messages (dropped while the
 * call is parked) and decides what the client offers; cancelling it (a hang-up, a
 * `notifications/cancelled`) stops the call. A sampling or roots request the waiting request's
 * capabilities do not offer fails that request with `-32021` and stops the call.
 *
 * Given an `Escalation` (a `startsAsCall` task tool), the call may turn into a task
 * (`continueAsTask`): from then on it is the task's, and no request waits for it.
 */
export class ParkedRun {
  private readonly controller = new AbortController();
  /**
   * The call's own request context. Its `requestLogLevel` is the waiting request's, kept as a
   * plain property set as requests come and go (an accessor here would keep the object in V8's
   * dictionary mode, several hundred bytes more for every parked call).
   */
  private readonly extra: HandlerExtra & { requestLogLevel: LogLevel | undefined };
  private requests = 0;
  private sequence = 0;
  private round: Question[] = [];
  private asked: Question[] = [];
  private roundScheduled = false;
  private waiting: Waiting | undefined;
  private outcome: RoundOutcome | undefined;
  private lastCapabilities: ClientCapabilities | undefined;
  /** Answers the first request carried up front, by key; made only when it carried some. */
  private preset: Map<string, unknown> | undefined;
  /** The task's request context, once the call continues as a task. */
  private task: HandlerExtra | undefined;
  private escalating: Promise<void> | undefined;
  /** Where the call's end goes once it continues as a task (set as the escalation begins). */
  private ended: { resolve(result: Record<string, unknown>): void; reject(error: unknown): void } | undefined;

  constructor(
    readonly tool: string,
    private readonly host: RunHost,
    private readonly binding: RunBinding,
    first: HandlerExtra,
    private readonly escalation?: Escalation,
  ) {
    this.lastCapabilities = first.clientCapabilities();
    // The getter below has the extra object as its `this`, so the run is reached by name.
    // oxlint-disable-next-line typescript/no-this-alias
    const run = this;
    this.extra = {
      requestId: first.requestId as RequestId,
      signal: this.controller.signal,
      sessionId: first.sessionId,
      _meta: first._meta,
      authInfo: first.authInfo,
      era: 'modern',
      ...(first.trace === undefined ? {} : { trace: first.trace }),
      clientCapabilities: () => run.capabilities(),
      requestLogLevel: undefined,
      sendNotification: (notification) =>
        (run.task ?? run.waiting?.extra)?.sendNotification(notification) ?? Promise.resolve(),
      sendRequest: (request, options) => run.ask(request, options.signal),
      ...(escalation === undefined ? {} : { continueAsTask: () => run.continueAsTask() }),
    };
  }

  /**
   * Starts the call with `execute` (given the call's own `HandlerExtra`) and answers the request
   * `first` with its first outcome. `answers` are input responses the first request already
   * carried: a question whose key is among them is answered at once, without a round (a client
   * may answer up front; keys it sends that no question has are ignored). Given `cancellation`,
   * the first request's cancellation is read from it instead of `first.signal` (see
   * `RequestCancellation`).
   */
  start(
    first: HandlerExtra,
    execute: (extra: HandlerExtra) => Promise<Record<string, unknown>>,
    answers: Readonly<Record<string, unknown>> = {},
    cancellation?: RequestCancellation,
  ): Promise<RoundOutcome> {
    for (const [key, answer] of Object.entries(answers))
      if (answer !== undefined) (this.preset ??= new Map()).set(key, answer);
    const outcome = this.wait(first, cancellation);
    execute(this.extra).then(
      (result) => this.finish({ kind: 'result', result }),
      (error: unknown) => this.finish({ kind: 'error', error }),
    );
    return outcome;
  }

  /**
   * Resumes the call with the retry `extra`: each question of the last round gets its answer
   * from `responses` (by key), then the retry waits for the next outcome.
   */
  resume(extra: HandlerExtra, responses: Readonly<Record<string, unknown>>): Promise<RoundOutcome> {
    linkRequest(callSpanOf(this.extra), extra.trace);
    const outcome = this.wait(extra);
    const asked = this.asked;
    this.asked = [];
    for (const question of asked) {
      const answer = Object.hasOwn(responses, question.key) ? responses[question.key] : undefined;
      if (answer !== undefined) question.resolve(answer);
      else if (question.request.method === 'elicitation/create') question.resolve({ action: 'cancel' });
      else question.reject(new Error(`the client sent no answer to ${question.request.method} (${question.key})`));
    }
    return outcome;
  }

  /**
   * Turns the call into a task (the tool's `ctx.continueAsTask()`): the request waiting for the
   * call is answered with the task `Escalation` records, the call's later questions, messages and
   * end are the task's, and the task's signal (a cancel, its TTL, the server stopping) stops it.
   * Resolves at once without an escalation and once it continued as a task. Rejects with
   * `continueAsTask: the call still waits for answers to <keys>; await them before it continues
   * as a task` while a question is open; when no task can be made, the waiting request is
   * answered with that error, the call is stopped and this rejects with it.
   */
  continueAsTask(): Promise<void> {
    if (this.escalation === undefined || this.task !== undefined) return Promise.resolve();
    if (this.escalating !== undefined) return this.escalating;
    const open = [...this.asked, ...this.round].map((question) => question.key);
    if (open.length > 0)
      return Promise.reject(
        new Error(
          `continueAsTask: the call still waits for answers to ${open.join(', ')}; await them before it continues as a task`,
        ),
      );
    const waiting = this.waiting;
    if (waiting === undefined || this.controller.signal.aborted)
      return Promise.reject(
        this.controller.signal.aborted
          ? asError(this.controller.signal.reason)
          : new Error('continueAsTask: no request waits for the call'),
      );
    this.escalating = this.escalate(this.escalation, waiting);
    return this.escalating;
  }

  private async escalate(escalation: Escalation, waiting: Waiting): Promise<void> {
    this.waiting = undefined;
    waiting.unlink();
    this.host.forget(this);
    const ended = new Promise<Record<string, unknown>>((resolve, reject) => {
      this.ended = { resolve, reject };
    });
    let task: Awaited<ReturnType<Escalation>>;
    try {
      task = await escalation(waiting.extra, ended);
    } catch (error) {
      this.ended = undefined;
      waiting.settle({ kind: 'error', error });
      this.stop(new InputRoundStoppedError(`the call could not continue as a task: ${errorText(error)}`));
      throw error;
    }
    this.task = task.extra;
    this.extra.requestLogLevel = task.extra.requestLogLevel;
    const signal = task.extra.signal;
    const stopped = (): void => this.stop(asError(signal.reason));
    if (signal.aborted) stopped();
    else signal.addEventListener('abort', stopped, { once: true });
    waiting.settle({ kind: 'result', result: task.answer });
  }

  /** Stops the call: its signal aborts with `reason`; open questions reject with it. */
  stop(reason: Error): void {
    if (!this.controller.signal.aborted) this.controller.abort(reason);
    for (const question of [...this.asked, ...this.round]) question.reject(reason);
    this.asked = [];
    this.round = [];
  }

  private capabilities(): ClientCapabilities | undefined {
    if (this.task !== undefined) return this.task.clientCapabilities();
    if (this.waiting !== undefined) this.lastCapabilities = this.waiting.extra.clientCapabilities();
    return this.lastCapabilities;
  }

  /**
   * Makes `extra`'s request the one waiting for the call's next outcome, until the outcome or the
   * request's cancellation: `cancellation` when given, else `extra.signal` (whose abort listener
   * is the costlier of the two).
   */
  private wait(extra: HandlerExtra, cancellation?: RequestCancellation): Promise<RoundOutcome> {
    this.requests += 1;
    if (this.outcome !== undefined) return Promise.resolve(this.outcome);
    return new Promise<RoundOutcome>((settle) => {
      const onAbort = (): void => {
        this.host.forget(this);
        this.stop(new InputRoundStoppedError('the client cancelled the request'));
      };
      let cancelled: boolean;
      if (cancellation === undefined) {
        const signal = extra.signal;
        signal.addEventListener('abort', onAbort, { once: true });
        this.waiting = { extra, settle, unlink: () => signal.removeEventListener('abort', onAbort) };
        cancelled = signal.aborted;
      } else {
        cancellation.onCancel(onAbort);
        this.waiting = { extra, settle, unlink: () => cancellation.offCancel(onAbort) };
        cancelled = cancellation.cancelled;
      }
      this.extra.requestLogLevel = extra.requestLogLevel;
      this.lastCapabilities = extra.clientCapabilities();
      if (cancelled) onAbort();
      else if (this.round.length > 0) this.scheduleRound();
    });
  }

  private answer(outcome: RoundOutcome): void {
    const waiting = this.waiting;
    if (waiting === undefined) return;
    this.waiting = undefined;
    this.extra.requestLogLevel = undefined;
    waiting.unlink();
    waiting.settle(outcome);
  }

  private finish(outcome: RoundOutcome): void {
    this.outcome = outcome;
    this.host.forget(this);
    const ended = this.ended;
    if (ended === undefined) this.answer(outcome);
    else if (outcome.kind === 'error') ended.reject(outcome.error);
    else ended.resolve(outcome.result);
  }

  private ask(request: OutboundRequest, signal: AbortSignal): Promise<unknown> {
    if (this.controller.signal.aborted) return Promise.reject(this.controller.signal.reason);
    // A question of a call that continues as a task is the task's (asked once the task exists).
    if (this.task !== undefined) return this.task.sendRequest(request, { signal });
    if (this.escalating !== undefined) return this.escalating.then(() => this.ask(request, signal));
    const message = messageOf(request);
    if (this.requests >= this.host.maxRequests)
      return Promise.reject(new InputRoundLimitError(this.host.maxRequests, message));
    const sequenced = `${questionKeyPrefixOf(request.method)}_${++this.sequence}`;
    // A key the tool chose is used unless another question of the round already has it.
    const key = request.key !== undefined && !this.round.some((q) => q.key === request.key) ? request.key : sequenced;
    if (this.preset?.has(key) === true) {
      const answer = this.preset.get(key);
      this.preset.delete(key);
      return Promise.resolve(answer);
    }
    const missing = missingCapabilityOf(request.method, this.capabilities(), key);
    if (missing !== undefined) {
      this.answer({ kind: 'error', error: missing.error });
      this.stop(new InputRoundStoppedError(`the client does not offer ${missing.capability}`));
      return Promise.reject(missing.error);
    }
    return new Promise((resolve, reject) => {
      const question: Question = { key, request, resolve, reject };
      // The call's own signal aborts only in `stop`, which rejects every open question with the
      // same reason: a listener of its own (some 300 bytes per parked call) is needed only for
      // another signal (a tool that asks under a signal it made).
      if (signal !== this.controller.signal)
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      this.round.push(question);
      this.scheduleRound();
    });
  }

  private scheduleRound(): void {
    if (this.roundScheduled) return;
    this.roundScheduled = true;
    // Questions asked in the same turn (Promise.all over several ctx.elicit calls) join one round.
    setImmediate(() => {
      this.roundScheduled = false;
      this.closeRound();
    });
  }

  private closeRound(): void {
    if (this.waiting === undefined || this.round.length === 0 || this.outcome !== undefined) return;
    const round = this.round;
    this.round = [];
    const requestState = this.host.park(this, this.binding);
    if (requestState === undefined) {
      // The client has as many calls parked as it may: this one goes on without its answers.
      const max = this.host.maxParkedPerClient;
      for (const question of round) question.reject(new ParkedRunLimitError(max, messageOf(question.request)));
      return;
    }
    this.asked.push(...round);
    const inputRequests: Record<string, unknown> = {};
    for (const question of round)
      inputRequests[question.key] = { method: question.request.method, params: question.request.params ?? {} };
    noteInputRound(
      callSpanOf(this.extra),
      round.map((question) => `${question.key} ${question.request.method}`),
    );
    this.answer({ kind: 'input', result: { resultType: 'input_required', inputRequests, requestState } });
  }
}

/** How a question is named in a refusal: its `message`, else its method. */
function messageOf(request: OutboundRequest): string {
  return typeof request.params?.message === 'string' ? request.params.message : request.method;
}

import { ProtocolErrorCode, type ServerContext } from '@modelcontextprotocol/server';
import { pause } from '../../../util/timeout.js';
import { isJsonObject, taskTermsOf } from '../../../contract/index.js';
import { asError, kindOf } from '../../../util/describe.js';
import { isTerminalStatus, type TaskRecord } from '../../../runtime/tasks/index.js';
import type { HandlerExtra, OutboundRequest } from '../extra.js';
import type { OwnHandler } from '../own-handlers.js';
import { invalidParams, ProtocolError } from '../protocol-error.js';
import type { ServedTool } from '../served-tools.js';
import { RELATED_TASK_META, TASK_LIST_PAGE_SIZE, TASKS_EXTENSION } from './constants.js';
import { taskOwnerOf } from './task-owner.js';
import type { TaskRunner } from './task-runner.js';
import { legacyTaskOf, modernTaskOf } from './task-wire.js';
import { inputResponseProblem } from './input-responses.js';
import { missingCapabilityOf } from '../input-rounds/question-capability.js';

/** Runs one tool call through the call core with the given request context, and resolves its MCP result. */
export type RunToolCall = (params: unknown, extra: HandlerExtra) => Promise<Record<string, unknown>>;

/** What the task methods of one server need: its runner, its tools, and its connection (stdio, in memory). */
export interface TaskServing {
  readonly runner: TaskRunner;
  readonly tools: ReadonlyMap<string, ServedTool>;
  readonly connection: object | undefined;
}

/** True when the request's client declared the 2026-07-28 tasks extension (in its own `_meta` envelope). */
function declaresTasks(extra: HandlerExtra): boolean {
  const extensions = (extra.clientCapabilities() as { extensions?: unknown } | undefined)?.extensions;
  return isJsonObject(extensions) && extensions[TASKS_EXTENSION] !== undefined;
}

function missingTasksCapability(what: string): ProtocolError {
  return new ProtocolError(
    ProtocolErrorCode.MissingRequiredClientCapability,
    `${what} needs the client capability extensions["${TASKS_EXTENSION}"], which this request does not declare`,
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
  );
}

function methodNotFound(message: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.MethodNotFound, message);
}

/**
 * How a `tools/call` runs, by the era's rules and the tool's task claim: `task` (answered at
 * once with a task), `starts-as-call` (a plain 2026-07-28 call that becomes a task at
 * `ctx.continueAsTask()`, see `escalationOf`) or `plain`. 2025-11-25: a call with a `task`
 * object runs as a task when the tool's `execution.taskSupport` is `required` or `optional`;
 * `-32601` (the utility's answer) for a call with `task` to a tool without the claim, and for a
 * call without `task` to a `required` tool. 2026-07-28: the server decides: a request that
 * declares the extension runs a `required` or `optional` tool as a task (`starts-as-call` for a
 * claim with `startsAsCall`; a legacy `task` param is ignored); a `required` tool called without
 * the extension is `-32021` (Missing Required Client Capability, with
 * `data.requiredCapabilities`). An unknown tool or bad params are left to the call itself.
 */
export function taskModeOf(
  tools: ReadonlyMap<string, ServedTool>,
  params: unknown,
  extra: HandlerExtra,
):
  | { readonly mode: 'plain' }
  | { readonly mode: 'starts-as-call'; readonly served: ServedTool }
  | { readonly mode: 'task'; readonly served: ServedTool; readonly ttlMs?: number } {
  const given = isJsonObject(params) ? params : {};
  const served = typeof given.name === 'string' ? tools.get(given.name) : undefined;
  if (served === undefined) return { mode: 'plain' };
  const { support, startsAsCall } = taskTermsOf(served.prepared.tool);
  if (extra.era === 'modern') {
    if (support === 'forbidden') return { mode: 'plain' };
    if (declaresTasks(extra)) return startsAsCall ? { mode: 'starts-as-call', served } : { mode: 'task', served };
    if (support === 'required') throw missingTasksCapability(`tool "${served.prepared.name}" runs only as a task and`);
    return { mode: 'plain' };
  }
  const task = given.task;
  if (task === undefined) {
    if (support === 'required')
      throw methodNotFound(
        `tool "${served.prepared.name}" runs only as a task (execution.taskSupport "required"): call it with params.task`,
      );
    return { mode: 'plain' };
  }
  if (!isJsonObject(task)) throw invalidParams(`tools/call: params.task must be an object, got ${kindOf(task)}`);
  if (support === 'forbidden')
    throw methodNotFound(
      `tool "${served.prepared.name}" does not run as a task (execution.taskSupport "forbidden"): call it without params.task`,
    );
  const ttl = task.ttl;
  return typeof ttl === 'number' && Number.isInteger(ttl) && ttl >= 1
    ? { mode: 'task', served, ttlMs: ttl }
    : { mode: 'task', served };
}

/**
 * Starts the call as a task and answers the era's `CreateTaskResult`: `{task}` in 2025-11-25,
 * the flat `{resultType:"task", taskId, ...}` in 2026-07-28. The TTL is the tool's, or the
 * client's when it asks for less (2025-11-25 `task.ttl`). The run goes through the same call
 * core as any call (`run`), detached from the request: its signal is the task's own (a cancel,
 * the TTL, the server stopping), its progress and log notifications go out on the request's
 * connection, best effort, with `_meta["io.modelcontextprotocol/related-task"]`; a question it
 * asks in the 2025 era (an elicitation, a sampling request) moves the task to `input_required`
 * until it is answered. The tool's `@Timeout` counts from the start of the task and covers its
 * whole run (the wait for a scheduling turn included), and a held `@Resource` turn is kept until
 * the run settles, exactly as for a plain call. A `TaskLimitError` from the store is answered as
 * a JSON-RPC error `-32000` with its message and `data: {retryable: true, limit, max}`.
 */
export async function startToolTask(
  serving: TaskServing,
  served: ServedTool,
  params: unknown,
  extra: HandlerExtra,
  run: RunToolCall,
  requestedTtlMs?: number,
): Promise<Record<string, unknown>> {
  const task = await startTaskRun(serving, served, extra, (taskExtra) => run(params, taskExtra), requestedTtlMs);
  return createTaskResultOf(extra, task);
}

/**
 * Records a task of `served` for the request `extra` (owned by its caller, see `taskOwnerOf`; the
 * tool's TTL, or `requestedTtlMs` when shorter) and starts `run` with the task's own request
 * context (see `detachedExtra`); resolves the task as recorded. `run` resolving ends the task
 * `completed` with its result, rejecting ends it `failed` (see `TaskRunner.start`). A
 * `TaskLimitError` from the store rejects as a JSON-RPC error `-32000` with its message and
 * `data: {retryable: true, limit, max}`, and nothing runs.
 */
export async function startTaskRun(
  serving: TaskServing,
  served: ServedTool,
  extra: HandlerExtra,
  run: (taskExtra: HandlerExtra) => Promise<Record<string, unknown>>,
  requestedTtlMs?: number,
): Promise<TaskRecord> {
  const terms = taskTermsOf(served.prepared.tool);
  const owner = taskOwnerOf(extra, serving.connection);
  const ttlMs = requestedTtlMs === undefined ? terms.ttlMs : Math.min(requestedTtlMs, terms.ttlMs);
  try {
    return await serving.runner.start(
      { owner, tool: served.prepared.name, ttlMs, pollIntervalMs: terms.pollIntervalMs },
      (signal, created) => run(detachedExtra(serving, extra, signal, created.taskId)),
    );
  } catch (err) {
    const limit = err as { code?: unknown; message: string; limit?: unknown; max?: unknown };
    if (limit.code === 'task-limit')
      throw new ProtocolError(-32000, limit.message, { retryable: true, limit: limit.limit, max: limit.max });
    throw err;
  }
}

/** The era's `CreateTaskResult` for `task`, created by the request `extra`. */
export function createTaskResultOf(extra: HandlerExtra, task: TaskRecord): Record<string, unknown> {
  return extra.era === 'modern' ? { resultType: 'task', ...modernTaskOf(task, false) } : { task: legacyTaskOf(task) };
}

function withRelatedTask(params: Record<string, unknown> | undefined, taskId: string): Record<string, unknown> {
  const meta = isJsonObject(params?._meta) ? params._meta : {};
  return { ...params, _meta: { ...meta, [RELATED_TASK_META]: { taskId } } };
}

/**
 * The request context a task's run gets: the task's signal, notifications tagged with the task,
 * and questions asked the era's way. 2025-11-25: pushed to the client with the related-task
 * `_meta`, the task `input_required` until the answer comes; questions and notifications go out
 * related to no request where the transport allows (the request that started the task is
 * answered at once, and over HTTP its stream closes with the answer). 2026-07-28: put into the
 * task's `inputRequests` for `tasks/update` to answer (see `TaskQuestions`); a sampling or roots
 * question the creating request's capabilities do not offer ends the task `failed` with the
 * `-32021` error a plain call of that request gets, and stops its run.
 */
function detachedExtra(serving: TaskServing, extra: HandlerExtra, signal: AbortSignal, taskId: string): HandlerExtra {
  const store = serving.runner.store;
  const modern = async (request: OutboundRequest, options: { readonly signal: AbortSignal }) => {
    const missing = missingCapabilityOf(request.method, extra.clientCapabilities());
    if (missing !== undefined) {
      const { code, message, data } = missing.error;
      await serving.runner.fail(taskId, { code, message, data });
      throw missing.error;
    }
    return serving.runner.ask(taskId, request, options.signal);
  };
  const legacy = async (request: OutboundRequest, options: { readonly signal: AbortSignal }) => {
    await store.update(taskId, {
      status: 'input_required',
      statusMessage: `waiting for an answer to ${request.method}`,
    });
    try {
      const send = extra.sendDetachedRequest ?? extra.sendRequest;
      return await send({ ...request, params: withRelatedTask(request.params, taskId) }, options);
    } finally {
      await store.update(taskId, { status: 'working' }).catch(() => undefined);
    }
  };
  return {
    ...extra,
    signal,
    taskId,
    clientCapabilities: () => extra.clientCapabilities(),
    sendNotification: (notification: OutboundRequest) =>
      (extra.sendDetachedNotification ?? extra.sendNotification)({
        ...notification,
        params: withRelatedTask(notification.params, taskId),
      }),
    sendRequest: extra.era === 'modern' ? modern : legacy,
  };
}

/**
 * The `inputResponses` of a `tasks/update` that answer open questions of `task`, each checked
 * against its question (see `inputResponseProblem`). Keys of no open question are ignored, as
 * the extension asks (never issued, already answered, or a task no longer `input_required`).
 * Throws `-32602` naming every problem: `params.inputResponses` not an object
 * (`tasks/update: params.inputResponses must be an object keyed by the task's inputRequests
 * keys, got nothing`), or an answer that does not fit its question (`tasks/update:
 * inputResponses["elicit_1"] answers elicitation/create and needs "action" "accept", "decline"
 * or "cancel", got "yes"`); then no answer is taken.
 */
function answersOf(task: TaskRecord, params: unknown, ctx: ServerContext): Record<string, unknown> {
  // The SDK takes a 2026-07-28 request's inputResponses out of its params (the MRTR envelope).
  const responses = ctx.mcpReq.inputResponses ?? (isJsonObject(params) ? params.inputResponses : undefined);
  if (!isJsonObject(responses))
    throw invalidParams(
      `tasks/update: params.inputResponses must be an object keyed by the task's inputRequests keys, got ${kindOf(responses)}`,
    );
  const open = task.status === 'input_required' ? (task.inputRequests ?? {}) : {};
  const answers: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const problems: string[] = [];
  for (const [key, answer] of Object.entries(responses)) {
    const request = Object.hasOwn(open, key) ? open[key] : undefined;
    if (request === undefined) continue;
    const problem = inputResponseProblem(request, answer);
    if (problem === undefined) answers[key] = answer;
    else problems.push(`inputResponses[${JSON.stringify(key)}] ${problem}`);
  }
  if (problems.length > 0) throw invalidParams(`tasks/update: ${problems.join('; ')}`);
  return answers;
}

function taskIdOf(method: string, params: unknown): string {
  const taskId = isJsonObject(params) ? params.taskId : undefined;
  if (typeof taskId !== 'string' || taskId === '')
    throw invalidParams(`${method}: params.taskId must be a non-empty string, got ${kindOf(taskId)}`);
  return taskId;
}

async function ownTask(
  serving: TaskServing,
  method: string,
  params: unknown,
  extra: HandlerExtra,
): Promise<TaskRecord> {
  const taskId = taskIdOf(method, params);
  const task = await serving.runner.store.get(taskId, taskOwnerOf(extra, serving.connection));
  if (task === undefined) throw invalidParams(`Failed to retrieve task: Task not found (${taskId})`);
  return task;
}

/** Waits, bounded by the request's signal, until the task is terminal; resolves it then. */
async function terminal(serving: TaskServing, task: TaskRecord, extra: HandlerExtra): Promise<TaskRecord> {
  let now: TaskRecord | undefined = task;
  while (now !== undefined && !isTerminalStatus(now.status)) {
    if (extra.signal.aborted) throw asError(extra.signal.reason);
    if (serving.runner.runsHere(now.taskId)) {
      const ended = await untilAborted(serving.runner.settled(now.taskId), extra.signal);
      if (ended !== undefined && isTerminalStatus(ended.status)) return ended;
    } else await pause(now.pollIntervalMs, extra.signal);
    now = await serving.runner.store.get(task.taskId, task.owner);
  }
  if (now === undefined) throw invalidParams(`Failed to retrieve task: Task not found (${task.taskId})`);
  return now;
}

/** `settled`, or `undefined` as soon as `signal` aborts (the loop then throws its reason). */
function untilAborted<T>(settled: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  return new Promise((resolve, reject) => {
    const done = (): void => resolve(undefined);
    signal.addEventListener('abort', done, { once: true });
    settled.then(
      (value) => {
        signal.removeEventListener('abort', done);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', done);
        reject(err);
      },
    );
  });
}

/**
 * The task methods of both eras, by method: `tasks/get`, `tasks/cancel`, and `tasks/result` and
 * `tasks/list` (2025-11-25 only: `-32601` in 2026-07-28, where `tasks/get` inlines the result),
 * and `tasks/update` (2026-07-28 only: answers the task's open questions, see `answersOf`, and
 * acks `{resultType:"complete"}` once they are handed over). Every one sees only the tasks of the
 * request's owner (see `taskOwnerOf`): another owner's task, an expired one and an unknown id
 * are all `-32602 Failed to retrieve task: Task not found (<id>)`. In 2026-07-28 a request that
 * does not declare the extension gets `-32021`. `tasks/result` waits for the task to end, then answers its result
 * with `_meta[related-task]` (a failed task: its JSON-RPC error; a cancelled one: `-32602`).
 * `tasks/cancel` of a live task records `cancelled` and aborts its run; of an ended one, it is
 * `-32602` in 2025-11-25 (the utility's rule) and an empty ack in 2026-07-28.
 */
export function taskMethods(serving: TaskServing): ReadonlyMap<string, OwnHandler> {
  const modernOnly = (method: string) => (extra: HandlerExtra) => {
    if (extra.era !== 'modern') throw methodNotFound('Method not found');
    if (!declaresTasks(extra)) throw missingTasksCapability(method);
  };
  const legacyOnly = (extra: HandlerExtra) => {
    if (extra.era === 'modern') throw methodNotFound('Method not found');
  };
  const gate = (method: string, extra: HandlerExtra) => {
    if (extra.era === 'modern' && !declaresTasks(extra)) throw missingTasksCapability(method);
  };
  return new Map<string, OwnHandler>([
    [
      'tasks/get',
      async (params, extra) => {
        gate('tasks/get', extra);
        const task = await ownTask(serving, 'tasks/get', params, extra);
        return extra.era === 'modern' ? { resultType: 'complete', ...modernTaskOf(task, true) } : legacyTaskOf(task);
      },
    ],
    [
      'tasks/result',
      async (params, extra) => {
        legacyOnly(extra);
        const task = await terminal(serving, await ownTask(serving, 'tasks/result', params, extra), extra);
        if (task.status === 'failed') {
          const error = task.error ?? {
            code: ProtocolErrorCode.InternalError,
            message: task.statusMessage ?? 'failed',
          };
          throw new ProtocolError(error.code, error.message, { [RELATED_TASK_META]: { taskId: task.taskId } });
        }
        if (task.status === 'cancelled') throw invalidParams(`task ${task.taskId} was cancelled: it has no result`);
        const result = task.result ?? { content: [] };
        const meta = isJsonObject(result._meta) ? result._meta : {};
        return { ...result, _meta: { ...meta, [RELATED_TASK_META]: { taskId: task.taskId } } };
      },
    ],
    [
      'tasks/cancel',
      async (params, extra) => {
        gate('tasks/cancel', extra);
        const task = await ownTask(serving, 'tasks/cancel', params, extra);
        if (extra.era !== 'modern' && isTerminalStatus(task.status))
          throw invalidParams(`Cannot cancel task: already in terminal status "${task.status}"`);
        const now = (await serving.runner.cancel(task, 'cancelled by the client')) ?? task;
        return extra.era === 'modern' ? { resultType: 'complete' } : legacyTaskOf(now);
      },
    ],
    [
      'tasks/list',
      async (params, extra) => {
        legacyOnly(extra);
        const cursor = isJsonObject(params) ? params.cursor : undefined;
        if (cursor !== undefined && typeof cursor !== 'string')
          throw invalidParams(`tasks/list: params.cursor must be a string, got ${kindOf(cursor)}`);
        const page = await serving.runner.store.list(taskOwnerOf(extra, serving.connection), {
          ...(cursor === undefined ? {} : { cursor }),
          limit: TASK_LIST_PAGE_SIZE,
        });
        return {
          tasks: page.tasks.map(legacyTaskOf),
          ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }),
        };
      },
    ],
    [
      'tasks/update',
      async (params, extra, ctx) => {
        modernOnly('tasks/update')(extra);
        const task = await ownTask(serving, 'tasks/update', params, extra);
        const answers = answersOf(task, params, ctx);
        if (Object.keys(answers).length > 0) await serving.runner.answer(task.taskId, answers);
        return { resultType: 'complete' };
      },
    ],
  ]);
}

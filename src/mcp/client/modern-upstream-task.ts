import { isJsonObject, type JsonObject } from '../../contract/index.js';
import { TASKS_EXTENSION } from '../server/tasks/constants.js';
import { requestOn, type ClientRequestOptions, type McpClientLike } from './client-like.js';
import {
  boundedRequests,
  cancelUpstreamTask,
  createUpstreamTask,
  pollUpstreamTask,
  remaining,
  upstreamTaskEnded,
} from './upstream-task.js';

/** The 2026-07-28 request `_meta` key of the client's capabilities (its per-request envelope). */
const CLIENT_CAPABILITIES_META = 'io.modelcontextprotocol/clientCapabilities';

/** Where a task answer is kept on the result the SDK hands back (see `taskAnswersOf`). */
const TASK_ANSWER_META = 'io.github.christopherdavenport.toolwright/upstream-task';

/**
 * The members of a 2.x `Client` this file relies on beyond its public surface: `_onresponse`,
 * the SDK's documented override point for inbound responses ("subclass overrides must delegate
 * unmatched traffic"), and `_capabilities`, what the client declared (the 2.x client has no
 * public getter for it).
 */
interface ClientInternals {
  _onresponse?: (response: unknown) => unknown;
  _capabilities?: unknown;
}

/** Per client: how many task-declaring `tools/call` requests of toolwright are in flight. */
const readers = new WeakMap<object, { pending: number }>();

/**
 * Makes `client` hand a 2026-07-28 task answer (`resultType: "task"`) back as a result: the SDK's
 * 2026 codec refuses any result type but `complete` and `input_required` before a result schema
 * sees it (`UNSUPPORTED_RESULT_TYPE`, the task id lost). While a call of `callAsModernUpstreamTask`
 * is in flight on the client, a response whose result is a task becomes the `complete` result
 * `{content: [], _meta: {[TASK_ANSWER_META]: <the task>}}`, which that call reads back; every
 * other response passes unchanged. Installed once per client. Throws when the client has no
 * `_onresponse` to wrap (not a 2.x `Client`).
 */
function taskAnswersOf(client: McpClientLike): { pending: number } {
  const known = readers.get(client);
  if (known !== undefined) return known;
  const internals = client as unknown as ClientInternals;
  const original = internals._onresponse;
  if (typeof original !== 'function')
    throw new TypeError(
      'the MCP client cannot read a 2026-07-28 task answer: it is not a Client of @modelcontextprotocol/client',
    );
  const reader = { pending: 0 };
  internals._onresponse = function (this: unknown, response: unknown) {
    const result = isJsonObject(response) ? response.result : undefined;
    if (reader.pending > 0 && isJsonObject(result) && result.resultType === 'task') {
      const { resultType: _task, ...task } = result;
      response = {
        ...(response as JsonObject),
        result: { resultType: 'complete', content: [], _meta: { [TASK_ANSWER_META]: task } },
      };
    }
    return original.call(this, response);
  };
  readers.set(client, reader);
  return reader;
}

/**
 * The request `_meta` that declares the tasks extension on one request: the client's own
 * capabilities with `extensions["io.modelcontextprotocol/tasks"]` added, in the key the SDK's
 * envelope gives way to (a request's own `_meta` keys win), so no other request of the client
 * declares it.
 */
function declaringTasks(client: McpClientLike, meta: unknown): Record<string, unknown> {
  const declared = (client as unknown as ClientInternals)._capabilities;
  const capabilities = isJsonObject(declared) ? declared : {};
  const extensions = isJsonObject(capabilities.extensions) ? capabilities.extensions : {};
  return {
    ...(isJsonObject(meta) ? meta : {}),
    [CLIENT_CAPABILITIES_META]: { ...capabilities, extensions: { ...extensions, [TASKS_EXTENSION]: {} } },
  };
}

/**
 * Answers one question an upstream task asks (`{method, params}` of its `inputRequests`): the
 * answer as the method's result (an `ElicitResult` for `elicitation/create`), or `undefined` when
 * nobody can answer it (the question stays open).
 */
export type UpstreamQuestionAnswerer = (question: {
  readonly method: string;
  readonly params: Record<string, unknown>;
}) => Promise<Record<string, unknown> | undefined>;

/**
 * Answers the open questions of `task` not asked before (each key once: a task never reuses one),
 * all at once, and sends the answers given in one `tasks/update` (`send`).
 */
async function answerQuestions(
  task: ModernWireTask,
  asked: Set<string>,
  answer: UpstreamQuestionAnswerer,
  send: (inputResponses: Record<string, unknown>) => Promise<unknown>,
): Promise<void> {
  const open = isJsonObject(task.inputRequests) ? Object.entries(task.inputRequests) : [];
  const fresh = open.filter(([key, question]) => !asked.has(key) && isJsonObject(question));
  if (fresh.length === 0) return;
  for (const [key] of fresh) asked.add(key);
  const answers = await Promise.all(
    fresh.map(async ([key, question]) => {
      const { method, params } = question as { method?: unknown; params?: unknown };
      const given =
        typeof method === 'string' ? await answer({ method, params: isJsonObject(params) ? params : {} }) : undefined;
      return [key, given] as const;
    }),
  );
  const inputResponses = Object.fromEntries(answers.filter(([, given]) => given !== undefined));
  if (Object.keys(inputResponses).length > 0) await send(inputResponses);
}

interface ModernWireTask {
  readonly taskId: string;
  readonly status: string;
  readonly statusMessage?: string;
  readonly pollIntervalMs?: number;
  readonly result?: unknown;
  readonly error?: { readonly message?: unknown };
  readonly inputRequests?: unknown;
}

/**
 * Calls a tool of a 2026-07-28 server as a task of the `io.modelcontextprotocol/tasks` extension,
 * with a 2.x client in that era: `tools/call` declaring the extension on that request alone; a
 * server that answers at once (it decides per call) is answered as a plain call. A task answer is
 * polled with `tasks/get` (declaring the extension) at the interval the server suggests (at least
 * 10 ms) until it ends: `completed` resolves the result it inlines; `failed` rejects with `the
 * upstream task <id> ended failed: <its error's message>`, `cancelled` with `the upstream task
 * <id> ended cancelled: <status message>`. `options.signal` aborting sends `tasks/cancel` (best
 * effort, waiting at most 1,000 ms for its answer) and stops waiting (also while the creating
 * call is in flight: see `createUpstreamTask`); `options.timeout` bounds the whole wait (the
 * host's time limit), past which the task is cancelled too and this rejects with a `-32001`
 * timeout, as a plain call's does. A task that waits for input (`input_required`) has its open
 * `inputRequests` answered by `answerQuestion`, each key once, all at once, and the answers sent
 * in one `tasks/update`; a question it cannot answer stays open (the task waits, bounded by the
 * time limit and its TTL).
 */
export async function callAsModernUpstreamTask(
  client: McpClientLike,
  params: Record<string, unknown>,
  options: ClientRequestOptions,
  answerQuestion: UpstreamQuestionAnswerer = async () => undefined,
): Promise<unknown> {
  const { deadline, signal, request } = boundedRequests(client, options);
  const meta = declaringTasks(client, undefined);
  const taskOf = (answer: Record<string, unknown>) =>
    isJsonObject(answer._meta) ? answer._meta[TASK_ANSWER_META] : undefined;
  const reader = taskAnswersOf(client);
  const send = async (): Promise<Record<string, unknown>> => {
    reader.pending += 1;
    try {
      const body = { ...params, _meta: declaringTasks(client, params._meta) };
      return (await requestOn(client, 'tools/call', body, { timeout: remaining(deadline) })) as Record<string, unknown>;
    } finally {
      reader.pending -= 1;
    }
  };
  const answer = await createUpstreamTask(send, signal, async (late) => {
    const task = taskOf(late);
    if (isJsonObject(task) && typeof task.taskId === 'string')
      await cancelUpstreamTask(client, { taskId: task.taskId, _meta: meta });
  });
  const created = taskOf(answer);
  if (created === undefined) return answer;
  if (!isJsonObject(created) || typeof created.taskId !== 'string' || created.taskId === '')
    throw new Error('the server answered a task without a taskId');
  const taskId = created.taskId;
  const cancel = () => cancelUpstreamTask(client, { taskId, _meta: meta });
  const asked = new Set<string>();
  const task = await pollUpstreamTask(
    created as unknown as ModernWireTask,
    (polled) => polled.pollIntervalMs,
    async () => {
      const polled = (await request('tasks/get', { taskId, _meta: meta })) as unknown as ModernWireTask;
      if (polled.status === 'input_required')
        await answerQuestions(polled, asked, answerQuestion, (inputResponses) =>
          request('tasks/update', { taskId, inputResponses, _meta: meta }),
        );
      return polled;
    },
    { deadline, signal, cancel },
  );
  if (task.status === 'completed') return task.result;
  const message =
    task.status === 'failed' && typeof task.error?.message === 'string' ? task.error.message : task.statusMessage;
  throw upstreamTaskEnded(taskId, task.status, message);
}

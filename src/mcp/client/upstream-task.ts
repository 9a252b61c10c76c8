import { isJsonObject, taskClaimProblem, type ToolTaskClaim } from '../../contract/index.js';
import { MAX_TIMEOUT_MS } from '../../util/limits.js';
import { pause, raceTimeout } from '../../util/timeout.js';
import { TOOL_META_KEY } from '../server/constants.js';
import { requestOn, type ClientRequestOptions, type McpClientLike } from './client-like.js';
import type { ListedTool } from './options.js';

/**
 * How the server runs a listed tool's calls as tasks: its `execution.taskSupport` (2025-11-25),
 * else the `support` of its toolwright claim `_meta[TOOL_META_KEY].task` (which a toolwright
 * server lists in both eras; the 2026-07-28 listing has no `execution`), else `forbidden`.
 */
export function upstreamTaskSupport(listed: ListedTool): 'required' | 'optional' | 'forbidden' {
  const execution = listed.execution;
  const listedSupport = isJsonObject(execution) ? execution.taskSupport : undefined;
  const support = listedSupport ?? claimedTaskOf(listed)?.support;
  return support === 'required' || support === 'optional' ? support : 'forbidden';
}

/**
 * The task claim a consumed tool takes from its listing, so a server that serves it again (a
 * proxy) runs its calls as tasks of its own: the upstream's support (see `upstreamTaskSupport`),
 * with the TTL and poll interval of its toolwright claim when that claim is valid (else the
 * defaults), or `undefined` for a tool that never runs as a task.
 */
export function upstreamTaskClaim(listed: ListedTool): ToolTaskClaim | undefined {
  const support = upstreamTaskSupport(listed);
  if (support === 'forbidden') return undefined;
  const claimed = claimedTaskOf(listed);
  const terms = claimed === undefined ? undefined : { ...claimed, support };
  return terms !== undefined && taskClaimProblem(terms) === undefined ? (terms as ToolTaskClaim) : { support };
}

function claimedTaskOf(listed: ListedTool): Record<string, unknown> | undefined {
  const claims = isJsonObject(listed._meta) ? listed._meta[TOOL_META_KEY] : undefined;
  const task = isJsonObject(claims) ? claims.task : undefined;
  return isJsonObject(task) ? task : undefined;
}

/** How long a caller waits for its `tasks/cancel` to be answered before it gives up: 1,000 ms. */
const UPSTREAM_CANCEL_MS = 1_000;

/**
 * Sends `tasks/cancel` with `params` and waits for the answer, at most `UPSTREAM_CANCEL_MS`;
 * never rejects (a cancel is best effort). Sent without the call's signal, which has usually
 * aborted by then.
 */
export async function cancelUpstreamTask(client: McpClientLike, params: Record<string, unknown>): Promise<void> {
  const sent = requestOn(client, 'tasks/cancel', params, { timeout: UPSTREAM_CANCEL_MS }).catch(() => undefined);
  await raceTimeout(sent, UPSTREAM_CANCEL_MS, () => undefined);
}

/** The milliseconds left until `deadline`, as a request timeout (at least 1, at most the timer's limit). */
export function remaining(deadline: number): number {
  return Math.max(1, Math.min(deadline - Date.now(), MAX_TIMEOUT_MS));
}

/**
 * The deadline of a task call (`options.timeout` from now, none without it), its signal, and a
 * request function bounded by both (each request's timeout is the time left).
 */
export function boundedRequests(client: McpClientLike, options: ClientRequestOptions) {
  const deadline = Date.now() + (options.timeout ?? Number.MAX_SAFE_INTEGER);
  const signal = options.signal;
  const request = (method: string, body: Record<string, unknown>) =>
    requestOn(client, method, body, {
      ...(signal === undefined ? {} : { signal }),
      timeout: remaining(deadline),
    }) as Promise<Record<string, unknown>>;
  return { deadline, signal, request };
}

/** The reason of an aborted call, as the task callers throw it. */
export function abortReasonOf(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('the call was cancelled');
}

/**
 * Sends the request that creates an upstream task (`send`, made without the call's signal) and
 * resolves its answer. When `signal` aborts first, the request is not abandoned, since its server
 * may have made the task already: its answer is awaited (at most `UPSTREAM_CANCEL_MS`) and the
 * task it names is cancelled (`cancelCreated`); then this rejects with the abort's reason.
 */
export async function createUpstreamTask<T>(
  send: () => Promise<T>,
  signal: AbortSignal | undefined,
  cancelCreated: (answer: T) => Promise<void>,
): Promise<T> {
  const sent = send();
  if (signal === undefined) return sent;
  const aborted = Symbol('aborted');
  let stopListening = (): void => {};
  const abort = new Promise<typeof aborted>((resolve) => {
    const done = (): void => resolve(aborted);
    if (signal.aborted) done();
    else {
      signal.addEventListener('abort', done, { once: true });
      stopListening = () => signal.removeEventListener('abort', done);
    }
  });
  try {
    const first = await Promise.race([sent, abort]);
    if (first !== aborted) return first as T;
  } finally {
    stopListening();
  }
  const cancelled = sent.then(cancelCreated, () => undefined);
  await raceTimeout(cancelled, UPSTREAM_CANCEL_MS, () => undefined);
  throw abortReasonOf(signal);
}

/**
 * Polls an upstream task from `first` until its status is neither `working` nor
 * `input_required`, and resolves it as it then is: waits the interval the task suggests
 * (`intervalOf`, default 1,000 ms, at least 10) before each `read`, never past `deadline`. Past
 * `deadline` it rejects with a `-32001` `Request timed out` (as a plain call's timeout does);
 * when `signal` aborts, with its reason. Either way, and when `read` fails, it first sends the
 * upstream cancel (`cancel`) so the task does not run on unseen.
 */
export async function pollUpstreamTask<T extends { readonly status: string }>(
  first: T,
  intervalOf: (task: T) => number | undefined,
  read: () => Promise<T>,
  bounds: { readonly deadline: number; readonly signal: AbortSignal | undefined; readonly cancel: () => Promise<void> },
): Promise<T> {
  const { deadline, signal } = bounds;
  let task = first;
  try {
    while (task.status === 'working' || task.status === 'input_required') {
      if (Date.now() >= deadline) throw Object.assign(new Error('Request timed out'), { code: -32001 });
      await pause(Math.max(10, Math.min(intervalOf(task) ?? 1_000, deadline - Date.now())), signal);
      if (signal?.aborted) throw abortReasonOf(signal);
      task = await read();
    }
  } catch (err) {
    await bounds.cancel();
    throw err;
  }
  return task;
}

/** The error of an upstream task that ended `failed` or `cancelled`, in both eras. */
export function upstreamTaskEnded(taskId: string, status: string, message: string | undefined): Error {
  return new Error(`the upstream task ${taskId} ended ${status}${message === undefined ? '' : `: ${message}`}`);
}

interface WireTask {
  readonly taskId: string;
  readonly status: string;
  readonly statusMessage?: string;
  readonly pollInterval?: number;
}

/**
 * Calls a tool as a task of the 2025-11-25 utility: `tools/call` with `task`, then `tasks/get`
 * at the interval the server suggests (at least 10 ms) until the task ends, then `tasks/result`,
 * whose `_meta[related-task]` is dropped. `options.signal` aborting sends `tasks/cancel` (best
 * effort, waiting at most 1,000 ms for its answer) and stops waiting (an abort while the creating
 * call is in flight cancels the task it answers with, see `createUpstreamTask`);
 * `options.timeout` bounds the whole wait (the host's time limit), past which the task is
 * cancelled too and this rejects with a `-32001` timeout, as a plain call's does. A task that
 * ends `failed` or `cancelled` rejects with `the upstream task <id> ended <status>: <message>`.
 * `watch` is told the task's id while it is polled (so its questions can be routed to the call).
 */
export async function callAsUpstreamTask(
  client: McpClientLike,
  params: Record<string, unknown>,
  options: ClientRequestOptions,
  watch: (taskId: string) => () => void = () => () => {},
): Promise<unknown> {
  const { deadline, signal, request } = boundedRequests(client, options);
  const taskOf = (answer: Record<string, unknown>) => answer.task as WireTask | undefined;
  const answer = await createUpstreamTask(
    () => requestOn(client, 'tools/call', { ...params, task: {} }, { timeout: remaining(deadline) }),
    signal,
    async (late) => {
      const taskId = taskOf(late as Record<string, unknown>)?.taskId;
      if (typeof taskId === 'string') await cancelUpstreamTask(client, { taskId });
    },
  );
  const created = taskOf(answer as Record<string, unknown>);
  if (created === undefined || typeof created.taskId !== 'string')
    throw new Error('the server answered a task-augmented tools/call without a task');
  const cancel = () => cancelUpstreamTask(client, { taskId: created.taskId });
  const unwatch = watch(created.taskId);
  let task: WireTask;
  try {
    task = await pollUpstreamTask(
      created,
      (polled) => polled.pollInterval,
      async () => (await request('tasks/get', { taskId: created.taskId })) as unknown as WireTask,
      { deadline, signal, cancel },
    );
  } finally {
    unwatch();
  }
  if (task.status !== 'completed') throw upstreamTaskEnded(created.taskId, task.status, task.statusMessage);
  const { _meta, ...result } = await request('tasks/result', { taskId: created.taskId });
  const meta = isJsonObject(_meta) ? { ..._meta } : {};
  delete meta['io.modelcontextprotocol/related-task'];
  return Object.keys(meta).length === 0 ? result : { ...result, _meta: meta };
}

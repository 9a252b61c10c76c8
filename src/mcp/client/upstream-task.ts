import { isJsonObject } from '../../contract/index.js';
import { pause } from '../../util/timeout.js';
import { requestOn, type ClientRequestOptions, type McpClientLike } from './client-like.js';
import type { ListedTool } from './options.js';

/** True when the server listed the tool with `execution.taskSupport: "required"` (2025-11-25). */
export function upstreamRequiresTask(listed: ListedTool): boolean {
  const execution = listed.execution;
  return isJsonObject(execution) && execution.taskSupport === 'required';
}

interface WireTask {
  readonly taskId: string;
  readonly status: string;
  readonly statusMessage?: string;
  readonly pollInterval?: number;
}

/**
 * Calls a tool the server runs only as a task (2025-11-25 utility): `tools/call` with `task`,
 * then `tasks/get` at the interval the server suggests (at least 10 ms) until the task ends, then
 * `tasks/result`, whose `_meta[related-task]` is dropped. `options.signal` aborting sends
 * `tasks/cancel` (best effort) and stops waiting; `options.timeout` bounds the whole wait (the
 * host's time limit), past which the task is cancelled too and this rejects with a `-32001`
 * timeout, as a plain call's does. A task that ends `failed` or `cancelled` rejects with
 * `the upstream task <id> ended <status>: <message>`.
 */
export async function callAsUpstreamTask(
  client: McpClientLike,
  params: Record<string, unknown>,
  options: ClientRequestOptions,
): Promise<unknown> {
  const deadline = Date.now() + (options.timeout ?? Number.MAX_SAFE_INTEGER);
  const signal = options.signal;
  const request = (method: string, body: Record<string, unknown>) =>
    requestOn(client, method, body, {
      ...(signal === undefined ? {} : { signal }),
      timeout: Math.max(1, Math.min(deadline - Date.now(), 2_147_483_647)),
    }) as Promise<Record<string, unknown>>;
  const created = (await request('tools/call', { ...params, task: {} })).task as WireTask | undefined;
  if (created === undefined || typeof created.taskId !== 'string')
    throw new Error('the server answered a task-augmented tools/call without a task');
  // Sent without the call's signal, which has usually aborted by then.
  const cancel = () =>
    void requestOn(client, 'tasks/cancel', { taskId: created.taskId }, { timeout: 10_000 }).catch(() => undefined);
  let task = created;
  try {
    while (task.status === 'working' || task.status === 'input_required') {
      if (Date.now() >= deadline) throw Object.assign(new Error('Request timed out'), { code: -32001 });
      await pause(Math.max(10, Math.min(task.pollInterval ?? 1_000, deadline - Date.now())), signal);
      if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('the call was cancelled');
      task = (await request('tasks/get', { taskId: created.taskId })) as unknown as WireTask;
    }
  } catch (err) {
    cancel();
    throw err;
  }
  if (task.status !== 'completed')
    throw new Error(
      `the upstream task ${created.taskId} ended ${task.status}${task.statusMessage === undefined ? '' : `: ${task.statusMessage}`}`,
    );
  const { _meta, ...result } = await request('tasks/result', { taskId: created.taskId });
  const meta = isJsonObject(_meta) ? { ..._meta } : {};
  delete meta['io.modelcontextprotocol/related-task'];
  return Object.keys(meta).length === 0 ? result : { ...result, _meta: meta };
}

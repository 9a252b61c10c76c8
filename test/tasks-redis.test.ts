import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { serveHttp, type HttpHandle } from '../src/mcp/index.js';
import { connectRedis, RedisTaskStore, type RedisConnection } from '../src/redis/index.js';
import { envelope, modernPost } from './support/modern-http.js';
import { redisSkip, startRedisServer, type RedisServer } from './support/redis-server.js';
import { taskTools } from './support/task-tools.js';

/*
 * RedisTaskStore against a real redis-server: two servers of one deployment (each with its own
 * connection, runner and tools, as two processes have), raw 2026-07-28 requests (stateless, so
 * tasks are found by their id on either server). A task started on one is polled, read and
 * cancelled through the other; an owner that stops renewing its lease leaves a task that reads as
 * failed; a Redis restarted without persistence mid-run is detected and the task reads as lost.
 */

let redis: RedisServer | undefined;
const connections: RedisConnection[] = [];
const handles: HttpHandle[] = [];

before(async () => {
  if (redisSkip !== undefined) return;
  redis = await startRedisServer({ persistence: false });
});

after(async () => {
  for (const handle of handles) await handle.close();
  for (const connection of connections) await connection.close();
  await redis?.stop();
});

async function node(storeOptions: ConstructorParameters<typeof RedisTaskStore>[1] = {}) {
  const connection = await connectRedis({ url: redis!.url, durability: 'off', log: () => undefined });
  connections.push(connection);
  const store = new RedisTaskStore(connection, { tickMs: 20, ...storeOptions });
  const tools = taskTools();
  const handle = await serveHttp({ name: 'node', version: '1.0.0' }, tools.tools, { tasks: { store, drainMs: 0 } });
  handles.push(handle);
  return { handle, tools, store };
}

const TASKS = envelope({ extensions: { 'io.modelcontextprotocol/tasks': {} } });

async function call(url: string, method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
  const headers: Record<string, string> = typeof params.taskId === 'string' ? { 'mcp-name': params.taskId } : {};
  const answer = await modernPost(url, { id: 1, method, params }, TASKS, undefined, headers);
  const message = answer.messages[0] as { result?: Record<string, unknown>; error?: unknown };
  if (message.result === undefined) throw new Error(JSON.stringify(message.error));
  return message.result;
}

async function pollStatus(url: string, taskId: string, until: (status: unknown) => boolean) {
  for (let attempt = 0; attempt < 500; attempt++) {
    // While the connection is reconnecting to a restarted Redis, a read fails (-32603): try again.
    const task = await call(url, 'tasks/get', { taskId }).catch(() => undefined);
    if (task !== undefined && until(task.status)) return task;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the task did not get there in time');
}

test('a task started on one node is polled, read and cancelled through another', { skip: redisSkip }, async () => {
  const a = await node();
  const b = await node();
  const started = await call(a.handle.url, 'tools/call', { name: 'job', arguments: { label: 'r' } });
  const taskId = String(started.taskId);
  assert.equal((await call(b.handle.url, 'tasks/get', { taskId })).status, 'working');
  a.tools.release('r');
  const done = await pollStatus(b.handle.url, taskId, (status) => status === 'completed');
  assert.deepEqual(done.result, { content: [{ type: 'text', text: 'finished r' }] });
  // A cancel answered by B reaches the run on A.
  const second = String((await call(a.handle.url, 'tools/call', { name: 'job', arguments: { label: 'rc' } })).taskId);
  assert.deepEqual(await call(b.handle.url, 'tasks/cancel', { taskId: second }), {
    resultType: 'complete',
    _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'node', version: '1.0.0' } },
  });
  for (let attempt = 0; attempt < 500 && !a.tools.aborted.includes('rc'); attempt++)
    await new Promise((resolve) => setTimeout(resolve, 10));
  assert.deepEqual(a.tools.aborted, ['rc']);
  assert.equal((await call(a.handle.url, 'tasks/get', { taskId: second })).status, 'cancelled');
  assert.deepEqual(b.tools.aborted, []);
});

test('a task whose owner stopped renewing its lease reads as failed on the others', { skip: redisSkip }, async () => {
  const a = await node({ leaseMs: 90 });
  const b = await node({ leaseMs: 90 });
  const taskId = String((await call(a.handle.url, 'tools/call', { name: 'job', arguments: { label: 'dead' } })).taskId);
  await a.store.close(); // as a process that died: no renewal any more
  const failed = await pollStatus(b.handle.url, taskId, (status) => status !== 'working');
  assert.equal(failed.status, 'failed');
  assert.equal(failed.statusMessage, 'the process running the task stopped: its lease of 90 ms lapsed');
  assert.deepEqual(failed.error, {
    code: -32603,
    message: 'the process running the task stopped: its lease of 90 ms lapsed',
  });
});

test(
  'Redis restarted without its data mid-run: the task reads as lost, and its run is aborted',
  { skip: redisSkip },
  async () => {
    const a = await node();
    const b = await node();
    const taskId = String(
      (await call(a.handle.url, 'tools/call', { name: 'job', arguments: { label: 'gone' } })).taskId,
    );
    assert.equal((await call(b.handle.url, 'tasks/get', { taskId })).status, 'working');
    await redis!.restart();
    const lost = await pollStatus(b.handle.url, taskId, () => true);
    assert.equal(lost.status, 'failed');
    assert.equal(
      lost.statusMessage,
      "Redis lost the task's state (a restart without persistence, a flush or a failover); it may or may not have finished",
    );
    for (let attempt = 0; attempt < 500 && !a.tools.aborted.includes('gone'); attempt++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    assert.deepEqual(a.tools.aborted, ['gone']);
  },
);

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { NodeProcesses } from '../samples/cluster/processes.js';
import { connectRedis, type RedisConnection } from '../src/redis/index.js';
import { haproxySkipReason, startHaproxy, type TestBalancer } from './support/haproxy.js';
import { envelope, modernPost } from './support/modern-http.js';
import { redisSkip, startRedisServer, type RedisServer } from './support/redis-server.js';

/*
 * Tasks across a cluster: three toolwright processes behind a real HAProxy with a real Redis
 * (`RedisTaskStore`), raw 2026-07-28 requests through the balancer (stateless: each request may
 * reach any process). A task started on one process is polled and read through the others; its
 * process is killed mid-run (SIGKILL) and the task ends failed with the reason, having run once.
 * About 5 s.
 */

const skip = haproxySkipReason() ?? redisSkip;
const SCRIPT = fileURLToPath(new URL('./support/tasks-cluster-node.js', import.meta.url));
let redis: RedisServer | undefined;
let processes: NodeProcesses | undefined;
let balancer: TestBalancer | undefined;
let reader: RedisConnection | undefined;

before(async () => {
  if (skip !== undefined) return;
  redis = await startRedisServer();
  processes = await NodeProcesses.start({ count: 3, script: SCRIPT, env: { REDIS_URL: redis.url } });
  balancer = await startHaproxy(processes.nodes);
  reader = await connectRedis({ url: redis.url, durability: 'off', log: () => undefined });
});

after(async () => {
  await reader?.close();
  await balancer?.stop();
  await processes?.stop();
  await redis?.stop();
});

const TASKS = envelope({ extensions: { 'io.modelcontextprotocol/tasks': {} } });

async function call(method: string, params: Record<string, unknown>): Promise<Record<string, unknown> | undefined> {
  const headers: Record<string, string> = typeof params.taskId === 'string' ? { 'mcp-name': params.taskId } : {};
  const answer = await modernPost(balancer!.url, { id: 1, method, params }, TASKS, undefined, headers).catch(
    () => undefined,
  );
  return (answer?.messages[0] as { result?: Record<string, unknown> } | undefined)?.result;
}

async function settle(taskId: string): Promise<Record<string, unknown>> {
  for (let attempt = 0; attempt < 500; attempt++) {
    const task = await call('tasks/get', { taskId });
    if (task !== undefined && task.status !== 'working') return task;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`task ${taskId} did not end in time`);
}

test('a task is started through the balancer and read through the other processes', { skip }, async () => {
  const created = await call('tools/call', { name: 'count_run', arguments: { label: 'ok', ms: 300 } });
  assert.equal(created?.resultType, 'task');
  const done = await settle(String(created!.taskId));
  assert.equal(done.status, 'completed');
  const runs = (await reader!.command(['LRANGE', 'tasks-test:runs:ok', '0', '-1'])) as string[];
  assert.equal(runs.length, 1);
  assert.deepEqual(done.result, { content: [{ type: 'text', text: `ok done on ${runs[0]}` }] });
});

test('its process killed mid-run, a task ends failed with the reason and never runs again', { skip }, async () => {
  const created = await call('tools/call', { name: 'count_run', arguments: { label: 'killed', ms: 60_000 } });
  const taskId = String(created!.taskId);
  let runs: string[] = [];
  for (let attempt = 0; attempt < 500 && runs.length === 0; attempt++) {
    runs = (await reader!.command(['LRANGE', 'tasks-test:runs:killed', '0', '-1'])) as string[];
    if (runs.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const owner = processes!.nodes.find((node) => node.nodeId === runs[0])!;
  await processes!.kill(owner.index);
  const ended = await settle(taskId);
  assert.equal(ended.status, 'failed');
  assert.equal(ended.statusMessage, 'the process running the task stopped: its lease of 300 ms lapsed');
  assert.deepEqual(await reader!.command(['LRANGE', 'tasks-test:runs:killed', '0', '-1']), [owner.nodeId]);
});

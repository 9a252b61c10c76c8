import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport } from '@modelcontextprotocol/client';
import { createProxy, serveHttp, type Proxy, type ProxyOptions, type ProxyUpstream } from '../src/mcp/index.js';
import { MemoryTaskStore } from '../src/runtime/index.js';
import { raceTimeout } from '../src/util/timeout.js';
import { devAuth, devBearer } from './support/dev-auth.js';
import { modernRequest, TASKS_CAPABILITY } from './support/modern-http.js';
import { taskTools } from './support/task-tools.js';
import { closeAll, CountedIdTaskStore, pollUntil, legacyFront } from './support/task-upstreams.js';

/*
 * The proxy passes tasks through: an upstream tool that runs as a task is a task tool of the
 * proxy, whose downstream task (the proxy's id, the proxy's store, the proxy's owner rules) runs
 * the upstream tool as a task and polls it. Real toolwright upstreams over HTTP in both eras (a
 * front that refuses server/discover makes one a 2025-11-25 server to the proxy), downstream
 * SDK 1.x and 2.x clients in the 2025 era and raw JSON-RPC in the 2026-07-28 era (no client ships
 * tasks for it). Every upstream keeps its tasks in a store whose ids count (task-1, ...), so two
 * upstreams hand out the same ids. Every wait is bounded, and so is every teardown.
 */

const HOST = { host: '127.0.0.1', port: 0 } as const;
const RELATED = 'io.modelcontextprotocol/related-task';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const STOPPED = 'the server stopped before the task finished';
/** A task's result is read within 5 s, else the SDK's request fails with a timeout. */
const WITHIN_5_S = { timeout: 5_000 };
/** The form a question without a schema asks for. */
const EMPTY_FORM = { type: 'object', properties: {} };

const cleanups: Array<{ readonly what: string; readonly run: () => Promise<unknown> }> = [];
after(() => closeAll(cleanups));

/** A toolwright server of the task tools over HTTP, spoken to in `era`, its tasks in a counted-id store. */
async function taskUpstream(name: string, era: 'legacy' | 'modern') {
  const fixture = taskTools();
  const store = new CountedIdTaskStore();
  const handle = await serveHttp({ name, version: '1.0.0' }, fixture.tools, { ...HOST, tasks: { store, drainMs: 0 } });
  cleanups.push({ what: `upstream ${name}`, run: () => handle.close() });
  let url = handle.url;
  if (era === 'legacy') {
    const front = await legacyFront(handle.url);
    cleanups.push({ what: `the front of ${name}`, run: () => front.close() });
    url = front.url;
  }
  /** Waits until the upstream has its `n`-th task, `status`, and resolves its record. */
  const task = (n: number, status: string) =>
    pollUntil(
      `${name}'s task-${n} becoming ${status}`,
      () => store.read(`task-${n}`),
      (record) => record?.status === status,
    );
  return { fixture, store, url, task };
}

async function proxyOf(upstreams: ProxyUpstream[], options: ProxyOptions = {}, auth = false) {
  const proxy: Proxy = await createProxy(upstreams, { tasks: { drainMs: 0 }, ...options });
  cleanups.push({ what: 'the proxy', run: () => proxy.close() });
  const http = await proxy.serveHttp({ ...HOST, ...(auth ? { auth: devAuth() } : {}) });
  cleanups.push({ what: "the proxy's endpoint", run: () => http.close() });
  return { proxy, http };
}

async function legacyClient(url: string, answer?: (request: unknown) => Promise<Record<string, unknown>>) {
  const client = new V1Client(
    { name: 'downstream', version: '1.0.0' },
    answer === undefined ? {} : { capabilities: { elicitation: { form: {} } } },
  );
  if (answer !== undefined) client.setRequestHandler(ElicitRequestSchema, answer as never);
  await client.connect(new V1HttpTransport(new URL(url)));
  cleanups.push({ what: 'a downstream client', run: () => client.close() });
  return client;
}

function startTask(client: V1Client, name: string, args: Record<string, unknown>) {
  return client.request({ method: 'tools/call', params: { name, arguments: args, task: {} } }, CreateTaskResultSchema);
}

test("proxy: a 2025-11-25 upstream task tool is the proxy's task tool: the whole lifecycle (SDK 1.x)", async () => {
  const upstream = await taskUpstream('legacy-up', 'legacy');
  const { proxy, http } = await proxyOf([{ name: 'up', url: upstream.url }]);
  assert.equal(proxy.connections[0]!.era, 'legacy');
  const client = await legacyClient(http.url);
  const listed = new Map((await client.listTools()).tools.map((tool) => [tool.name, tool.execution]));
  assert.deepEqual(
    [listed.get('job'), listed.get('deploy'), listed.get('greet')],
    [{ taskSupport: 'optional' }, { taskSupport: 'required' }, undefined],
  );
  const created = await startTask(client, 'job', { label: 'p1' });
  const { taskId, createdAt: _c, lastUpdatedAt: _u, ...task } = created.task;
  assert.match(taskId, UUID);
  assert.deepEqual(task, { status: 'working', ttl: 3_600_000, pollInterval: 10 });
  // The proxy's run called the upstream tool as a task of its own.
  await upstream.task(1, 'working');
  assert.equal((await client.experimental.tasks.getTask(taskId)).status, 'working');
  upstream.fixture.release('p1');
  assert.deepEqual(await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema, WITHIN_5_S), {
    content: [{ type: 'text', text: 'finished p1' }],
    _meta: { [RELATED]: { taskId } },
  });
  assert.equal((await upstream.store.read('task-1'))?.status, 'completed');
  assert.equal((await client.experimental.tasks.getTask(taskId)).status, 'completed');
  // An optional tool called plainly is called plainly upstream; a required one needs a task.
  assert.deepEqual((await client.callTool({ name: 'job', arguments: { label: 'p2', ms: 1 } })).content, [
    { type: 'text', text: 'finished p2' },
  ]);
  assert.deepEqual(upstream.store.created, ['task-1']);
  const plain = client.request(
    { method: 'tools/call', params: { name: 'deploy', arguments: {} } },
    CallToolResultSchema,
  );
  await assert.rejects(plain, {
    code: -32601,
    message:
      'MCP error -32601: tool "deploy" runs only as a task (execution.taskSupport "required"): call it with params.task',
  });
});

test('proxy: a 2026-07-28 upstream task tool through the proxy to a 2026-07-28 client (raw JSON-RPC)', async () => {
  const upstream = await taskUpstream('modern-up', 'modern');
  const { proxy, http } = await proxyOf([{ name: 'up', url: upstream.url }]);
  assert.equal(proxy.connections[0]!.era, 'modern');
  const created = (await modernRequest(http.url, 'tools/call', { name: 'deploy', arguments: { ms: 30 } })).result!;
  const { taskId, createdAt: _c, lastUpdatedAt: _u, ...task } = created;
  assert.match(String(taskId), UUID);
  assert.deepEqual(task, { resultType: 'task', status: 'working', ttlMs: 60_000, pollIntervalMs: 10 });
  const done = await pollUntil(
    'the proxy task completing',
    async () => (await modernRequest(http.url, 'tasks/get', { taskId })).result!,
    (now) => now.status === 'completed',
  );
  assert.deepEqual(done.result, { content: [{ type: 'text', text: 'deployed' }] });
  assert.equal((await upstream.store.read('task-1'))?.status, 'completed');
  // Without the extension the proxy refuses a required tool as a 2026-07-28 server does.
  const refused = await modernRequest(http.url, 'tools/call', { name: 'deploy', arguments: {} }, {});
  assert.equal(refused.error?.code, -32021);
  assert.deepEqual(upstream.store.created, ['task-1']);
});

test('proxy: tasks/cancel of the downstream task cancels the upstream task and aborts its run', async () => {
  const upstream = await taskUpstream('cancel-up', 'modern');
  const { http } = await proxyOf([{ name: 'up', url: upstream.url }]);
  const client = await legacyClient(http.url);
  const { taskId } = (await startTask(client, 'job', { label: 'c1' })).task;
  await upstream.task(1, 'working');
  assert.equal((await client.experimental.tasks.cancelTask(taskId)).status, 'cancelled');
  await upstream.task(1, 'cancelled');
  await pollUntil(
    "the upstream run's abort",
    async () => upstream.fixture.aborted,
    (aborted) => aborted.includes('c1'),
  );
  assert.equal((await client.experimental.tasks.getTask(taskId)).status, 'cancelled');
});

test('proxy: two upstreams whose task ids collide (task-1 each) are never confused (SDK 2.x, 2025 era)', async () => {
  const [a, b] = [await taskUpstream('a', 'legacy'), await taskUpstream('b', 'modern')];
  const { http } = await proxyOf([
    { name: 'a', url: a.url, prefix: 'a.' },
    { name: 'b', url: b.url, prefix: 'b.' },
  ]);
  const client = new V2Client({ name: 'downstream-v2', version: '1.0.0' });
  await client.connect(new V2HttpTransport(new URL(http.url)));
  cleanups.push({ what: 'the 2.x client', run: () => client.close() });
  assert.equal(client.getProtocolEra(), 'legacy');
  const ANY = { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) } };
  const send = (method: string, params: Record<string, unknown>) =>
    client.request({ method, params } as never, ANY as never, WITHIN_5_S as never) as Promise<Record<string, unknown>>;
  const start = async (name: string, label: string) =>
    ((await send('tools/call', { name, arguments: { label }, task: {} })).task as { taskId: string }).taskId;
  const onA = await start('a.job', 'x');
  const onB = await start('b.job', 'y');
  await a.task(1, 'working');
  await b.task(1, 'working');
  assert.match(onA, UUID);
  assert.match(onB, UUID);
  assert.notEqual(onA, onB);
  assert.equal((await send('tasks/cancel', { taskId: onA })).status, 'cancelled');
  await a.task(1, 'cancelled');
  assert.equal((await b.store.read('task-1'))?.status, 'working');
  b.fixture.release('y');
  const result = await send('tasks/result', { taskId: onB });
  assert.deepEqual(result.content, [{ type: 'text', text: 'finished y' }]);
  assert.equal((await b.store.read('task-1'))?.status, 'completed');
  assert.deepEqual([a.fixture.aborted, b.fixture.aborted], [['x'], []]);
  assert.equal((await send('tasks/get', { taskId: onA })).status, 'cancelled');
});

test('proxy: a downstream task belongs to its principal; another gets "not found", a second token of the same one sees it', async () => {
  const upstream = await taskUpstream('scoped-up', 'modern');
  const { http } = await proxyOf([{ name: 'up', url: upstream.url }], {}, true);
  const as = (token: string) => devBearer(token);
  const alice = (method: string, params: Record<string, unknown>, token = 'alice.1') =>
    modernRequest(http.url, method, params, undefined, as(token));
  const taskId = String((await alice('tools/call', { name: 'job', arguments: { label: 'al' } })).result!.taskId);
  const notFound = { code: -32602, message: `Failed to retrieve task: Task not found (${taskId})` };
  for (const method of ['tasks/get', 'tasks/cancel'])
    assert.deepEqual((await modernRequest(http.url, method, { taskId }, undefined, as('bob'))).error, notFound);
  assert.equal((await alice('tasks/get', { taskId }, 'alice.2')).result!.status, 'working');
  await upstream.task(1, 'working');
  upstream.fixture.release('al');
  const done = await pollUntil(
    "alice's task completing",
    async () => (await alice('tasks/get', { taskId })).result!,
    (now) => now.status === 'completed',
  );
  assert.deepEqual(done.result, { content: [{ type: 'text', text: 'finished al' }] });
  assert.deepEqual((await modernRequest(http.url, 'tasks/get', { taskId }, undefined, as('bob'))).error, notFound);
});

for (const era of ['legacy', 'modern'] as const)
  test(`proxy: a question a ${era === 'legacy' ? '2025-11-25' : '2026-07-28'} upstream task asks reaches a 2025 client under the proxy task`, async () => {
    const upstream = await taskUpstream(`asking-${era}-up`, era);
    const { http } = await proxyOf([{ name: 'up', url: upstream.url }]);
    const seen: Array<{ related: unknown; status: string }> = [];
    let taskId = '';
    const client = await legacyClient(http.url, async (request) => {
      const params = (request as { params: { _meta?: Record<string, unknown> } }).params;
      seen.push({ related: params._meta?.[RELATED], status: (await client.experimental.tasks.getTask(taskId)).status });
      return { action: 'accept', content: {} };
    });
    taskId = (await startTask(client, 'ask', {})).task.taskId;
    assert.deepEqual(await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema, WITHIN_5_S), {
      content: [{ type: 'text', text: 'the user said accept' }],
      _meta: { [RELATED]: { taskId } },
    });
    // The question names the proxy's task, never the upstream's task-1.
    assert.deepEqual(seen, [{ related: { taskId }, status: 'input_required' }]);
    assert.equal((await upstream.store.read('task-1'))?.status, 'completed');
  });

test('proxy: a 2026-07-28 client answers the question of a 2026-07-28 upstream task with tasks/update on the proxy', async () => {
  const upstream = await taskUpstream('updating-up', 'modern');
  const { http } = await proxyOf([{ name: 'up', url: upstream.url }]);
  const capabilities = { ...TASKS_CAPABILITY, elicitation: { form: {} } };
  const send = (method: string, params: Record<string, unknown>) =>
    modernRequest(http.url, method, params, capabilities);
  const taskId = String((await send('tools/call', { name: 'ask', arguments: {} })).result!.taskId);
  const asking = await pollUntil(
    'the proxy task asking',
    async () => (await send('tasks/get', { taskId })).result!,
    (now) => now.status === 'input_required',
  );
  assert.deepEqual(asking.inputRequests, {
    elicit_1: {
      method: 'elicitation/create',
      params: { mode: 'form', message: 'Go on?', requestedSchema: EMPTY_FORM },
    },
  });
  assert.equal((await upstream.store.read('task-1'))?.status, 'input_required');
  const update = await send('tasks/update', { taskId, inputResponses: { elicit_1: { action: 'decline' } } });
  assert.deepEqual(update.result, { resultType: 'complete' });
  const done = await pollUntil(
    'the proxy task completing',
    async () => (await send('tasks/get', { taskId })).result!,
    (now) => now.status === 'completed',
  );
  assert.deepEqual(done.result, { content: [{ type: 'text', text: 'the user said decline' }] });
  assert.equal((await upstream.store.read('task-1'))?.status, 'completed');
});

test('proxy: questions of two upstream tasks in flight at once each reach the client under their own proxy task', async () => {
  const upstream = await taskUpstream('two-asking-up', 'legacy');
  const { http } = await proxyOf([{ name: 'up', url: upstream.url }]);
  const related: unknown[] = [];
  const client = await legacyClient(http.url, async (request) => {
    related.push((request as { params: { _meta?: Record<string, unknown> } }).params._meta?.[RELATED]);
    // Both questions are open at once before either is answered.
    await pollUntil(
      'the second question',
      async () => related.length,
      (count) => count === 2,
    ).catch(() => undefined);
    return { action: 'accept', content: {} };
  });
  const first = (await startTask(client, 'ask', {})).task.taskId;
  const second = (await startTask(client, 'ask', {})).task.taskId;
  const results = await Promise.all(
    [first, second].map((taskId) => client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema, WITHIN_5_S)),
  );
  assert.deepEqual(
    results.map((result) => result.content),
    [1, 2].map(() => [{ type: 'text', text: 'the user said accept' }]),
  );
  assert.deepEqual(new Set(related), new Set([{ taskId: first }, { taskId: second }]));
});

test('proxy: close() mid-task ends the downstream task failed (the server stopped) and cancels the upstream task', async () => {
  const upstream = await taskUpstream('closing-up', 'modern');
  const store = new MemoryTaskStore();
  const proxy = await createProxy([{ name: 'up', url: upstream.url }], { tasks: { store, drainMs: 0 } });
  cleanups.push({ what: 'the closing proxy', run: () => proxy.close() });
  const http = await proxy.serveHttp(HOST);
  cleanups.push({ what: "the closing proxy's endpoint", run: () => http.close() });
  const created = (await modernRequest(http.url, 'tools/call', { name: 'job', arguments: { label: 'z' } })).result!;
  await upstream.task(1, 'working');
  await raceTimeout(
    (async () => {
      await http.close();
      await proxy.close();
    })(),
    5_000,
    () => {
      throw new Error('the proxy did not close within 5 s');
    },
  );
  const ended = await store.get(String(created.taskId), '*');
  assert.deepEqual(
    [ended?.status, ended?.statusMessage, ended?.error],
    ['failed', STOPPED, { code: -32603, message: STOPPED }],
  );
  await upstream.task(1, 'cancelled');
  assert.deepEqual(upstream.fixture.aborted, ['z']);
});

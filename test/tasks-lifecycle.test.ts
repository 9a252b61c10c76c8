import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport } from '@modelcontextprotocol/client';
import { serveHttp, type HttpHandle } from '../src/mcp/index.js';
import { MemoryTaskStore } from '../src/runtime/index.js';
import { modernRequest, TASKS_CAPABILITY, type ModernAnswer } from './support/modern-http.js';
import { taskTools } from './support/task-tools.js';

/*
 * Tasks in memory over streamable HTTP, in both eras: the SDK 1.x client's task methods
 * (2025-11-25), the 2.x client in the 2025 era, raw JSON-RPC for the 2026-07-28 extension (the
 * 2.x client refuses tasks/* in that era). The whole lifecycle, cancellation, TTL expiry, a time
 * limit over a whole task, the refusals each era defines, the scope rules and the caps. One
 * endpoint for the file; the cap and shutdown tests make their own.
 */

const fixture = taskTools();
let handle: HttpHandle;

before(async () => {
  handle = await serveHttp({ name: 'tasks', version: '1.0.0' }, fixture.tools);
});

after(async () => {
  await handle.close();
});

const info = { name: 'tasks-test', version: '1.0.0' };
const RELATED = 'io.modelcontextprotocol/related-task';

async function legacyClient(url = handle.url): Promise<V1Client> {
  const client = new V1Client(info);
  await client.connect(new V1HttpTransport(new URL(url)));
  return client;
}

/** Polls `read` until `done` holds (at most 400 times, 10 ms apart), and resolves the last value. */
async function pollUntil<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let attempt = 0; attempt < 400; attempt++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the task did not get there in time');
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function plainTask(task: Record<string, unknown>): Record<string, unknown> {
  assert.match(String(task.taskId), UUID);
  assert.match(String(task.createdAt), ISO);
  assert.match(String(task.lastUpdatedAt), ISO);
  const { taskId: _id, createdAt: _c, lastUpdatedAt: _u, ...rest } = task;
  return rest;
}

test('2025-11-25 (SDK 1.x): a task is created at once, polled, read and listed; it never leaves completed', async () => {
  const client = await legacyClient();
  try {
    assert.deepEqual(client.getServerCapabilities()?.tasks, {
      list: {},
      cancel: {},
      requests: { tools: { call: {} } },
    });
    const created = await client.request(
      { method: 'tools/call', params: { name: 'job', arguments: { label: 'a' }, task: { ttl: 60_000 } } },
      CreateTaskResultSchema,
    );
    assert.deepEqual(plainTask(created.task as never), { status: 'working', ttl: 60_000, pollInterval: 10 });
    const taskId = created.task.taskId;
    assert.equal((await client.experimental.tasks.getTask(taskId)).status, 'working');
    fixture.release('a');
    const result = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    assert.deepEqual(result, { content: [{ type: 'text', text: 'finished a' }], _meta: { [RELATED]: { taskId } } });
    const done = await client.experimental.tasks.getTask(taskId);
    assert.deepEqual(plainTask(done as never), { status: 'completed', ttl: 60_000, pollInterval: 10 });
    const { tasks } = await client.experimental.tasks.listTasks();
    assert.deepEqual(
      tasks.map((task) => [task.taskId, task.status]),
      [[taskId, 'completed']],
    );
    await assert.rejects(client.experimental.tasks.cancelTask(taskId), {
      code: -32602,
      message: 'MCP error -32602: Cannot cancel task: already in terminal status "completed"',
    });
  } finally {
    await client.close();
  }
});

test('2025-11-25: the SDK 1.x callToolStream runs a required tool as a task and ends with its result', async () => {
  const client = await legacyClient();
  try {
    await client.listTools();
    const seen: string[] = [];
    let last: unknown;
    for await (const message of client.experimental.tasks.callToolStream(
      { name: 'deploy', arguments: { ms: 20 } },
      CallToolResultSchema,
    )) {
      seen.push(message.type);
      if (message.type === 'result') last = message.result;
    }
    assert.equal(seen[0], 'taskCreated');
    assert.equal(seen[seen.length - 1], 'result');
    assert.deepEqual((last as { content: unknown }).content, [{ type: 'text', text: 'deployed' }]);
  } finally {
    await client.close();
  }
});

test('2025-11-25: a required tool without task and a task for a tool without the claim are -32601', async () => {
  const client = await legacyClient();
  try {
    await assert.rejects(
      client.request({ method: 'tools/call', params: { name: 'deploy', arguments: {} } }, CallToolResultSchema),
      {
        code: -32601,
        message:
          'MCP error -32601: tool "deploy" runs only as a task (execution.taskSupport "required"): call it with params.task',
      },
    );
    await assert.rejects(
      client.request(
        { method: 'tools/call', params: { name: 'greet', arguments: {}, task: {} } },
        CreateTaskResultSchema,
      ),
      {
        code: -32601,
        message:
          'MCP error -32601: tool "greet" does not run as a task (execution.taskSupport "forbidden"): call it without params.task',
      },
    );
    // optional runs either way
    assert.deepEqual(await client.callTool({ name: 'job', arguments: { label: 'plain', ms: 1 } }), {
      content: [{ type: 'text', text: 'finished plain' }],
    });
  } finally {
    await client.close();
  }
});

test('2025-11-25: a cancelled task ends cancelled, its run is aborted, and it has no result', async () => {
  const client = await legacyClient();
  try {
    const created = await client.request(
      { method: 'tools/call', params: { name: 'job', arguments: { label: 'c' }, task: {} } },
      CreateTaskResultSchema,
    );
    const taskId = created.task.taskId;
    const cancelled = await client.experimental.tasks.cancelTask(taskId);
    assert.deepEqual(plainTask(cancelled as never), {
      status: 'cancelled',
      statusMessage: 'cancelled by the client',
      ttl: 3_600_000,
      pollInterval: 10,
    });
    await pollUntil(
      async () => fixture.aborted,
      (aborted) => aborted.includes('c'),
    );
    assert.equal((await client.experimental.tasks.getTask(taskId)).status, 'cancelled');
    await assert.rejects(client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema), {
      code: -32602,
      message: `MCP error -32602: task ${taskId} was cancelled: it has no result`,
    });
  } finally {
    await client.close();
  }
});

test('2025-11-25: a tool error completes with isError; a time limit covers the whole task; a TTL ends it failed', async () => {
  const client = await legacyClient();
  try {
    const start = async (name: string) =>
      (
        await client.request(
          { method: 'tools/call', params: { name, arguments: {}, task: {} } },
          CreateTaskResultSchema,
        )
      ).task.taskId;
    const failing = await start('failing');
    assert.deepEqual(await client.experimental.tasks.getTaskResult(failing, CallToolResultSchema), {
      content: [{ type: 'text', text: 'the build broke' }],
      isError: true,
      _meta: { [RELATED]: { taskId: failing } },
    });
    const held = await start('held');
    assert.deepEqual(await client.experimental.tasks.getTaskResult(held, CallToolResultSchema), {
      content: [{ type: 'text', text: 'tool "held" timed out after 100 ms' }],
      isError: true,
      _meta: { [RELATED]: { taskId: held } },
    });
    const brief = await start('brief');
    await assert.rejects(client.experimental.tasks.getTaskResult(brief, CallToolResultSchema), {
      code: -32603,
      message: "MCP error -32603: the task's TTL of 50 ms passed before it finished",
    });
    // Once its TTL has passed the task is gone.
    await assert.rejects(client.experimental.tasks.getTask(brief), {
      code: -32602,
      message: `MCP error -32602: Failed to retrieve task: Task not found (${brief})`,
    });
  } finally {
    await client.close();
  }
});

test('2025-11-25: a task belongs to its session; another session gets "not found" and lists none of it', async () => {
  const owner = await legacyClient();
  const other = await legacyClient();
  try {
    const created = await owner.request(
      { method: 'tools/call', params: { name: 'job', arguments: { label: 's', ms: 1 }, task: {} } },
      CreateTaskResultSchema,
    );
    const taskId = created.task.taskId;
    for (const attempt of [
      () => other.experimental.tasks.getTask(taskId),
      () => other.experimental.tasks.getTaskResult(taskId, CallToolResultSchema),
      () => other.experimental.tasks.cancelTask(taskId),
    ])
      await assert.rejects(attempt(), {
        code: -32602,
        message: `MCP error -32602: Failed to retrieve task: Task not found (${taskId})`,
      });
    assert.deepEqual((await other.experimental.tasks.listTasks()).tasks, []);
    assert.equal((await owner.experimental.tasks.getTaskResult(taskId, CallToolResultSchema)).isError, undefined);
  } finally {
    await owner.close();
    await other.close();
  }
});

test('2025-11-25 (SDK 2.x client): tools/call with task, tasks/get and tasks/result', async () => {
  const client = new V2Client(info);
  await client.connect(new V2HttpTransport(new URL(handle.url)));
  const ANY = { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) } };
  try {
    const created = (await client.request(
      { method: 'tools/call', params: { name: 'job', arguments: { label: 'v2', ms: 1 }, task: {} } } as never,
      ANY as never,
    )) as { task: { taskId: string; status: string } };
    assert.equal(created.task.status, 'working');
    const result = (await client.request(
      { method: 'tasks/result', params: { taskId: created.task.taskId } } as never,
      ANY as never,
    )) as Record<string, unknown>;
    assert.deepEqual(result.content, [{ type: 'text', text: 'finished v2' }]);
  } finally {
    await client.close();
  }
});

const TASKS = TASKS_CAPABILITY;

function modern(
  method: string,
  params: Record<string, unknown>,
  capabilities: Record<string, unknown> = TASKS,
  url = handle.url,
): Promise<ModernAnswer> {
  return modernRequest(url, method, params, capabilities);
}

test('2026-07-28 (raw): the server creates the task, tasks/get inlines the result, cancel acks, removed methods are -32601', async () => {
  const created = (await modern('tools/call', { name: 'job', arguments: { label: 'm' } })).result!;
  assert.deepEqual(plainTask(created), { resultType: 'task', status: 'working', ttlMs: 3_600_000, pollIntervalMs: 10 });
  const taskId = String(created.taskId);
  const working = (await modern('tasks/get', { taskId })).result!;
  assert.deepEqual(plainTask(working), {
    resultType: 'complete',
    status: 'working',
    ttlMs: 3_600_000,
    pollIntervalMs: 10,
  });
  fixture.release('m');
  const done = await pollUntil(
    async () => (await modern('tasks/get', { taskId })).result!,
    (task) => task.status === 'completed',
  );
  assert.deepEqual(plainTask(done), {
    resultType: 'complete',
    status: 'completed',
    ttlMs: 3_600_000,
    pollIntervalMs: 10,
    result: { content: [{ type: 'text', text: 'finished m' }] },
  });
  assert.deepEqual((await modern('tasks/cancel', { taskId })).result, { resultType: 'complete' });
  assert.equal((await modern('tasks/get', { taskId })).result!.status, 'completed');
  assert.deepEqual((await modern('tasks/update', { taskId, inputResponses: {} })).result, { resultType: 'complete' });
  for (const method of ['tasks/result', 'tasks/list'])
    assert.deepEqual((await modern(method, { taskId })).error, { code: -32601, message: 'Method not found' });
  assert.deepEqual((await modern('tasks/get', { taskId: 'no-such-task' })).error, {
    code: -32602,
    message: 'Failed to retrieve task: Task not found (no-such-task)',
  });
});

test('2026-07-28 (raw): cancelling a working task aborts it; a failure of the tool completes with isError', async () => {
  const taskId = String((await modern('tools/call', { name: 'job', arguments: { label: 'mc' } })).result!.taskId);
  assert.deepEqual((await modern('tasks/cancel', { taskId })).result, { resultType: 'complete' });
  const cancelled = (await modern('tasks/get', { taskId })).result!;
  assert.equal(cancelled.status, 'cancelled');
  await pollUntil(
    async () => fixture.aborted,
    (aborted) => aborted.includes('mc'),
  );
  const failing = String((await modern('tools/call', { name: 'failing', arguments: {} })).result!.taskId);
  const ended = await pollUntil(
    async () => (await modern('tasks/get', { taskId: failing })).result!,
    (task) => task.status === 'completed',
  );
  assert.deepEqual(ended.result, { content: [{ type: 'text', text: 'the build broke' }], isError: true });
});

test('2026-07-28 (raw): without the extension a task tool runs plainly, a required one and tasks/* are -32021', async () => {
  const plain = await modern('tools/call', { name: 'job', arguments: { label: 'p', ms: 1 } }, {});
  assert.deepEqual(plain.result, { content: [{ type: 'text', text: 'finished p' }], resultType: 'complete' });
  const required = await modern('tools/call', { name: 'deploy', arguments: {} }, {});
  assert.deepEqual(required.error, {
    code: -32021,
    message:
      'tool "deploy" runs only as a task and needs the client capability extensions["io.modelcontextprotocol/tasks"], which this request does not declare',
    data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } },
  });
  for (const method of ['tasks/get', 'tasks/cancel', 'tasks/update'])
    assert.equal((await modern(method, { taskId: 'x', inputResponses: {} }, {})).error?.code, -32021);
  // A legacy `task` param never makes a plain tool a task.
  const legacyHint = await modern('tools/call', { name: 'greet', arguments: {}, task: { ttl: 1000 } });
  assert.deepEqual(legacyHint.result, { content: [{ type: 'text', text: 'hello' }], resultType: 'complete' });
});

test('the caps: a caller past maxLivePerOwner gets a retryable -32000, and one task more once one ended', async () => {
  const store = new MemoryTaskStore({ maxLivePerOwner: 1 });
  const tools = taskTools();
  const capped = await serveHttp({ name: 'capped', version: '1.0.0' }, tools.tools, { tasks: { store, drainMs: 0 } });
  const client = await legacyClient(capped.url);
  try {
    const start = (label: string) =>
      client.request(
        { method: 'tools/call', params: { name: 'job', arguments: { label }, task: {} } },
        CreateTaskResultSchema,
      );
    const first = await start('one');
    await assert.rejects(start('two'), (err: { code?: number; message?: string; data?: unknown }) => {
      assert.equal(err.code, -32000);
      assert.equal(
        err.message,
        'MCP error -32000: too many tasks of this caller are running (maxLivePerOwner 1); retry once one has ended',
      );
      assert.deepEqual(err.data, { retryable: true, limit: 'maxLivePerOwner', max: 1 });
      return true;
    });
    tools.release('one');
    await client.experimental.tasks.getTaskResult(first.task.taskId, CallToolResultSchema);
    assert.equal((await start('three')).task.status, 'working');
  } finally {
    await client.close();
    await capped.close();
  }
});

test('shutdown: a task still running when the server closes ends failed, saying the server stopped', async () => {
  const store = new MemoryTaskStore();
  const tools = taskTools();
  const stopping = await serveHttp({ name: 'stopping', version: '1.0.0' }, tools.tools, {
    tasks: { store, drainMs: 20 },
  });
  const created = (await modern('tools/call', { name: 'job', arguments: { label: 'z' } }, TASKS, stopping.url)).result!;
  await stopping.close();
  const task = await store.get(String(created.taskId), '*');
  assert.equal(task?.status, 'failed');
  assert.equal(task?.statusMessage, 'the server stopped before the task finished');
  assert.deepEqual(task?.error, { code: -32603, message: 'the server stopped before the task finished' });
  assert.deepEqual(tools.aborted, ['z']);
});

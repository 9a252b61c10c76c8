import 'reflect-metadata';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { TaskSupport, Tool } from '../src/index.js';
import { ToolwrightModule } from '../src/nest/index.js';
import { testTools } from '../src/testing/index.js';
import { Executor, MemoryTaskStore } from '../src/runtime/index.js';
import { connectTools, serveHttp } from '../src/mcp/index.js';
import { taskTools } from './support/task-tools.js';
import { runCliCaptured } from './support/cli-io.js';
import { fixture } from './support/cli-paths.js';

/*
 * Tasks in the other hosts: toolwright/testing (startTask, and callTool refusing a required
 * tool), the CLI's `call` (runs a task tool as a task, prints its statuses, waits), and the Nest
 * module over HTTP (a task of an injected tool, and its end when the application shuts down).
 */

test('testTools: startTask runs a tool as a task through the call core; status, result, cancel', async () => {
  const fixtureTools = taskTools();
  const tester = testTools(fixtureTools.tools);
  const task = await tester.startTask('job', { label: 't' });
  assert.equal((await task.status()).status, 'working');
  fixtureTools.release('t');
  assert.deepEqual(await task.result(), { content: [{ type: 'text', text: 'finished t' }] });
  assert.equal((await task.status()).status, 'completed');
  const held = await tester.startTask('held');
  assert.deepEqual(await held.result(), {
    content: [{ type: 'text', text: 'tool "held" timed out after 100 ms' }],
    isError: true,
  });
  const cancelled = await tester.startTask('job', { label: 'tc' });
  assert.equal((await cancelled.cancel()).status, 'cancelled');
  await assert.rejects(cancelled.result(), {
    code: -32602,
    message: `task ${cancelled.taskId} was cancelled: it has no result`,
  });
  assert.deepEqual(fixtureTools.aborted, ['held', 'tc']);
});

test('testTools: a required tool refuses callTool, a tool without the claim refuses startTask, the store bounds', async () => {
  const tester = testTools(taskTools().tools, { taskStore: new MemoryTaskStore({ maxLive: 1 }) });
  await assert.rejects(tester.callTool('deploy'), {
    code: -32601,
    message: 'tool "deploy" runs only as a task (execution.taskSupport "required"): call it with params.task',
  });
  await assert.rejects(tester.startTask('greet'), {
    code: -32601,
    message: 'tool "greet" does not run as a task (execution.taskSupport "forbidden"): call it without params.task',
  });
  await tester.startTask('job', { label: 'x' });
  await assert.rejects(tester.startTask('job', { label: 'y' }), {
    name: 'TaskLimitError',
    code: 'task-limit',
    message: 'too many tasks are running on this server (maxLive 1); retry once one has ended',
  });
});

test('toolwright call runs a task tool as a task: prints its statuses and progress, then the result', async () => {
  const run = await runCliCaptured(['call', fixture('tasks'), 'report']);
  assert.equal(run.code, 0);
  assert.equal(run.out, 'report ready\n');
  // The progress line may come before or after the first status line (it races the task's answer).
  const lines = run.err
    .trimEnd()
    .split('\n')
    .map((line) => line.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/, '<id>'))
    .sort();
  assert.deepEqual(lines, ['[progress 1/2] half way', '[task <id>: completed]', '[task <id>: working]']);
  const failed = await runCliCaptured(['call', fixture('tasks'), 'broken']);
  assert.equal(failed.code, 1);
  assert.equal(failed.err.trimEnd().split('\n').pop(), 'out of paper');
});

@Injectable()
class Clock {
  readonly gates: (() => void)[] = [];
}

@Injectable()
@Tool({ name: 'rebuild', description: 'Rebuilds the index', args: undefined })
@TaskSupport('required', { pollIntervalMs: 10 })
class RebuildTool {
  constructor(private readonly clock: Clock) {}
  async execute(_args: unknown, ctx: { signal: AbortSignal }): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      this.clock.gates.push(resolve);
      ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason as Error), { once: true });
    });
    return 'rebuilt';
  }
}

@Module({ providers: [Clock, RebuildTool] })
class RebuildModule {}

const nestStore = new MemoryTaskStore();

@Module({
  imports: [
    RebuildModule,
    ToolwrightModule.forRoot({
      name: 'nest-tasks',
      version: '1.0.0',
      transport: 'http',
      tasks: { store: nestStore, drainMs: 0 },
    }),
  ],
})
class TasksAppModule {}

test('the Nest module: a task of an injected tool is polled and read; shutdown ends a running one failed', async () => {
  const app = await NestFactory.create(TasksAppModule, { logger: false });
  await app.listen(0, '127.0.0.1');
  const url = new URL(`http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}/mcp`);
  const clock = app.get(Clock);
  const client = new V1Client({ name: 'nest-tasks-test', version: '1.0.0' });
  const transport = new V1HttpTransport(url);
  await client.connect(transport);
  try {
    const start = async () =>
      (
        await client.request(
          { method: 'tools/call', params: { name: 'rebuild', arguments: {}, task: {} } },
          CreateTaskResultSchema,
        )
      ).task.taskId;
    const first = await start();
    for (let attempt = 0; attempt < 400 && clock.gates.length === 0; attempt++)
      await new Promise((resolve) => setTimeout(resolve, 5));
    clock.gates.shift()!();
    assert.deepEqual((await client.experimental.tasks.getTaskResult(first, CallToolResultSchema)).content, [
      { type: 'text', text: 'rebuilt' },
    ]);
    const second = await start();
    const owner = `session:${transport.sessionId}`;
    assert.equal((await nestStore.get(second, owner))?.status, 'working');
    await app.close();
    const ended = await nestStore.get(second, owner);
    assert.deepEqual([ended?.status, ended?.statusMessage], ['failed', 'the server stopped before the task finished']);
  } finally {
    await client.close().catch(() => undefined);
  }
});

test('consume: connectTools calls a required upstream tool as a task and polls it; a cancel reaches the upstream task', async () => {
  const upstreamTools = taskTools();
  const upstream = await serveHttp({ name: 'upstream', version: '1.0.0' }, upstreamTools.tools);
  const client = new V1Client({ name: 'consumer', version: '1.0.0' });
  await client.connect(new V1HttpTransport(new URL(upstream.url)));
  try {
    const tools = await connectTools(client, {
      policy: { rules: [{ effect: 'allow', capabilities: ['unclassified'] }] },
    });
    const deploy = tools.find((tool) => tool.name === 'deploy')!;
    // The executor's call runs the upstream task to its end (a plain tools/call would be -32601).
    const done = await new Executor({ tools: [deploy] }).run([{ id: '1', tool: 'deploy', args: { ms: 20 } }]);
    assert.deepEqual(done[0]!.ok ? done[0]!.result.content : String(done[0]!.error), [
      { type: 'text', text: 'deployed' },
    ]);
    const controller = new AbortController();
    const running = new Executor({ tools: [deploy] }).run([{ id: '2', tool: 'deploy', args: { ms: 60_000 } }], {
      signal: controller.signal,
    });
    for (let attempt = 0; attempt < 400 && upstreamTools.aborted.length === 0; attempt++) {
      if (attempt === 20) controller.abort();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await running;
    assert.deepEqual(upstreamTools.aborted, ['deploy']);
  } finally {
    await client.close();
    await upstream.close();
  }
});

test('MemoryTaskStore: maxTasks counts ended tasks until their TTL passes; statuses never leave a terminal one', async () => {
  let now = 1_000;
  const store = new MemoryTaskStore({ maxTasks: 2, now: () => now });
  const init = { owner: 'connection:x', tool: 'job', ttlMs: 5_000, pollIntervalMs: 10 };
  const first = await store.create(init);
  await store.update(first.taskId, { status: 'completed', result: { content: [] } });
  assert.deepEqual(await store.update(first.taskId, { status: 'working' }), await store.get(first.taskId, init.owner));
  assert.equal((await store.get(first.taskId, init.owner))?.status, 'completed');
  await store.create(init);
  await assert.rejects(store.create(init), {
    name: 'TaskLimitError',
    message: 'this server keeps as many tasks as it may (maxTasks 2); retry once older ones have expired',
  });
  now += 5_000;
  assert.equal((await store.create(init)).status, 'working');
  assert.equal(await store.get(first.taskId, init.owner), undefined);
  assert.equal(store.size, 1);
});

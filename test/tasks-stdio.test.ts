import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1StdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema, CreateTaskResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { StdioChild } from './support/transport-child.js';
import { envelope } from './support/modern-http.js';

/*
 * Tasks over stdio, in a real child process: the SDK 1.x client (2025-11-25) with progress that
 * carries the related-task metadata, and raw 2026-07-28 lines for the extension.
 */

const FIXTURE = new URL('./support/tasks-stdio-fixture.js', import.meta.url).pathname;
const RELATED = 'io.modelcontextprotocol/related-task';

test('2025-11-25 over stdio (SDK 1.x): a task with progress tagged with its task, then its result', async () => {
  const client = new V1Client({ name: 'tasks-stdio-test', version: '1.0.0' });
  const progress: unknown[] = [];
  await client.connect(new V1StdioTransport({ command: process.execPath, args: [FIXTURE], stderr: 'ignore' }));
  try {
    const created = await client.request(
      {
        method: 'tools/call',
        params: { name: 'job', arguments: { label: 'io', ms: 30 } },
      },
      CreateTaskResultSchema,
      { task: {}, onprogress: (update) => void progress.push(update) },
    );
    const taskId = created.task.taskId;
    const result = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    assert.deepEqual(result, { content: [{ type: 'text', text: 'finished io' }], _meta: { [RELATED]: { taskId } } });
    // The SDK hands the progress to onprogress without its token.
    assert.deepEqual(progress, [{ progress: 1, total: 2, message: 'started io', _meta: { [RELATED]: { taskId } } }]);
  } finally {
    await client.close();
  }
});

test('2025-11-25 over stdio: a question mid-task moves it to input_required until the client answers', async () => {
  const client = new V1Client({ name: 'tasks-stdio-test', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  let release!: () => void;
  const answered = new Promise<void>((resolve) => (release = resolve));
  const questions: unknown[] = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    questions.push(request.params._meta);
    await answered;
    return { action: 'accept', content: {} };
  });
  await client.connect(new V1StdioTransport({ command: process.execPath, args: [FIXTURE], stderr: 'ignore' }));
  try {
    const created = await client.request(
      { method: 'tools/call', params: { name: 'ask', arguments: {}, task: {} } },
      CreateTaskResultSchema,
    );
    const taskId = created.task.taskId;
    let task = await client.experimental.tasks.getTask(taskId);
    for (let attempt = 0; attempt < 400 && task.status !== 'input_required'; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      task = await client.experimental.tasks.getTask(taskId);
    }
    assert.equal(task.status, 'input_required');
    assert.equal(task.statusMessage, 'waiting for an answer to elicitation/create');
    assert.deepEqual(questions, [{ [RELATED]: { taskId } }]);
    release();
    const result = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    assert.deepEqual(result.content, [{ type: 'text', text: 'the user said accept' }]);
  } finally {
    await client.close();
  }
});

test('2026-07-28 over stdio (raw lines): tools/call answers a task, tasks/get inlines its result', async () => {
  const child = new StdioChild({}, 'tasks-stdio-fixture.js');
  try {
    const meta = envelope({ extensions: { 'io.modelcontextprotocol/tasks': {} } });
    const created = (await child.request('tools/call', { name: 'job', arguments: { label: 'm', ms: 20 }, _meta: meta }))
      .result as Record<string, unknown>;
    assert.equal(created.resultType, 'task');
    assert.equal(created.status, 'working');
    let task: Record<string, unknown> = {};
    for (let attempt = 0; attempt < 400 && task.status !== 'completed'; attempt++) {
      task = (await child.request('tasks/get', { taskId: created.taskId, _meta: meta })).result as Record<
        string,
        unknown
      >;
      if (task.status !== 'completed') await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.equal(task.resultType, 'complete');
    assert.deepEqual(task.result, { content: [{ type: 'text', text: 'finished m' }] });
  } finally {
    child.kill();
    await child.exit();
  }
});

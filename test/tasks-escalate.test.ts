import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallContext, ContractTool } from '../src/contract/index.js';
import { compile, TaskSupport, Tool } from '../src/index.js';
import { MemoryTaskStore } from '../src/runtime/index.js';
import { serveHttp, TOOL_META_KEY, type HttpHandle } from '../src/mcp/index.js';
import { errorText } from '../src/util/describe.js';
import { envelope, modernPost } from './support/modern-http.js';

/*
 * A 2026-07-28 call that gathers its input through MRTR and then continues as a task
 * (`@TaskSupport(support, { startsAsCall: true })`, `ctx.continueAsTask()`), raw JSON-RPC over
 * HTTP: round 1 is `input_required` without a task, the retry is answered with the
 * CreateTaskResult, and the task's result reflects the answer; a question after that is the
 * task's (tasks/update); a cancel reaches the call; a wrong retry; and where continueAsTask
 * changes nothing (no extension, the 2025-11-25 era, a tool without the claim).
 */

const NAME_FORM = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
const PLAN_FORM = { type: 'object', properties: { plan: { type: 'string' } }, required: ['plan'] };

/** What the tools saw, in order. */
const seen: string[] = [];

@Tool({ description: 'Asks a name as a plain call, then a plan inside the task', args: undefined })
@TaskSupport('required', { ttlMs: 60_000, pollIntervalMs: 10, startsAsCall: true })
class OnboardTool {
  async execute(_args: unknown, ctx: CallContext): Promise<string> {
    const name = await ctx.elicit({ key: 'name', message: 'Your name?', schema: NAME_FORM });
    await ctx.continueAsTask();
    seen.push('onboard continues as a task');
    try {
      const plan = await ctx.elicit({ key: 'plan', message: 'Which plan?', schema: PLAN_FORM });
      return `welcome ${String(name.content?.name)} on ${String(plan.content?.plan)}`;
    } catch (err) {
      seen.push(`onboard stopped: ${errorText(err)} (signal aborted: ${ctx.signal.aborted})`);
      throw err;
    }
  }
}

@Tool({ description: 'Asks a name and answers at once, never as a task', args: undefined })
@TaskSupport('required', { ttlMs: 60_000, pollIntervalMs: 10, startsAsCall: true })
class DirectTool {
  async execute(_args: unknown, ctx: CallContext): Promise<string> {
    const name = await ctx.elicit({ key: 'name', message: 'Your name?', schema: NAME_FORM });
    return `hi ${String(name.content?.name)}`;
  }
}

@Tool({ description: 'Continues as a task at once, twice', args: undefined })
@TaskSupport('optional', { ttlMs: 60_000, pollIntervalMs: 10, startsAsCall: true })
class QuickTool {
  async execute(_args: unknown, ctx: CallContext): Promise<string> {
    await ctx.continueAsTask();
    await ctx.continueAsTask();
    return 'quick: done';
  }
}

@Tool({ description: 'Calls continueAsTask while its question is still open', args: undefined })
@TaskSupport('required', { ttlMs: 60_000, pollIntervalMs: 10, startsAsCall: true })
class HastyTool {
  async execute(_args: unknown, ctx: CallContext): Promise<string> {
    void ctx.elicit({ key: 'first', message: 'First?' }).catch(() => undefined);
    return ctx.continueAsTask().then(
      () => 'hasty: continued',
      (err: unknown) => `hasty: ${errorText(err)}`,
    );
  }
}

/** A tool without the task claim: continueAsTask resolves at once and changes nothing. */
const plainTool: ContractTool = {
  name: 'plain_tool',
  description: 'Calls continueAsTask as a plain tool',
  async execute(_args, ctx) {
    await ctx.continueAsTask();
    return 'plain: done';
  },
};

const TASKS = { 'io.modelcontextprotocol/tasks': {} };
const CAPS = { elicitation: { form: {} }, extensions: TASKS };

interface Answer {
  readonly result?: Record<string, unknown>;
  readonly error?: Record<string, unknown>;
}

/** One raw 2026-07-28 request (answered within 5 s); the result without its `_meta` and times. */
async function modern(
  method: string,
  params: Record<string, unknown>,
  caps: Record<string, unknown> = CAPS,
): Promise<Answer> {
  const headers: Record<string, string> = typeof params.taskId === 'string' ? { 'mcp-name': params.taskId } : {};
  const request = { id: 1, method, params };
  const answer = await modernPost(handle.url, request, envelope(caps), AbortSignal.timeout(5_000), headers).catch(
    (err: unknown) => {
      throw new Error(`no answer to ${method} within 5 s: ${errorText(err)}`);
    },
  );
  const message = answer.messages[0] as Answer;
  if (message.result === undefined) return { error: message.error! };
  const { _meta: _info, createdAt: _c, lastUpdatedAt: _u, ...rest } = message.result;
  return { result: rest };
}

/** Reads the task until `status` (at most 300 reads, 10 ms apart). */
async function untilStatus(taskId: string, status: string): Promise<Answer> {
  for (let attempt = 0; attempt < 300; attempt++) {
    const answer = await modern('tasks/get', { taskId });
    if (answer.result?.status === status) return answer;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`task ${taskId} did not become ${status} in time`);
}

/** Round 1 of `name`: the input_required answer, checked, and its requestState. */
async function firstRound(name: string): Promise<string> {
  const round = await modern('tools/call', { name, arguments: {} });
  const state = round.result?.requestState;
  assert.equal(typeof state, 'string', JSON.stringify(round));
  assert.deepEqual(round, {
    result: {
      resultType: 'input_required',
      inputRequests: {
        name: {
          method: 'elicitation/create',
          params: { mode: 'form', message: 'Your name?', requestedSchema: NAME_FORM },
        },
      },
      requestState: state,
    },
  });
  return state as string;
}

const ALICE = { name: { action: 'accept', content: { name: 'Alice' } } };

let handle: HttpHandle;

before(async () => {
  const tools = [...compile([OnboardTool, DirectTool, QuickTool, HastyTool]), plainTool];
  handle = await serveHttp({ name: 'escalate', version: '1.0.0' }, tools, {
    stateless: true,
    // One live task on the server: each test ends its tasks; the bound test keeps one running.
    tasks: { store: new MemoryTaskStore({ maxLive: 1 }) },
  });
});

after(async () => {
  await handle.close();
});

test('round 1 is input_required without a task; the retry gets the task; a later question is the task’s', async () => {
  seen.length = 0;
  const requestState = await firstRound('onboard');
  const created = await modern('tools/call', { name: 'onboard', arguments: {}, inputResponses: ALICE, requestState });
  const taskId = created.result?.taskId;
  assert.equal(typeof taskId, 'string', JSON.stringify(created));
  // The CreateTaskResult: never requestState or inputRequests.
  assert.deepEqual(created, {
    result: { resultType: 'task', taskId, status: 'working', ttlMs: 60_000, pollIntervalMs: 10 },
  });
  const asked = await untilStatus(String(taskId), 'input_required');
  assert.deepEqual(asked.result, {
    resultType: 'complete',
    taskId,
    status: 'input_required',
    statusMessage: "waiting for the client's answer to plan (tasks/update)",
    ttlMs: 60_000,
    pollIntervalMs: 10,
    inputRequests: {
      plan: {
        method: 'elicitation/create',
        params: { mode: 'form', message: 'Which plan?', requestedSchema: PLAN_FORM },
      },
    },
  });
  const ack = await modern('tasks/update', {
    taskId,
    inputResponses: { plan: { action: 'accept', content: { plan: 'pro' } } },
  });
  assert.deepEqual(ack, { result: { resultType: 'complete' } });
  const done = await untilStatus(String(taskId), 'completed');
  // The task as it was created (pinned above), completed with the answers of both phases.
  assert.deepEqual(done.result, {
    ...created.result,
    resultType: 'complete',
    status: 'completed',
    result: { content: [{ type: 'text', text: 'welcome Alice on pro' }] },
  });
  assert.deepEqual(seen, ['onboard continues as a task']);
  // The claim is listed with the opt-in.
  const listed = await modern('tools/list', {});
  const tools = listed.result?.tools as { name: string; _meta: Record<string, unknown> }[];
  assert.deepEqual(tools.find((tool) => tool.name === 'onboard')?._meta[TOOL_META_KEY], {
    replay: true,
    task: { support: 'required', ttlMs: 60_000, pollIntervalMs: 10, startsAsCall: true },
  });
});

test('a cancel of the task stops the call; a retry with a used requestState is told the call no longer waits', async () => {
  seen.length = 0;
  const requestState = await firstRound('onboard');
  const created = await modern('tools/call', { name: 'onboard', arguments: {}, inputResponses: ALICE, requestState });
  const taskId = String(created.result?.taskId);
  await untilStatus(taskId, 'input_required');
  // The state of round 1 was answered once: it never resumes the call again, nor makes a task.
  const again = await modern('tools/call', { name: 'onboard', arguments: {}, inputResponses: ALICE, requestState });
  assert.deepEqual(again, {
    result: {
      content: [
        {
          type: 'text',
          text: 'the call these answers belong to is no longer waiting for them; call the tool again',
        },
      ],
      isError: true,
      resultType: 'complete',
    },
  });
  assert.deepEqual(await modern('tasks/cancel', { taskId }), { result: { resultType: 'complete' } });
  const cancelled = await untilStatus(taskId, 'cancelled');
  assert.equal(cancelled.result?.statusMessage, 'cancelled by the client');
  for (let attempt = 0; attempt < 200 && seen.length < 2; attempt++)
    await new Promise((resolve) => setTimeout(resolve, 10));
  assert.deepEqual(seen, [
    'onboard continues as a task',
    'onboard stopped: cancelled by the client (signal aborted: true)',
  ]);
});

test('a task store bound at continueAsTask answers the retry -32000 and stops the call', async () => {
  seen.length = 0;
  const first = await modern('tools/call', {
    name: 'onboard',
    arguments: {},
    inputResponses: ALICE,
    requestState: await firstRound('onboard'),
  });
  const taskId = String(first.result?.taskId);
  await untilStatus(taskId, 'input_required');
  const requestState = await firstRound('onboard');
  assert.deepEqual(
    await modern('tools/call', { name: 'onboard', arguments: {}, inputResponses: ALICE, requestState }),
    {
      error: {
        code: -32000,
        message: 'too many tasks are running on this server (maxLive 1); retry once one has ended',
        data: { retryable: true, limit: 'maxLive', max: 1 },
      },
    },
  );
  // The refused call never went on (only the first one continued as a task).
  assert.deepEqual(seen, ['onboard continues as a task']);
  await modern('tasks/cancel', { taskId });
  await untilStatus(taskId, 'cancelled');
});

test('a call that never continues as a task answers its plain result after its MRTR rounds', async () => {
  const requestState = await firstRound('direct');
  assert.deepEqual(await modern('tools/call', { name: 'direct', arguments: {}, inputResponses: ALICE, requestState }), {
    result: { content: [{ type: 'text', text: 'hi Alice' }], resultType: 'complete' },
  });
});

test('continueAsTask with a question open rejects naming it; at once, the first answer is the task', async () => {
  assert.deepEqual(await modern('tools/call', { name: 'hasty', arguments: {} }), {
    result: {
      content: [
        {
          type: 'text',
          text: 'hasty: continueAsTask: the call still waits for answers to first; await them before it continues as a task',
        },
      ],
      resultType: 'complete',
    },
  });
  const created = await modern('tools/call', { name: 'quick', arguments: {} });
  assert.equal(created.result?.resultType, 'task', JSON.stringify(created));
  const done = await untilStatus(String(created.result?.taskId), 'completed');
  assert.deepEqual(done.result?.result, { content: [{ type: 'text', text: 'quick: done' }] });
});

test('without the extension: a required tool is -32021, an optional one and a plain tool run as plain calls', async () => {
  const caps = { elicitation: { form: {} } };
  assert.deepEqual(await modern('tools/call', { name: 'onboard', arguments: {} }, caps), {
    error: {
      code: -32021,
      message:
        'tool "onboard" runs only as a task and needs the client capability extensions["io.modelcontextprotocol/tasks"], which this request does not declare',
      data: { requiredCapabilities: { extensions: TASKS } },
    },
  });
  assert.deepEqual(await modern('tools/call', { name: 'quick', arguments: {} }, caps), {
    result: { content: [{ type: 'text', text: 'quick: done' }], resultType: 'complete' },
  });
  assert.deepEqual(await modern('tools/call', { name: 'plain_tool', arguments: {} }), {
    result: { content: [{ type: 'text', text: 'plain: done' }], resultType: 'complete' },
  });
});

test('2025-11-25 (SDK 1.x): a task from the call, and a plain call; continueAsTask changes neither', async () => {
  const client = new V1Client({ name: 'escalate-v1', version: '1.0.0' });
  await client.connect(new V1HttpTransport(new URL(handle.url)));
  try {
    const created = await client.request(
      { method: 'tools/call', params: { name: 'quick', arguments: {}, task: {} } },
      CreateTaskResultSchema,
    );
    assert.equal(created.task.status, 'working');
    const result = await client.experimental.tasks.getTaskResult(created.task.taskId, CallToolResultSchema);
    assert.deepEqual(result.content, [{ type: 'text', text: 'quick: done' }]);
    assert.deepEqual(await client.callTool({ name: 'quick', arguments: {} }), {
      content: [{ type: 'text', text: 'quick: done' }],
    });
  } finally {
    await client.close();
  }
});

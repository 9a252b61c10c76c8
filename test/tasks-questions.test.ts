import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { IsString } from 'class-validator';
import type { ContractTool } from '../src/contract/index.js';
import { compile, Requires, TaskSupport, Tool } from '../src/index.js';
import { createPolicy, MemoryTaskStore, PERMISSION_FORM, type TaskStore } from '../src/runtime/index.js';
import { serveHttp, type HttpHandle } from '../src/mcp/index.js';
import { connectRedis, RedisTaskStore, type RedisConnection } from '../src/redis/index.js';
import { errorText } from '../src/util/describe.js';
import { envelope, modernPost } from './support/modern-http.js';
import { redisSkip, startRedisServer, type RedisServer } from './support/redis-server.js';

/*
 * Questions asked inside a 2026-07-28 task (the io.modelcontextprotocol/tasks extension), raw
 * JSON-RPC over HTTP: the task moves to input_required with its inputRequests on tasks/get, and
 * tasks/update answers them; wrong answers, cancel and the TTL while a question is open, a
 * question the request's capabilities do not offer (the task ends failed), the owner scope, and
 * an answer reaching the owning process through Redis.
 */

const NAME_FORM = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
const ASK_MESSAGES = [{ role: 'user' as const, content: { type: 'text', text: 'Capital of France?' } }];

/** What the tools saw, in order. */
const seen: string[] = [];

/** Runs `run`, noting in `seen` why it stopped when it rejects (then rejecting the same way). */
async function noted<T>(tool: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    seen.push(`${tool} stopped: ${errorText(err)}`);
    throw err;
  }
}

/** Asks a name (key "name"), then the model (no key: "sample_1"), and answers with both. */
const interview: ContractTool = {
  name: 'interview',
  description: 'Asks a name, then the model, inside the task',
  task: { support: 'required', ttlMs: 60_000, pollIntervalMs: 10 },
  execute: (_args, ctx) =>
    noted('interview', async () => {
      const name = await ctx.elicit({ key: 'name', message: 'Your name?', schema: NAME_FORM });
      const model = await ctx.sample({ messages: ASK_MESSAGES, maxTokens: 10 });
      const text = (model.content as { text?: string }).text;
      return `${String(name.content?.name ?? name.action)} / ${String(text)}`;
    }),
};

/** Asks one question and has a TTL of 300 ms. */
const brief: ContractTool = {
  name: 'brief',
  description: 'Asks a question it has no time to wait for',
  task: { support: 'required', ttlMs: 300, pollIntervalMs: 10 },
  execute: (_args, ctx) =>
    noted('brief', async () => {
      await ctx.elicit({ message: 'Quick?' });
      return 'answered';
    }),
};

/** Asks for the client's roots. */
const rootsJob: ContractTool = {
  name: 'roots_job',
  description: "Counts the client's roots inside the task",
  task: { support: 'required', ttlMs: 60_000, pollIntervalMs: 10 },
  async execute(_args, ctx) {
    return `${(await ctx.roots()).length} roots`;
  },
};

const TOOLS = [interview, brief, rootsJob];
const CAPS = { elicitation: { form: {} }, sampling: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } };

interface Answer {
  readonly result?: Record<string, unknown>;
  readonly error?: Record<string, unknown>;
}

/** One raw 2026-07-28 request (`Mcp-Name` set to the task id for the task methods). */
async function modern(
  url: string,
  method: string,
  params: Record<string, unknown>,
  options: { readonly caps?: Record<string, unknown>; readonly token?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = typeof params.taskId === 'string' ? { 'mcp-name': params.taskId } : {};
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  const answer = await modernPost(url, { id: 1, method, params }, envelope(options.caps ?? CAPS), undefined, headers);
  const message = answer.messages[0] as Answer;
  if (message.result === undefined) return { error: message.error! };
  const { _meta: _info, createdAt: _c, lastUpdatedAt: _u, ...rest } = message.result;
  return { result: rest };
}

/** Reads the task through `read` until `done` holds (at most 300 reads, 10 ms apart). */
async function until(read: () => Promise<Answer>, done: (answer: Answer) => boolean, what: string): Promise<Answer> {
  for (let attempt = 0; attempt < 300; attempt++) {
    const answer = await read();
    if (done(answer)) return answer;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`the task did not get there in time: ${what}`);
}

const statusIs = (status: string) => (answer: Answer) => answer.result?.status === status;

let handle: HttpHandle;

before(async () => {
  handle = await serveHttp({ name: 'questions', version: '1.0.0' }, TOOLS, { stateless: true });
});

after(async () => {
  await handle.close();
});

async function start(
  url: string,
  name: string,
  options: { readonly caps?: Record<string, unknown>; token?: string } = {},
) {
  const created = await modern(url, 'tools/call', { name, arguments: {} }, options);
  assert.equal(created.result?.resultType, 'task', JSON.stringify(created));
  return String(created.result!.taskId);
}

test('a question inside a task: input_required with its request on tasks/get; tasks/update answers it', async () => {
  const url = handle.url;
  const taskId = await start(url, 'interview');
  const get = () => modern(url, 'tasks/get', { taskId });
  const asked = await until(get, statusIs('input_required'), 'input_required with "name"');
  assert.deepEqual(asked.result, {
    resultType: 'complete',
    taskId,
    status: 'input_required',
    statusMessage: "waiting for the client's answer to name (tasks/update)",
    ttlMs: 60_000,
    pollIntervalMs: 10,
    inputRequests: {
      name: {
        method: 'elicitation/create',
        params: { mode: 'form', message: 'Your name?', requestedSchema: NAME_FORM },
      },
    },
  });
  const ack = await modern(url, 'tasks/update', {
    taskId,
    inputResponses: { name: { action: 'accept', content: { name: 'Ada' } } },
  });
  assert.deepEqual(ack, { result: { resultType: 'complete' } });
  // The answered question is gone at once; the next one gets a key of its own.
  const next = await until(
    get,
    (answer) => answer.result?.status === 'input_required' && answer.result.inputRequests !== undefined,
    'input_required with "sample_1"',
  );
  assert.deepEqual(next.result!.inputRequests, {
    sample_1: { method: 'sampling/createMessage', params: { messages: ASK_MESSAGES, maxTokens: 10 } },
  });
  await modern(url, 'tasks/update', {
    taskId,
    inputResponses: { sample_1: { role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'm1' } },
  });
  const done = await until(get, statusIs('completed'), 'completed');
  assert.deepEqual(done.result, {
    resultType: 'complete',
    taskId,
    status: 'completed',
    ttlMs: 60_000,
    pollIntervalMs: 10,
    result: { content: [{ type: 'text', text: 'Ada / Paris' }] },
  });
});

test('wrong answers are -32602 naming the problem and taken not at all; an unknown key is ignored', async () => {
  const url = handle.url;
  const taskId = await start(url, 'interview');
  const get = () => modern(url, 'tasks/get', { taskId });
  await until(get, statusIs('input_required'), 'input_required');
  const update = (inputResponses: unknown) => modern(url, 'tasks/update', { taskId, inputResponses });
  assert.deepEqual(await update({ name: { action: 'yes' } }), {
    error: {
      code: -32602,
      message:
        'tasks/update: inputResponses["name"] answers elicitation/create and needs "action" "accept", "decline" or "cancel", got "yes"',
    },
  });
  assert.deepEqual(await update({ name: { action: 'accept', content: { name: 5 } } }), {
    error: {
      code: -32602,
      message: 'tasks/update: inputResponses["name"] does not match the requested schema: /name: must be string',
    },
  });
  assert.deepEqual(await modern(url, 'tasks/update', { taskId }), {
    error: {
      code: -32602,
      message:
        "tasks/update: params.inputResponses must be an object keyed by the task's inputRequests keys, got nothing",
    },
  });
  assert.deepEqual(await modern(url, 'tasks/update', { taskId: 'no-such-task', inputResponses: {} }), {
    error: { code: -32602, message: 'Failed to retrieve task: Task not found (no-such-task)' },
  });
  // A key the task never issued is ignored, as the extension asks: acked, the question still open.
  assert.deepEqual(await update({ 'unknown-key': { action: 'accept' } }), { result: { resultType: 'complete' } });
  const still = await get();
  assert.equal(still.result!.status, 'input_required');
  assert.deepEqual(Object.keys(still.result!.inputRequests as object), ['name']);
  // Cancelled while the question is open: the question stops the run, later answers are ignored.
  seen.length = 0;
  assert.deepEqual(await modern(url, 'tasks/cancel', { taskId }), { result: { resultType: 'complete' } });
  const cancelled = await get();
  assert.deepEqual(cancelled.result, {
    resultType: 'complete',
    taskId,
    status: 'cancelled',
    statusMessage: 'cancelled by the client',
    ttlMs: 60_000,
    pollIntervalMs: 10,
  });
  assert.deepEqual(await update({ name: { action: 'accept', content: { name: 'Late' } } }), {
    result: { resultType: 'complete' },
  });
  await until(
    async () => ({ result: { seen: seen.length } }),
    () => seen.length > 0,
    'the run saw the cancel',
  );
  assert.deepEqual(seen, ['interview stopped: cancelled by the client']);
  assert.equal((await get()).result!.status, 'cancelled');
});

test("an unanswered question is bounded by the task's TTL: the run stops and the task is gone", async () => {
  const url = handle.url;
  seen.length = 0;
  const taskId = await start(url, 'brief');
  const get = () => modern(url, 'tasks/get', { taskId });
  await until(get, statusIs('input_required'), 'input_required');
  const gone = await until(get, (answer) => answer.error !== undefined, 'the TTL to pass');
  assert.deepEqual(gone.error, { code: -32602, message: `Failed to retrieve task: Task not found (${taskId})` });
  await until(
    async () => ({}),
    () => seen.length > 0,
    'the run saw the TTL',
  );
  assert.deepEqual(seen, ["brief stopped: the task's TTL of 300 ms passed before it finished"]);
});

test('a JSON-RPC error a plain call gets ends the task failed with it: -32021 for a question not offered, -32602', async () => {
  const url = handle.url;
  const taskId = await start(url, 'roots_job');
  const failed = await until(() => modern(url, 'tasks/get', { taskId }), statusIs('failed'), 'failed');
  const message =
    "Cannot request input (roots/list): the request's client capabilities do not declare the required capability";
  assert.deepEqual(failed.result, {
    resultType: 'complete',
    taskId,
    status: 'failed',
    statusMessage: message,
    ttlMs: 60_000,
    pollIntervalMs: 10,
    error: { code: -32021, message, data: { requiredCapabilities: { roots: {} } } },
  });
  // Malformed params, which a plain call answers -32602, end the task failed with that error.
  const malformed = await modern(url, 'tools/call', { name: 'roots_job', arguments: 'x' });
  const badId = String(malformed.result!.taskId);
  const bad = await until(() => modern(url, 'tasks/get', { taskId: badId }), statusIs('failed'), 'failed');
  assert.deepEqual(bad.result!.error, {
    code: -32602,
    message: 'tools/call: params.arguments must be an object, got a string',
  });
});

test('a permission question inside a task is a question of the task; allow once runs the tool', async () => {
  class WriteArgs {
    @IsString()
    path!: string;
  }
  const writes: string[] = [];
  @Tool({ name: 'write_file', description: 'Writes a file (a task)', args: WriteArgs })
  @Requires({ capabilities: ['write'], subject: (args: WriteArgs) => args.path, reason: 'save the report' })
  @TaskSupport('required', { pollIntervalMs: 10 })
  class WriteFile {
    execute(args: WriteArgs): string {
      writes.push(args.path);
      return `wrote ${args.path}`;
    }
  }
  const guarded = await serveHttp({ name: 'questions-policy', version: '1.0.0' }, compile([WriteFile]), {
    stateless: true,
    policy: createPolicy(),
  });
  try {
    const created = await modern(guarded.url, 'tools/call', { name: 'write_file', arguments: { path: '/tmp/r' } });
    const taskId = String(created.result!.taskId);
    const get = () => modern(guarded.url, 'tasks/get', { taskId });
    const asked = await until(get, statusIs('input_required'), 'the permission question');
    assert.deepEqual(asked.result!.inputRequests, {
      elicit_1: {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: 'Allow the tool "write_file" to use write on "/tmp/r"?\nReason: save the report',
          requestedSchema: PERMISSION_FORM,
        },
      },
    });
    assert.deepEqual(writes, []);
    const allow = { elicit_1: { action: 'accept', content: { decision: 'allow_once' } } };
    await modern(guarded.url, 'tasks/update', { taskId, inputResponses: allow });
    const done = await until(get, statusIs('completed'), 'completed');
    assert.deepEqual((done.result!.result as { content: unknown }).content, [{ type: 'text', text: 'wrote /tmp/r' }]);
    assert.deepEqual(writes, ['/tmp/r']);
  } finally {
    await guarded.close();
  }
});

test("another principal can neither see nor answer a task's question", async () => {
  let resource = '';
  const scoped = await serveHttp({ name: 'questions-auth', version: '1.0.0' }, TOOLS, {
    stateless: true,
    auth: {
      issuer: 'http://127.0.0.1:9/',
      verifier: async (token) => ({
        subject: token,
        clientId: 'questions-test',
        scopes: [],
        expiresAt: Math.floor(Date.now() / 1000) + 600,
        audience: [resource],
        claims: {},
      }),
    },
  });
  resource = scoped.url;
  try {
    const taskId = await start(scoped.url, 'interview', { token: 'alice' });
    const get = (token: string) => modern(scoped.url, 'tasks/get', { taskId }, { token });
    await until(() => get('alice'), statusIs('input_required'), 'input_required');
    const notFound = { error: { code: -32602, message: `Failed to retrieve task: Task not found (${taskId})` } };
    const stolen = { taskId, inputResponses: { name: { action: 'accept', content: { name: 'Mallory' } } } };
    assert.deepEqual(await modern(scoped.url, 'tasks/update', stolen, { token: 'bob' }), notFound);
    assert.deepEqual(await get('bob'), notFound);
    assert.deepEqual(Object.keys((await get('alice')).result!.inputRequests as object), ['name']);
    const own = { taskId, inputResponses: { name: { action: 'accept', content: { name: 'Alice' } } } };
    assert.deepEqual(await modern(scoped.url, 'tasks/update', own, { token: 'alice' }), {
      result: { resultType: 'complete' },
    });
    const next = await until(
      () => get('alice'),
      (answer) => answer.result?.inputRequests !== undefined && 'sample_1' in (answer.result.inputRequests as object),
      'the second question',
    );
    assert.equal(next.result!.status, 'input_required');
    await modern(scoped.url, 'tasks/cancel', { taskId }, { token: 'alice' });
  } finally {
    await scoped.close();
  }
});

test('Redis: a question is seen and answered through another process', { skip: redisSkip }, async () => {
  let redis: RedisServer | undefined;
  const connections: RedisConnection[] = [];
  const handles: HttpHandle[] = [];
  try {
    redis = await startRedisServer({ persistence: false });
    for (let index = 0; index < 2; index++) {
      const connection = await connectRedis({ url: redis.url, durability: 'off', log: () => undefined });
      connections.push(connection);
      const store = new RedisTaskStore(connection, { tickMs: 20 });
      // Tools of its own, as another process has (one tool set's servers share one task runner).
      const tools = TOOLS.map((tool) => ({ ...tool }));
      handles.push(
        await serveHttp({ name: `node-${index}`, version: '1.0.0' }, tools, { tasks: { store, drainMs: 0 } }),
      );
    }
    const [owner, other] = handles as [HttpHandle, HttpHandle];
    const taskId = await start(owner.url, 'interview');
    const getOther = () => modern(other.url, 'tasks/get', { taskId });
    const asked = await until(getOther, statusIs('input_required'), 'input_required, read through the other process');
    assert.deepEqual(Object.keys(asked.result!.inputRequests as object), ['name']);
    const update = (inputResponses: unknown) => modern(other.url, 'tasks/update', { taskId, inputResponses });
    assert.deepEqual((await update({ name: { action: 'decline', content: 7 } })).error, {
      code: -32602,
      message:
        'tasks/update: inputResponses["name"] answers elicitation/create and its "content" must be an object, got a number',
    });
    assert.deepEqual(await update({ name: { action: 'accept', content: { name: 'Grace' } } }), {
      result: { resultType: 'complete' },
    });
    await until(
      getOther,
      (answer) => answer.result?.inputRequests !== undefined && 'sample_1' in (answer.result.inputRequests as object),
      'the second question, after the answer reached the owner',
    );
    await update({ sample_1: { role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'm1' } });
    const done = await until(getOther, statusIs('completed'), 'completed');
    assert.deepEqual(done.result!.result, { content: [{ type: 'text', text: 'Grace / Paris' }] });
  } finally {
    for (const served of handles) await served.close();
    for (const connection of connections) await connection.close();
    await redis?.stop();
  }
});

test('a shared store without deliver refuses an answer for a task another process runs, never drops it', async () => {
  // One memory store shared by two endpoints stands for a shared store whose author gave it
  // `watch` but no `deliver`: the second endpoint's runner does not run the task.
  const shared = new MemoryTaskStore();
  const store: TaskStore = Object.assign(Object.create(shared) as TaskStore, { watch: () => () => undefined });
  const served: HttpHandle[] = [];
  try {
    for (let index = 0; index < 2; index++) {
      const tools = TOOLS.map((tool) => ({ ...tool }));
      served.push(
        await serveHttp({ name: `node-${index}`, version: '1.0.0' }, tools, { tasks: { store, drainMs: 0 } }),
      );
    }
    const [owner, other] = served as [HttpHandle, HttpHandle];
    const taskId = await start(owner.url, 'interview');
    await until(() => modern(other.url, 'tasks/get', { taskId }), statusIs('input_required'), 'input_required');
    const answer = await modern(other.url, 'tasks/update', {
      taskId,
      inputResponses: { name: { action: 'accept', content: { name: 'Grace' } } },
    });
    assert.deepEqual(answer.error, {
      code: -32603,
      message:
        'the task runs in another process and the task store cannot hand answers to it (it has watch but no deliver)',
    });
    const still = await modern(owner.url, 'tasks/get', { taskId });
    assert.equal(still.result?.status, 'input_required');
    await modern(owner.url, 'tasks/cancel', { taskId });
  } finally {
    for (const handle of served) await handle.close();
  }
});

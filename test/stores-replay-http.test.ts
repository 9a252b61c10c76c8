import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { text, type ContractTool, type ToolResult } from '../src/index.js';
import { Executor, MemoryReplayStore, type ReplayStore } from '../src/runtime/index.js';
import {
  connectTools,
  IDEMPOTENCY_KEY_META,
  serveHttp,
  type HttpHandle,
  type McpClientLike,
} from '../src/mcp/index.js';
import { connectRedis, RedisReplayStore, type RedisConnection } from '../src/redis/index.js';
import { redisSkip, startRedisServer, type RedisServer } from './support/redis-server.js';
import { STORES_AUTH } from './support/stores-tools.js';
import { envelope, modernPost, resultOf, withoutServerInfo } from './support/modern-http.js';

/*
 * The idempotency key on the wire, over real HTTP on 127.0.0.1: two toolwright servers (two
 * "processes", each with its own Redis connection and RedisReplayStore) share one real
 * redis-server. A 2025-era client (SDK 1.x) calls server A, a 2026-07-28-era client (SDK 2.x,
 * pinned) calls server B; both send the key in `_meta`. Tokens name the principal (a host
 * verifier: the token is the subject). The tool counts its real runs in this process.
 */

const INFO = { name: 'shop', version: '1.0.0' };

const runs = { charge: 0, note: 0 };
let gate: Promise<void> | undefined;

const chargeTool: ContractTool = {
  name: 'charge',
  description: 'Charges an amount, once per idempotency key',
  replay: 'keyed',
  parameters: {
    type: 'object',
    properties: { amount: { type: 'number' } },
    required: ['amount'],
    additionalProperties: false,
  },
  execute: async (args) => {
    runs.charge += 1;
    const run = runs.charge;
    await gate;
    const { amount } = args as { amount: number };
    return { content: [text(`charged ${amount} (run ${run})`)], structuredContent: { amount, run } };
  },
};

const noteTool: ContractTool = {
  name: 'note',
  description: 'Notes the idempotency key it got; not keyed, so never deduplicated',
  parameters: { type: 'object', properties: {}, additionalProperties: false },
  execute: async (_args, ctx) => {
    runs.note += 1;
    return `note ${runs.note} with key ${ctx.call.idempotencyKey ?? 'none'}`;
  },
};

/** Counts a side effect, then asks for a name (an input round in the 2026-07-28 era). */
let greetings = 0;
const greetOnceTool: ContractTool = {
  name: 'greet_once',
  description: 'Greets once per idempotency key, asking for the name',
  replay: 'keyed',
  parameters: { type: 'object', properties: {}, additionalProperties: false },
  execute: async (_args, ctx) => {
    greetings += 1;
    const answer = await ctx.elicit({
      message: 'Your name?',
      schema: { type: 'object', properties: { name: { type: 'string' } } },
    });
    return `hello ${String(answer.content?.name)} (greeting ${greetings})`;
  },
};

const TOOLS = [chargeTool, noteTool, greetOnceTool];

let redis: RedisServer | undefined;
const connections: RedisConnection[] = [];
const stores: RedisReplayStore[] = [];
const handles: HttpHandle[] = [];
const closers: (() => Promise<void>)[] = [];
let serverA: HttpHandle;
let serverB: HttpHandle;

/** One "process": its own Redis connection and store, serving TOOLS over HTTP (with auth unless told). */
async function process(withAuth = true): Promise<HttpHandle> {
  const connection = await connectRedis({ url: redis!.url });
  connections.push(connection);
  const store = new RedisReplayStore(connection);
  stores.push(store);
  const handle = await serveHttp(INFO, TOOLS, withAuth ? { auth: STORES_AUTH, replay: store } : { replay: store });
  handles.push(handle);
  return handle;
}

before(async () => {
  if (redisSkip !== undefined) return;
  redis = await startRedisServer();
  serverA = await process();
  serverB = await process();
});

after(async () => {
  for (const close of closers) await close();
  for (const handle of handles) await handle.close();
  for (const store of stores) store.close();
  for (const connection of connections) await connection.close();
  await redis?.stop();
});

/** A 2025-era client (SDK 1.x) with a bearer token. */
async function legacyClient(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'legacy', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
  );
  closers.push(() => client.close());
  return client;
}

/** A 2026-07-28-era client (SDK 2.x, pinned) with a bearer token. */
async function modernClient(
  url: string,
  token: string,
): Promise<McpClientLike & { callTool(params: object): Promise<unknown> }> {
  const { Client: V2Client, StreamableHTTPClientTransport: V2Transport } = await import('@modelcontextprotocol/client');
  const client = new V2Client(
    { name: 'modern', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(
    new V2Transport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
  );
  closers.push(() => client.close());
  return client as never;
}

type Caller = { callTool(params: object): Promise<unknown> };

const call = async (client: Caller, name: string, args: object, key?: string) =>
  withoutServerInfo(
    (await client.callTool(
      key === undefined ? { name, arguments: args } : { name, arguments: args, _meta: { [IDEMPOTENCY_KEY_META]: key } },
    )) as Record<string, unknown>,
  );

const charged = (amount: number, run: number) => ({
  content: [{ type: 'text', text: `charged ${amount} (run ${run})` }],
  structuredContent: { amount, run },
});
const refused = (message: string) => ({ content: [{ type: 'text', text: message }], isError: true });

/** Holds every `charge` run until `release` is called. */
function holdCharges(): () => void {
  let release!: () => void;
  gate = new Promise<void>((resolve) => (release = resolve));
  return () => {
    release();
    gate = undefined;
  };
}

test(
  'the same key sent to two processes at once runs once; a retry on either gets the first outcome; other arguments are refused',
  { skip: redisSkip, timeout: 30_000 },
  async () => {
    const onA = await legacyClient(serverA.url, 'alice');
    const onB = await modernClient(serverB.url, 'alice');
    const before = runs.charge;
    const release = holdCharges();
    let ran: unknown;
    try {
      const first = call(onA, 'charge', { amount: 5 }, 'order-1');
      const second = call(onB, 'charge', { amount: 5 }, 'order-1');
      // The call that runs waits at the gate; the other is answered at once.
      const answered = await Promise.race([
        first.then((r) => ['A', r] as const),
        second.then((r) => ['B', r] as const),
      ]);
      assert.deepEqual(answered[1], refused('idempotency key "order-1" is in use by a call that is still running'));
      release();
      ran = answered[0] === 'A' ? await second : await first;
    } finally {
      release();
    }
    assert.deepEqual(ran, charged(5, before + 1));
    assert.equal(runs.charge, before + 1);
    // Retries, on either process and in either era, get the first outcome; nothing runs again.
    assert.deepEqual(await call(onA, 'charge', { amount: 5 }, 'order-1'), charged(5, before + 1));
    assert.deepEqual(await call(onB, 'charge', { amount: 5 }, 'order-1'), charged(5, before + 1));
    assert.deepEqual(
      await call(onB, 'charge', { amount: 6 }, 'order-1'),
      refused('idempotency key "order-1" was first used with different arguments'),
    );
    assert.equal(runs.charge, before + 1);
  },
);

test(
  'without a key, or for a tool that is not keyed, nothing is deduplicated; the key reaches the tool as ctx.call.idempotencyKey',
  { skip: redisSkip, timeout: 30_000 },
  async () => {
    const onA = await legacyClient(serverA.url, 'alice');
    const before = runs.charge;
    assert.deepEqual(await call(onA, 'charge', { amount: 1 }), charged(1, before + 1));
    assert.deepEqual(await call(onA, 'charge', { amount: 1 }), charged(1, before + 2));
    const notes = runs.note;
    assert.deepEqual(await call(onA, 'note', {}, 'n-1'), {
      content: [{ type: 'text', text: `note ${notes + 1} with key n-1` }],
    });
    assert.deepEqual(await call(onA, 'note', {}, 'n-1'), {
      content: [{ type: 'text', text: `note ${notes + 2} with key n-1` }],
    });
    assert.deepEqual(await call(onA, 'note', {}), {
      content: [{ type: 'text', text: `note ${notes + 3} with key none` }],
    });
  },
);

test(
  "keys are kept per principal: another principal's same key is its own call",
  { skip: redisSkip, timeout: 30_000 },
  async () => {
    const alice = await legacyClient(serverA.url, 'alice');
    const bob = await modernClient(serverB.url, 'bob');
    const before = runs.charge;
    assert.deepEqual(await call(alice, 'charge', { amount: 7 }, 'shared-key'), charged(7, before + 1));
    assert.deepEqual(await call(bob, 'charge', { amount: 7 }, 'shared-key'), charged(7, before + 2));
    assert.deepEqual(await call(bob, 'charge', { amount: 7 }, 'shared-key'), charged(7, before + 2));
  },
);

test(
  'a malformed key is a -32602 protocol error naming the _meta key',
  { skip: redisSkip, timeout: 30_000 },
  async () => {
    const onA = await legacyClient(serverA.url, 'alice');
    const message = `MCP error -32602: tools/call: params._meta["${IDEMPOTENCY_KEY_META}"] must be a non-empty string of at most 256 characters`;
    await assert.rejects(
      onA.callTool({ name: 'charge', arguments: { amount: 1 }, _meta: { [IDEMPOTENCY_KEY_META]: '' } }),
      { message },
    );
    await assert.rejects(
      onA.callTool({ name: 'charge', arguments: { amount: 1 }, _meta: { [IDEMPOTENCY_KEY_META]: 'x'.repeat(257) } }),
      { message },
    );
    await assert.rejects(
      onA.callTool({ name: 'charge', arguments: { amount: 1 }, _meta: { [IDEMPOTENCY_KEY_META]: 42 } }),
      { message },
    );
  },
);

test(
  "a memory store deduplicates within its own process only (today's behaviour); no store, no deduplication",
  { skip: redisSkip, timeout: 30_000 },
  async () => {
    const serve = async (replay: ReplayStore | undefined) => {
      const handle = await serveHttp(INFO, TOOLS, replay === undefined ? {} : { replay });
      handles.push(handle);
      return legacyClient(handle.url, 'unused');
    };
    const one = await serve(new MemoryReplayStore());
    const two = await serve(new MemoryReplayStore());
    const none = await serve(undefined);
    const before = runs.charge;
    assert.deepEqual(await call(one, 'charge', { amount: 2 }, 'm-1'), charged(2, before + 1));
    assert.deepEqual(await call(one, 'charge', { amount: 2 }, 'm-1'), charged(2, before + 1));
    assert.deepEqual(
      await call(one, 'charge', { amount: 3 }, 'm-1'),
      refused('idempotency key "m-1" was first used with different arguments'),
    );
    assert.deepEqual(
      await call(two, 'charge', { amount: 2 }, 'm-1'),
      charged(2, before + 2),
      "another process's memory store does not know the key",
    );
    assert.deepEqual(await call(none, 'charge', { amount: 2 }, 'm-1'), charged(2, before + 3));
    assert.deepEqual(await call(none, 'charge', { amount: 2 }, 'm-1'), charged(2, before + 4));
  },
);

test(
  "toolwright's consumer sends the call's key: an Executor host retrying with the first key on another process gets the first outcome",
  { skip: redisSkip, timeout: 30_000 },
  async () => {
    const viaA = await connectTools(await modernClient(serverA.url, 'carol'), { policy: false });
    const viaB = await connectTools((await legacyClient(serverB.url, 'carol')) as unknown as McpClientLike, {
      policy: false,
    });
    const before = runs.charge;
    const [firstRun] = await new Executor({ tools: viaA, replayStore: null }).run([
      { id: 'c1', tool: 'charge', args: { amount: 9 }, idempotencyKey: 'exec-1' },
    ]);
    assert.deepEqual(firstRun!.ok && (firstRun.result as ToolResult).structuredContent, { amount: 9, run: before + 1 });
    // Another host process, another server process, the same key: the first outcome, no second run.
    const [retry] = await new Executor({ tools: viaB, replayStore: null }).run([
      { id: 'c1', tool: 'charge', args: { amount: 9 }, idempotencyKey: 'exec-1' },
    ]);
    assert.deepEqual(retry!.ok && (retry.result as ToolResult).structuredContent, { amount: 9, run: before + 1 });
    assert.equal(runs.charge, before + 1);
  },
);

test('the replay option is checked: a store needs begin and complete', async () => {
  await assert.rejects(serveHttp(INFO, TOOLS, { replay: {} as never }), {
    name: 'TypeError',
    message:
      'createServer: "replay" must be a replay store with "begin" and "complete" methods (a MemoryReplayStore, a RedisReplayStore), got an object',
  });
});

test(
  '2026-07-28 input rounds: a keyed call parked for an answer reads as running elsewhere; once answered, a retry anywhere gets its outcome',
  { skip: redisSkip, timeout: 30_000 },
  async () => {
    const one = await process(false);
    const two = await process(false);
    const caps = envelope({ elicitation: { form: {} } });
    const keyed = (id: number, extra: Record<string, unknown> = {}) => ({
      id,
      method: 'tools/call',
      params: { name: 'greet_once', arguments: {}, _meta: { [IDEMPOTENCY_KEY_META]: 'greet-1' }, ...extra },
    });
    const before = greetings;
    const parked = withoutServerInfo(resultOf(await modernPost(one.url, keyed(1), caps)));
    assert.equal(parked.resultType, 'input_required');
    assert.deepEqual(withoutServerInfo(resultOf(await modernPost(two.url, keyed(2), caps))), {
      ...refused('idempotency key "greet-1" is in use by a call that is still running'),
      resultType: 'complete',
    });
    const answered = withoutServerInfo(
      resultOf(
        await modernPost(
          one.url,
          keyed(3, {
            requestState: parked.requestState,
            inputResponses: { elicit_1: { action: 'accept', content: { name: 'Ada' } } },
          }),
          caps,
        ),
      ),
    );
    assert.deepEqual(answered, {
      content: [{ type: 'text', text: `hello Ada (greeting ${before + 1})` }],
      resultType: 'complete',
    });
    // The outcome is recorded when the tool settles, just after it answered: ask until it is there.
    let retry = withoutServerInfo(resultOf(await modernPost(two.url, keyed(4), caps)));
    for (let attempt = 0; attempt < 50 && retry.isError === true; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      retry = withoutServerInfo(resultOf(await modernPost(two.url, keyed(5 + attempt), caps)));
    }
    assert.deepEqual(retry, answered);
    assert.equal(greetings, before + 1);
  },
);

test(
  'through a toolwright proxy (consumed tools served again) the key passes on to the server that deduplicates',
  { skip: redisSkip, timeout: 30_000 },
  async () => {
    const upstream = await process(false);
    const consumed = await connectTools(await modernClient(upstream.url, 'unused'), { policy: false });
    const proxy = await serveHttp({ name: 'proxy', version: '1.0.0' }, consumed);
    handles.push(proxy);
    const viaProxy = await legacyClient(proxy.url, 'unused');
    const before = runs.charge;
    assert.deepEqual(await call(viaProxy, 'charge', { amount: 8 }, 'proxied-1'), charged(8, before + 1));
    assert.deepEqual(await call(viaProxy, 'charge', { amount: 8 }, 'proxied-1'), charged(8, before + 1));
    assert.equal(runs.charge, before + 1);
  },
);

test('a keyed call is answered only once its outcome is recorded: a retry right after the answer is replayed, never "still running"', async () => {
  // A store that takes 200 ms to record, as a slow or distant Redis.
  const memory = new MemoryReplayStore();
  const slow: ReplayStore = {
    begin: (claim) => memory.begin(claim),
    complete: async (key, outcome, owner) => {
      await new Promise((resolve) => setTimeout(resolve, 200));
      memory.complete(key, outcome, owner);
    },
  };
  const handle = await serveHttp(INFO, TOOLS, { replay: slow });
  handles.push(handle);
  const client = new Client({ name: 'legacy', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(handle.url)));
  closers.push(() => client.close());
  const before = runs.charge;
  const first = await call(client, 'charge', { amount: 7 }, 'slow-record-1');
  assert.deepEqual(first, charged(7, before + 1));
  assert.deepEqual(await call(client, 'charge', { amount: 7 }, 'slow-record-1'), charged(7, before + 1));
  assert.equal(runs.charge, before + 1);
});

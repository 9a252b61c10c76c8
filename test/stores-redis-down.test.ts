import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { text, type ContractTool } from '../src/index.js';
import { createPolicy } from '../src/runtime/index.js';
import { IDEMPOTENCY_KEY_META, serveHttp, type HttpHandle } from '../src/mcp/index.js';
import { connectRedis, RedisDecisionStore, RedisReplayStore, type RedisConnection } from '../src/redis/index.js';
import { redisSkip, startRedisServer, type RedisServer } from './support/redis-server.js';
import { writeTool } from './support/stores-tools.js';

/*
 * Redis down, hung and restarted, under a served process that keeps its replay keys and its
 * remembered decisions there (a real redis-server, real HTTP on 127.0.0.1): a call that needs the
 * store fails at once (down) or after the command bound (hung) with an isError naming Redis,
 * never hanging; a call that needs no store is served as usual; once Redis is back, calls
 * succeed again without restarting the process.
 */

const COMMAND_TIMEOUT_MS = 300;
let redis: RedisServer | undefined;
let conn: RedisConnection | undefined;
let replay: RedisReplayStore | undefined;
let handle: HttpHandle | undefined;
let client: Client | undefined;
let charges = 0;

const chargeTool: ContractTool = {
  name: 'charge',
  description: 'Charges once per idempotency key',
  replay: 'keyed',
  parameters: {
    type: 'object',
    properties: { amount: { type: 'number' } },
    required: ['amount'],
    additionalProperties: false,
  },
  execute: async (args) => {
    charges += 1;
    return { content: [text(`charged ${(args as { amount: number }).amount}`)] };
  },
};

before(async () => {
  if (redisSkip !== undefined) return;
  redis = await startRedisServer();
  conn = await connectRedis({ url: redis.url, commandTimeoutMs: COMMAND_TIMEOUT_MS });
  replay = new RedisReplayStore(conn);
  const policy = createPolicy({
    decisionStore: new RedisDecisionStore(conn),
    decisionScope: 'server',
    rules: [{ effect: 'allow', capabilities: ['write'], path: '/public/**' }],
    ask: () => ({ decision: 'allow_always' }),
  });
  handle = await serveHttp({ name: 'shop', version: '1.0.0' }, [chargeTool, writeTool], { replay, policy });
  client = new Client({ name: 'user', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(handle.url)));
});

after(async () => {
  await client?.close();
  await handle?.close();
  replay?.close();
  await conn?.close();
  await redis?.stop();
});

const charge = (amount: number, key: string) =>
  client!.callTool({ name: 'charge', arguments: { amount }, _meta: { [IDEMPOTENCY_KEY_META]: key } });
/** A write's answer without its permission record (`_meta`). */
const write = async (path: string) => {
  const { _meta: _record, ...answer } = await client!.callTool({ name: 'write_file', arguments: { path } });
  return answer;
};
const failed = (message: string) => ({ content: [{ type: 'text', text: message }], isError: true });

/** Calls `attempt` until it answers without isError, at most 100 times 50 ms apart; resolves that answer. */
async function untilServed(attempt: () => Promise<unknown>): Promise<unknown> {
  let last: unknown;
  for (let tries = 0; tries < 100; tries += 1) {
    last = await attempt();
    if ((last as { isError?: boolean }).isError !== true) return last;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return last;
}

test(
  'Redis stopped: calls that need it fail at once naming Redis; calls that do not are served; after a restart calls succeed again',
  { skip: redisSkip, timeout: 60_000 },
  async () => {
    assert.deepEqual(await charge(1, 'before'), { content: [{ type: 'text', text: 'charged 1' }] });
    assert.deepEqual(await write('/tmp/a'), { content: [{ type: 'text', text: 'wrote /tmp/a' }] });
    // "offline" once the client saw the socket close, "Socket closed unexpectedly" when a command
    // raced the close: one fault, named with the URL and the store either way.
    const downTexts = ['The client is offline', 'Socket closed unexpectedly'].map(
      (reason) =>
        `Redis at ${redis!.url} cannot be reached: ${reason} (the shared store toolwright keeps replay and decisions in)`,
    );
    const failedDown = (result: unknown): void => {
      const text = (result as { content?: { text?: string }[] }).content?.[0]?.text ?? '';
      assert.deepEqual(result, failed(downTexts.includes(text) ? text : downTexts[0]!));
    };
    const before = charges;
    await redis!.down();
    try {
      failedDown(await charge(2, 'during'));
      failedDown(await write('/tmp/a'));
      assert.equal(charges, before, 'a keyed call whose claim failed never ran');
      // No key: no store needed. A rule decides: no store needed.
      assert.deepEqual(await client!.callTool({ name: 'charge', arguments: { amount: 3 } }), {
        content: [{ type: 'text', text: 'charged 3' }],
      });
      assert.deepEqual(await write('/public/x'), { content: [{ type: 'text', text: 'wrote /public/x' }] });
    } finally {
      await redis!.up();
    }
    // The restarted Redis kept its data (the append-only file): the key whose claim failed runs now,
    // once; the key that ran before Redis went away is replayed, never run again.
    assert.deepEqual(await untilServed(() => charge(2, 'during')), { content: [{ type: 'text', text: 'charged 2' }] });
    assert.deepEqual(await charge(2, 'during'), { content: [{ type: 'text', text: 'charged 2' }] });
    assert.deepEqual(await charge(1, 'before'), { content: [{ type: 'text', text: 'charged 1' }] });
    // The unkeyed charge of 3 while Redis was away, and "during" once.
    assert.equal(charges, before + 2);
    assert.deepEqual(await untilServed(() => write('/tmp/a')), { content: [{ type: 'text', text: 'wrote /tmp/a' }] });
  },
);

test(
  'Redis hung: calls that need it fail after the command bound naming Redis, never hanging; they succeed once it answers again',
  { skip: redisSkip, timeout: 60_000 },
  async () => {
    const hung = `Redis at ${redis!.url} did not answer within ${COMMAND_TIMEOUT_MS} ms (the shared store toolwright keeps replay and decisions in)`;
    redis!.pause();
    try {
      assert.deepEqual(await charge(4, 'hung'), failed(hung));
      assert.deepEqual(await write('/tmp/hung'), failed(hung));
    } finally {
      redis!.resume();
    }
    assert.deepEqual(await untilServed(() => charge(4, 'hung')), { content: [{ type: 'text', text: 'charged 4' }] });
    assert.deepEqual(await untilServed(() => write('/tmp/hung')), {
      content: [{ type: 'text', text: 'wrote /tmp/hung' }],
    });
  },
);

test(
  "restart(): the harness brings Redis back on the same URL, and the process's connection follows it",
  { skip: redisSkip, timeout: 60_000 },
  async () => {
    await redis!.restart();
    assert.deepEqual(await untilServed(() => charge(5, 'after-restart')), {
      content: [{ type: 'text', text: 'charged 5' }],
    });
    assert.deepEqual(await charge(5, 'after-restart'), { content: [{ type: 'text', text: 'charged 5' }] });
  },
);

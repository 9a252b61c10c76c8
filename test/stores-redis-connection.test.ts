import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connectRedis, redactedRedisUrl, RedisUnavailableError, type RedisConnection } from '../src/redis/index.js';
import { REPO_ROOT } from './support/cli-paths.js';
import { runProcess } from './support/run-process.js';
import { RECORD_RESOLVED_MODULES } from './support/module-loads.js';
import { redisSkip, startRedisServer, type RedisServer } from './support/redis-server.js';

/*
 * toolwright/redis's connection, against a real redis-server (test/support/redis-server.ts): it
 * answers, fails with a clear error naming Redis when Redis is down, refuses or hangs (never
 * waiting past its bound), comes back when Redis does, and is never loaded unless asked for.
 */

let redis: RedisServer | undefined;
let connection: RedisConnection | undefined;

before(async () => {
  if (redisSkip !== undefined) return;
  redis = await startRedisServer();
  connection = await connectRedis({ url: redis.url, commandTimeoutMs: 300 });
});

after(async () => {
  await connection?.close();
  await redis?.stop();
});

/** Sends PING until Redis answers, at most 100 times 50 ms apart; resolves the reply. */
async function pingUntilUp(conn: RedisConnection): Promise<unknown> {
  let last: unknown;
  for (let attempt = 0; attempt < 100; attempt += 1) {
    try {
      return await conn.command(['PING']);
    } catch (error) {
      last = error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw last;
}

test('connectRedis answers commands on a real redis-server', { skip: redisSkip }, async () => {
  assert.equal(await connection!.command(['PING']), 'PONG');
  assert.equal(await connection!.command(['SET', 'stores-connection-test', 'v']), 'OK');
  assert.equal(await connection!.command(['GET', 'stores-connection-test']), 'v');
  assert.equal(connection!.keyPrefix, 'toolwright:');
  assert.equal(connection!.where, redis!.url);
});

test(
  'Redis down: a command fails at once with RedisUnavailableError naming Redis; it answers again when Redis is back',
  { skip: redisSkip },
  async () => {
    await redis!.down();
    try {
      await assert.rejects(connection!.command(['PING']), (error: unknown) => {
        assert.ok(error instanceof RedisUnavailableError);
        assert.equal(error.code, 'redis-unavailable');
        // "offline" once the client saw the socket close, "Socket closed unexpectedly" when the
        // command raced the close: one fault, named with the URL and the store either way.
        assert.ok(
          [
            `Redis at ${redis!.url} cannot be reached: The client is offline (the shared store toolwright keeps replay and decisions in)`,
            `Redis at ${redis!.url} cannot be reached: Socket closed unexpectedly (the shared store toolwright keeps replay and decisions in)`,
          ].includes(error.message),
          error.message,
        );
        return true;
      });
    } finally {
      await redis!.up();
    }
    assert.equal(await pingUntilUp(connection!), 'PONG');
  },
);

test('Redis hung: a command fails after commandTimeoutMs with RedisUnavailableError', { skip: redisSkip }, async () => {
  redis!.pause();
  try {
    await assert.rejects(connection!.command(['PING']), {
      name: 'RedisUnavailableError',
      code: 'redis-unavailable',
      message: `Redis at ${redis!.url} did not answer within 300 ms (the shared store toolwright keeps replay and decisions in)`,
    });
  } finally {
    redis!.resume();
  }
  assert.equal(await pingUntilUp(connection!), 'PONG');
});

test(
  'connectRedis to a port where nothing listens rejects within connectTimeoutMs, naming Redis and the refusal',
  { skip: redisSkip },
  async () => {
    const spare = await startRedisServer();
    const url = spare.url;
    await spare.stop();
    await assert.rejects(connectRedis({ url, connectTimeoutMs: 300 }), (error: unknown) => {
      assert.ok(error instanceof RedisUnavailableError);
      assert.equal(
        error.message,
        `Redis at ${url} cannot be reached: no connection within 300 ms (connect ECONNREFUSED 127.0.0.1:${spare.port}) (the shared store toolwright keeps replay and decisions in)`,
      );
      return true;
    });
  },
);

test('a closed connection refuses commands; close is idempotent', { skip: redisSkip }, async () => {
  const conn = await connectRedis({ url: redis!.url });
  await conn.close();
  await conn.close();
  await assert.rejects(conn.command(['PING']), {
    name: 'RedisUnavailableError',
    message: `Redis at ${redis!.url} is not connected: the connection was closed (the shared store toolwright keeps replay and decisions in)`,
  });
});

test("a host's own client is used as it is and left open by close()", async () => {
  const sent: string[][] = [];
  let closed = false;
  const client = {
    sendCommand: async (args: string[]) => (sent.push(args), 'PONG'),
    close: async () => void (closed = true),
  };
  const conn = await connectRedis({ client, keyPrefix: 'app1:' });
  assert.equal(await conn.command(['PING']), 'PONG');
  await conn.close();
  // The check at connect asks the host's client too (INFO); nothing else is sent but the command.
  assert.deepEqual(sent, [['INFO', 'server'], ['INFO', 'persistence'], ['INFO', 'memory'], ['PING']]);
  assert.equal(closed, false);
  assert.equal(conn.keyPrefix, 'app1:');
  assert.equal(conn.where, "the host's client");
});

test('connectRedis refuses bad options with a TypeError naming the option', async () => {
  await assert.rejects(connectRedis({ url: 'http://x' }), {
    name: 'TypeError',
    message: 'connectRedis: "url" must be a redis:// or rediss:// URL, got "http://x"',
  });
  await assert.rejects(connectRedis({ url: 'http://user:secret@x' }), {
    name: 'TypeError',
    message: 'connectRedis: "url" must be a redis:// or rediss:// URL, got "http://x"',
  });
  await assert.rejects(connectRedis({ commandTimeoutMs: 0 }), {
    name: 'TypeError',
    message: 'connectRedis: "commandTimeoutMs" must be a positive whole number of milliseconds, got 0',
  });
  await assert.rejects(connectRedis({ connectTimeoutMs: 1.5 }), {
    name: 'TypeError',
    message: 'connectRedis: "connectTimeoutMs" must be a positive whole number of milliseconds, got 1.5',
  });
  await assert.rejects(connectRedis({ client: {} as never }), {
    name: 'TypeError',
    message:
      'connectRedis: "client" must have a sendCommand(args) method (a node-redis client, or an adapter for another client)',
  });
  await assert.rejects(connectRedis({ keyPrefix: 3 as never }), {
    name: 'TypeError',
    message: 'connectRedis: "keyPrefix" must be a string, got 3',
  });
  await assert.rejects(connectRedis({ host: 'x' } as never), {
    name: 'TypeError',
    message:
      'connectRedis: unknown option "host" (known options: url, client, connectTimeoutMs, commandTimeoutMs, keyPrefix, durability, log)',
  });
});

test('redactedRedisUrl drops the user name and password', () => {
  assert.equal(redactedRedisUrl('redis://user:secret@10.0.0.1:6380/2'), 'redis://10.0.0.1:6380/2');
  assert.equal(redactedRedisUrl('redis://:secret@h'), 'redis://h');
  assert.equal(redactedRedisUrl('redis://h:6379'), 'redis://h:6379');
});

test('importing toolwright, /runtime, /mcp and /redis never loads @redis/client; connectRedis does', async () => {
  const outcome = await runProcess(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `${RECORD_RESOLVED_MODULES}
    await import('toolwright');
    await import('toolwright/runtime');
    await import('toolwright/mcp');
    const { connectRedis } = await import('toolwright/redis');
    await new Promise((r) => setTimeout(r, 50));
    const redisClient = (list) => list.filter((u) => u.includes('/node_modules/@redis/')).length;
    const before = redisClient(seen);
    await connectRedis({ url: 'redis://127.0.0.1:1', connectTimeoutMs: 50 }).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 50));
    console.log(JSON.stringify({ before, after: redisClient(seen) > 0 }));
  `,
    ],
    { timeoutMs: 30_000, cwd: REPO_ROOT },
  );
  assert.equal(outcome.stderr, '');
  assert.deepEqual(JSON.parse(outcome.stdout), { before: 0, after: true });
});

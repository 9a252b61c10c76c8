import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connectRedis, redisRelayBus, RedisUnavailableError } from '../src/redis/index.js';
import { redisSkip, startRedisServer } from './support/redis-server.js';

/*
 * redisRelayBus on its own: its options, a node that nobody listens for, delivery to the node's
 * channel under the connection's key prefix, and a subscriber that cannot reach Redis. About 1 s.
 */

/** A connection whose commands are answered by `reply` (no Redis needed). */
async function fakeConnection(reply: (args: string[]) => unknown, keyPrefix?: string) {
  return connectRedis({
    client: { sendCommand: async (args: string[]) => reply(args) },
    durability: 'off',
    ...(keyPrefix !== undefined ? { keyPrefix } : {}),
  });
}

test('redisRelayBus: bad options are refused naming the option', async () => {
  const connection = await fakeConnection(() => 0);
  assert.throws(() => redisRelayBus(undefined as never), {
    name: 'TypeError',
    message: 'redisRelayBus: options must be an object, got nothing',
  });
  assert.throws(() => redisRelayBus({ connection: {} as never }), {
    name: 'TypeError',
    message: 'redisRelayBus: "connection" must be a RedisConnection (from connectRedis)',
  });
  assert.throws(() => redisRelayBus({ connection, url: 'http://x' }), {
    name: 'TypeError',
    message: 'redisRelayBus: "url" must be a redis:// or rediss:// URL, got "http://x"',
  });
  assert.throws(() => redisRelayBus({ connection, subscriber: {} as never }), {
    name: 'TypeError',
    message:
      'redisRelayBus: "subscriber" must have subscribe(channel, listener) and unsubscribe(channel) methods (a node-redis client)',
  });
});

test('redisRelayBus: send publishes on <keyPrefix>relay:<node> and says whether anyone listened', async () => {
  const sent: string[][] = [];
  let receivers = 1;
  const bus = redisRelayBus({ connection: await fakeConnection((args) => (sent.push(args), receivers), 'app:') });
  assert.equal(await bus.send('node-1', 'hello'), true);
  receivers = 0;
  assert.equal(await bus.send('node-2', 'lost'), false);
  assert.deepEqual(sent, [
    ['PUBLISH', 'app:relay:node-1', 'hello'],
    ['PUBLISH', 'app:relay:node-2', 'lost'],
  ]);
});

test('redisRelayBus: listening when Redis cannot be reached rejects with RedisUnavailableError', async () => {
  const bus = redisRelayBus({
    connection: await fakeConnection(() => 0),
    url: 'redis://127.0.0.1:1',
    connectTimeoutMs: 500,
  });
  await assert.rejects(
    bus.listen('node-1', () => undefined),
    (error: unknown) =>
      error instanceof RedisUnavailableError &&
      error.message.startsWith('Redis at redis://127.0.0.1:1 cannot be reached: '),
  );
  await bus.close();
});

test(
  'redisRelayBus over a real redis-server: a listener gets what is sent to its node, and nothing after it closes',
  { skip: redisSkip },
  async () => {
    const redis = await startRedisServer();
    const connection = await connectRedis({ url: redis.url });
    const bus = redisRelayBus({ connection, url: redis.url });
    try {
      const got: string[] = [];
      const listener = await bus.listen('node-1', (message) => got.push(message));
      assert.equal(await bus.send('node-1', 'one'), true);
      assert.equal(await bus.send('node-2', 'nobody'), false);
      for (let i = 0; i < 100 && got.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      assert.deepEqual(got, ['one']);
      await listener.close();
      assert.equal(await bus.send('node-1', 'after'), false);
    } finally {
      await bus.close();
      await connection.close();
      await redis.stop();
    }
  },
);

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createCluster } from '@redis/client';
import { LostOutcomeError, type ReplayOutcome } from '../src/runtime/index.js';
import {
  connectRedis,
  RedisClusterUnsupportedError,
  RedisDecisionStore,
  RedisDurabilityError,
  RedisReplayStore,
  type RedisConnection,
} from '../src/redis/index.js';
import { redisSkip, startRedisServer, type RedisServer, type RedisServerOptions } from './support/redis-server.js';

/*
 * What toolwright's Redis stores check and detect, against real redis-server processes: the
 * persistence and eviction check at connect (refused, warned, a Redis that refuses INFO), a Redis
 * Cluster refused, the generation marker that finds a Redis that lost its data (keyed state from
 * before reads as lost, never as absent), the append-only file keeping everything across a
 * restart, scripts sent by EVALSHA with the EVAL fallback, every key a script touches declared,
 * and the bound on a stored outcome. Several small servers, each stopped by its test. About 4 s.
 */

const servers: RedisServer[] = [];
const connections: RedisConnection[] = [];

after(async () => {
  for (const connection of connections) await connection.close();
  for (const server of servers) await server.stop();
});

async function server(options: RedisServerOptions = {}): Promise<RedisServer> {
  const made = await startRedisServer(options);
  servers.push(made);
  return made;
}

async function connect(...args: Parameters<typeof connectRedis>): Promise<RedisConnection> {
  const made = await connectRedis(...args);
  connections.push(made);
  return made;
}

const OK: ReplayOutcome = { ok: true, result: { content: [{ type: 'text', text: 'charged 5' }] } };
const persistenceOff =
  'its persistence is off (appendonly no), so a restart loses every idempotency key and claim and keyed calls from before it could run again; start it with --appendonly yes (or CONFIG SET appendonly yes, then CONFIG REWRITE)';

test(
  'connectRedis refuses a Redis with persistence off, naming the problem and the ways out; warn connects and logs it once; off does not look',
  { skip: redisSkip },
  async () => {
    const redis = await server({ persistence: false });
    await assert.rejects(connectRedis({ url: redis.url }), (error: unknown) => {
      assert.ok(error instanceof RedisDurabilityError);
      assert.equal(error.code, 'redis-not-durable');
      assert.equal(
        error.message,
        `Redis at ${redis.url} cannot keep what toolwright's shared stores promise: ${persistenceOff}. Fix Redis, or pass durability: 'warn' to connectRedis to run anyway (see docs/cluster.md, "Redis")`,
      );
      assert.deepEqual(error.problems, [persistenceOff]);
      return true;
    });
    const logged: string[] = [];
    const warned = await connect({ url: redis.url, durability: 'warn', log: (line) => logged.push(line) });
    assert.deepEqual(logged, [
      `Redis at ${redis.url} can lose what toolwright's shared stores keep: ${persistenceOff}. Running anyway (durability: 'warn'); a restart that loses its data is still detected while a toolwright process stays connected (see docs/cluster.md, "Redis")`,
    ]);
    assert.deepEqual(warned.durability, {
      mode: 'standalone',
      appendOnly: false,
      maxmemoryPolicy: 'noeviction',
      maxmemory: 0,
      problems: [persistenceOff],
      unknown: undefined,
    });
    const silent: string[] = [];
    const unchecked = await connect({ url: redis.url, durability: 'off', log: (line) => silent.push(line) });
    assert.equal(unchecked.durability, undefined);
    assert.deepEqual(silent, []);
  },
);

test(
  'an evicting maxmemory-policy is refused once maxmemory is set; without maxmemory nothing is evicted, and it is accepted',
  { skip: redisSkip },
  async () => {
    const evicting = await server({ args: ['--maxmemory', '100mb', '--maxmemory-policy', 'allkeys-lru'] });
    await assert.rejects(connectRedis({ url: evicting.url }), {
      name: 'RedisDurabilityError',
      message: `Redis at ${evicting.url} cannot keep what toolwright's shared stores promise: its maxmemory-policy is allkeys-lru with maxmemory 104857600, so it may evict idempotency keys and claims once full; set maxmemory-policy noeviction. Fix Redis, or pass durability: 'warn' to connectRedis to run anyway (see docs/cluster.md, "Redis")`,
    });
    const unbounded = await server({ args: ['--maxmemory-policy', 'volatile-lru'] });
    const logged: string[] = [];
    const connection = await connect({ url: unbounded.url, log: (line) => logged.push(line) });
    assert.deepEqual([connection.durability?.problems, logged], [[], []]);
  },
);

test(
  'a Redis that refuses INFO (an ACL without @dangerous, as managed services) is connected to with a warning; the generation marker still works',
  { skip: redisSkip },
  async () => {
    const redis = await server({ args: ['--user', 'app', 'on', '>secret', '~*', '&*', '+@all', '-@dangerous'] });
    const url = `redis://app:secret@127.0.0.1:${redis.port}`;
    const logged: string[] = [];
    const connection = await connect({ url, log: (line) => logged.push(line) });
    assert.equal(logged.length, 1);
    assert.match(
      logged[0]!,
      new RegExp(
        `^Redis at redis://127\\.0\\.0\\.1:${redis.port} could not be checked for persistence and eviction: it refused INFO server \\(NOPERM .+\\)\\. Make sure it runs with appendonly yes and maxmemory-policy noeviction; a restart that loses its data is still detected while a toolwright process stays connected \\(see docs/cluster\\.md, "Redis"\\)$`,
      ),
    );
    const store = new RedisReplayStore(connection);
    assert.deepEqual(await store.begin({ key: 'k-acl', tool: 't', args: {} }), { status: 'new' });
    await store.complete('k-acl', OK);
    assert.deepEqual(await store.begin({ key: 'k-acl', tool: 't', args: {} }), { status: 'done', outcome: OK });
    assert.equal(typeof connection.generation.id, 'string');
  },
);

test(
  'Redis Cluster is refused: a server in cluster mode, and a node-redis cluster client',
  { skip: redisSkip },
  async () => {
    const clustered = await server({ args: ['--cluster-enabled', 'yes'] });
    const message = `Redis at ${clustered.url} is a Redis Cluster, which toolwright's stores do not support: use a single Redis (with replicas and Sentinel for failover); see docs/cluster.md, "Redis"`;
    await assert.rejects(connectRedis({ url: clustered.url }), (error: unknown) => {
      assert.ok(error instanceof RedisClusterUnsupportedError);
      assert.equal(error.code, 'redis-cluster-unsupported');
      assert.equal(error.message, message);
      return true;
    });
    const client = createCluster({ rootNodes: [{ url: clustered.url }] });
    await assert.rejects(connectRedis({ client: client as never }), {
      name: 'RedisClusterUnsupportedError',
      message: `connectRedis: "client" is a Redis Cluster, which toolwright's stores do not support: use a single Redis (with replicas and Sentinel for failover); see docs/cluster.md, "Redis"`,
    });
  },
);

/** What a retry of `key` gets from `store`. */
async function retry(store: RedisReplayStore, key: string, amount = 5) {
  return store.begin({ key, tool: 'charge', args: { amount } });
}

const lostText = (key: string) =>
  `the call that first used idempotency key ${JSON.stringify(key)} ended without an outcome (the process running it stopped or lost the shared store); whether it acted is unknown, so it is not run again`;

test(
  'a Redis restarted with persistence off is detected: keys from before read as lost (never new) in every process, until the loss is accepted',
  { skip: redisSkip },
  async () => {
    const redis = await server({ persistence: false });
    const logged: string[] = [];
    // Two "processes": each has its own connection and store.
    const one = await connect({ url: redis.url, durability: 'warn', log: (line) => logged.push(`one: ${line}`) });
    const two = await connect({ url: redis.url, durability: 'warn', log: (line) => logged.push(`two: ${line}`) });
    logged.length = 0;
    const a = new RedisReplayStore(one);
    const b = new RedisReplayStore(two);
    assert.deepEqual(await retry(a, 'k-before'), { status: 'new' });
    await a.complete('k-before', OK, undefined);
    assert.deepEqual(await retry(b, 'k-before'), { status: 'done', outcome: OK });
    const previous = one.generation.id;

    await redis.restart();
    // Both connections follow Redis back (it is empty now).
    for (const connection of [one, two])
      for (let attempt = 0; attempt < 100; attempt += 1) {
        if ((await connection.command(['PING']).catch(() => undefined)) === 'PONG') break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    assert.deepEqual(await one.command(['DBSIZE']), 0);

    // The key's outcome is gone with Redis's data: it reads as lost, never as new.
    const first = await retry(a, 'k-before');
    assert.equal(first.status, 'done');
    const error = (first as { outcome: { error: Error } }).outcome.error;
    assert.ok(error instanceof LostOutcomeError);
    assert.equal(error.message, lostText('k-before'));
    assert.notEqual(one.generation.id, previous);
    // The other process adopts the loss the first recorded, and answers the same.
    assert.equal(
      ((await retry(b, 'k-before')) as { outcome: { error: Error } }).outcome.error.message,
      lostText('k-before'),
    );
    assert.equal(two.generation.id, one.generation.id);
    // A key this Redis does not hold cannot be told from one it lost: it is lost too while the window lasts.
    assert.equal(
      ((await retry(b, 'k-fresh')) as { outcome: { error: Error } }).outcome.error.message,
      lostText('k-fresh'),
    );
    // Each process says once that it found the loss.
    assert.equal(logged.length, 2, logged.join('\n'));
    for (const [i, who] of ['one', 'two'].entries())
      assert.match(
        logged[i]!,
        new RegExp(
          `^${who}: Redis at redis://127\\.0\\.0\\.1:${redis.port} lost its data since this process last saw it \\(generation ${previous} is gone, now ${one.generation.id}, loss recorded at \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\): idempotency keys and claims from before are treated as unknown, never as absent \\(see docs/cluster\\.md, "Redis"\\)$`,
        ),
      );
    // Once someone who knows what ran accepts the loss, keys Redis does not hold are new again.
    assert.equal(await two.generation.acceptLoss(), true);
    assert.deepEqual(await retry(a, 'k-after'), { status: 'new' });
    assert.equal(await two.generation.acceptLoss(), false);
    a.close();
    b.close();
  },
);

test(
  'with the append-only file a restart loses nothing: the outcome, the generation, a remembered decision',
  { skip: redisSkip },
  async () => {
    const redis = await server();
    const connection = await connect({ url: redis.url });
    const store = new RedisReplayStore(connection);
    const decisions = new RedisDecisionStore(connection);
    const owner = { kind: 'principal', id: 'alice' } as const;
    assert.deepEqual(await retry(store, 'k-aof'), { status: 'new' });
    await store.complete('k-aof', OK);
    await decisions.remember(owner, 'write_file', '/tmp/a', ['write'], 'allow');
    const generation = connection.generation.id;
    await redis.restart();
    let answer: unknown;
    for (let attempt = 0; attempt < 100 && answer === undefined; attempt += 1)
      answer = await retry(store, 'k-aof').catch(
        () => new Promise((resolve) => setTimeout(() => resolve(undefined), 50)),
      );
    assert.deepEqual(answer, { status: 'done', outcome: OK });
    assert.equal(connection.generation.id, generation);
    assert.deepEqual(await decisions.decisionsOn(owner, 'write_file', '/tmp/a'), [
      { tool: 'write_file', subject: '/tmp/a', capability: 'write', effect: 'allow' },
    ]);
    store.close();
  },
);

/** The calls of `command` in Redis's command statistics (`INFO commandstats`). */
async function calls(connection: RedisConnection, command: string): Promise<number> {
  const info = String(await connection.command(['INFO', 'commandstats']));
  return Number(new RegExp(`^cmdstat_${command}:calls=(\\d+)`, 'm').exec(info)?.[1] ?? 0);
}

test(
  'scripts go by EVALSHA; EVAL only loads one Redis does not hold (first use, after SCRIPT FLUSH)',
  { skip: redisSkip },
  async () => {
    const redis = await server();
    const connection = await connect({ url: redis.url, durability: 'off' });
    const store = new RedisReplayStore(connection);
    for (let i = 0; i < 5; i++) {
      assert.deepEqual(await retry(store, `k-sha-${i}`), { status: 'new' });
      await store.complete(`k-sha-${i}`, OK);
    }
    // The generation's start, begin and complete were each loaded once, then sent by their SHA-1.
    assert.deepEqual([await calls(connection, 'eval'), await calls(connection, 'evalsha')], [3, 11]);
    await connection.command(['SCRIPT', 'FLUSH']);
    assert.deepEqual(await retry(store, 'k-sha-0'), { status: 'done', outcome: OK });
    assert.deepEqual([await calls(connection, 'eval'), await calls(connection, 'evalsha')], [4, 12]);
    store.close();
  },
);

test(
  'the decision store declares every key its scripts touch: list and revoke name each hash they read',
  { skip: redisSkip },
  async () => {
    const redis = await server();
    const real = await connect({ url: redis.url, durability: 'off' });
    const scripts: { keys: string[] }[] = [];
    const recording = await connect({
      client: {
        sendCommand: (args: string[]) => {
          if (args[0] === 'EVALSHA') scripts.push({ keys: args.slice(3, 3 + Number(args[2])) });
          return real.command(args);
        },
      },
      durability: 'off',
    });
    const store = new RedisDecisionStore(recording);
    const owner = { kind: 'principal', id: 'bob' } as const;
    await store.remember(owner, 'write_file', '/a', ['write'], 'allow');
    await store.remember(owner, 'read_file', '/b', ['read'], 'deny');
    scripts.length = 0;
    const before = new Set((await real.command(['KEYS', '*'])) as string[]);
    assert.deepEqual(
      (await store.list(owner)).map((d) => d.tool),
      ['write_file', 'read_file'],
    );
    assert.equal(await store.revoke(owner, { tool: 'read_file' }), 1);
    const index = 'toolwright:decisions:default:principal:bob';
    const hashOf = (tool: string, subject: string) => `${index}|${JSON.stringify([tool, subject])}`;
    assert.deepEqual(
      scripts.map((s) => [...s.keys].sort()),
      [
        [index, hashOf('read_file', '/b'), hashOf('write_file', '/a')].sort(),
        [index, hashOf('read_file', '/b')].sort(),
      ],
    );
    // Every declared key is one the store keeps (nothing was touched that a script did not name).
    for (const key of scripts.flatMap((s) => s.keys)) assert.ok(before.has(key), key);
  },
);

test(
  'an outcome over maxOutcomeBytes is not kept: a retry gets a failure saying so, and the call is not run again',
  { skip: redisSkip },
  async () => {
    const redis = await server();
    const connection = await connect({ url: redis.url });
    const store = new RedisReplayStore(connection, { maxOutcomeBytes: 1000 });
    assert.deepEqual(await retry(store, 'k-big'), { status: 'new' });
    await store.complete('k-big', { ok: true, result: { content: [{ type: 'text', text: 'x'.repeat(2000) }] } });
    const again = await retry(store, 'k-big');
    assert.equal(again.status, 'done');
    const error = (again as unknown as { outcome: { error: Error & { code: string } } }).outcome.error;
    assert.deepEqual(
      [error.name, error.code, error.message],
      [
        'OutcomeNotKeptError',
        'outcome-not-kept',
        'the first outcome of idempotency key "k-big" (2060 bytes) was larger than the replay store keeps (maxOutcomeBytes 1000); it is not kept, and the call is not run again',
      ],
    );
    const memory = Number(await connection.command(['MEMORY', 'USAGE', 'toolwright:replay:k-big']));
    assert.ok(memory < 1000, `a kept stand-in takes ${memory} bytes`);
    store.close();
  },
);

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnFixture } from './support/run-process.js';
import {
  MemorySchedulingStore,
  TurnLostError,
  type CallClaims,
  type HeldTurn,
  type SchedulingStore,
} from '../src/runtime/index.js';
import { connectRedis, RedisSchedulingStore, type RedisConnection } from '../src/redis/index.js';
import { intBetween, mulberry32 } from './support/prng.js';
import { redisSkip, startRedisServer, type RedisServer } from './support/redis-server.js';

/*
 * RedisSchedulingStore against a real redis-server: the same scheduling model as the in-process
 * store (the same calls, released in the same order, start in the same steps, in scripted and
 * seeded random schedules), across two connections as across two processes; a holder killed
 * (a real child process) is released when its lease ends; a holder cut off from Redis finds out
 * it lost its turn (signal, check) while the next holder gets a larger fencing token; a waiting
 * call is withdrawn by its signal; Redis away fails the turn; a Redis that lost its data grants
 * nothing for one lease. One redis-server for the file (a second, without persistence, for the
 * loss). About 8 s.
 */

let redis: RedisServer | undefined;
const connections: RedisConnection[] = [];

before(async () => {
  if (redisSkip === undefined) redis = await startRedisServer();
});

after(async () => {
  for (const connection of connections) await connection.close();
  await redis?.stop();
});

async function connection(url = redis!.url): Promise<RedisConnection> {
  const made = await connectRedis({ url, durability: 'warn', log: () => undefined });
  connections.push(made);
  return made;
}

const NONE: CallClaims = { exclusive: false, resource: '', kind: 'none' };
const BARRIER: CallClaims = { exclusive: true, resource: '', kind: 'barrier' };
const SEQUENTIAL: CallClaims = { exclusive: true, resource: '', kind: 'sequential' };
const resource = (key: string): CallClaims => ({ exclusive: false, resource: key, kind: 'resource' });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One call of a schedule: its claims, and the store (of several "processes") it enters through. */
interface Arrival {
  readonly claims: CallClaims;
  readonly via: number;
}

/**
 * Runs `arrivals` through `stores` (one per "process"), one arrival at a time (each is queued
 * before the next arrives), then releases the running call that arrived first until all ran,
 * and says which calls started after each step (`start` first: the calls that started at once).
 */
async function schedule(
  stores: readonly SchedulingStore[],
  arrivals: readonly Arrival[],
  scope: string,
  maxConcurrent: number,
  quietMs: number,
): Promise<number[][]> {
  const turns = new Map<number, HeldTurn>();
  const started: number[] = [];
  for (const [i, arrival] of arrivals.entries()) {
    let queued!: () => void;
    const placed = new Promise<void>((resolve) => (queued = resolve));
    const entered = stores[arrival.via]!.enter({
      scope,
      claims: arrival.claims,
      label: `c${i}`,
      maxConcurrent,
      onWait: () => queued(),
    });
    void Promise.resolve(entered).then((turn) => {
      turns.set(i, turn);
      started.push(i);
      queued();
    });
    await placed;
  }
  const steps: number[][] = [];
  let seen = 0;
  const settle = async (): Promise<number[]> => {
    // Until nothing new starts for `quietMs` (at most 100 rounds).
    let count = started.length;
    for (let round = 0; round < 100; round++) {
      await sleep(quietMs);
      if (started.length === count) break;
      count = started.length;
    }
    const fresh = started.slice(seen).sort((a, b) => a - b);
    seen = started.length;
    return fresh;
  };
  steps.push(await settle());
  const released = new Set<number>();
  for (let step = 0; step < arrivals.length * 2 && released.size < arrivals.length; step++) {
    // The running call that arrived first (by index, not by when this process heard that it started).
    const next = started.filter((i) => !released.has(i)).sort((a, b) => a - b)[0];
    assert.ok(next !== undefined, `nothing runs, yet ${arrivals.length - released.size} calls never started`);
    released.add(next);
    turns.get(next)!.release();
    steps.push(await settle());
  }
  return steps;
}

test(
  'the same model as in one process: scripted calls across two connections start in the same steps as with the memory store',
  { skip: redisSkip, timeout: 60_000 },
  async () => {
    const arrivals: Arrival[] = [
      { claims: resource('db'), via: 0 },
      { claims: resource('db'), via: 1 },
      { claims: NONE, via: 0 },
      { claims: resource('cache'), via: 1 },
      { claims: BARRIER, via: 0 },
      { claims: NONE, via: 1 },
      { claims: resource('db'), via: 1 },
      { claims: SEQUENTIAL, via: 0 },
      { claims: NONE, via: 0 },
    ];
    const memory = await schedule(
      [new MemorySchedulingStore(2)],
      arrivals.map((a) => ({ ...a, via: 0 })),
      'm',
      2,
      0,
    );
    const [one, two] = [await connection(), await connection()];
    const shared = [
      new RedisSchedulingStore(one, { leaseMs: 3000, pollMs: 10 }),
      new RedisSchedulingStore(two, { leaseMs: 3000, pollMs: 10 }),
    ];
    assert.deepEqual(await schedule(shared, arrivals, 'scripted', 2, 60), memory);
    assert.deepEqual(memory, [[0, 2], [1], [3], [], [4], [5, 6], [], [7], [8], []]);
  },
);

test(
  'the same model as in one process: seeded random schedules (resources, barriers, slots) agree step by step',
  { skip: redisSkip, timeout: 120_000 },
  async () => {
    const [one, two] = [await connection(), await connection()];
    const shared = [
      new RedisSchedulingStore(one, { leaseMs: 3000, pollMs: 10 }),
      new RedisSchedulingStore(two, { leaseMs: 3000, pollMs: 10 }),
    ];
    for (const seed of [7, 11, 23]) {
      const random = mulberry32(seed);
      const kinds = [NONE, resource('a'), resource('b'), resource('a'), BARRIER, SEQUENTIAL];
      const arrivals = Array.from({ length: 7 }, () => ({
        claims: kinds[intBetween(random, 0, kinds.length - 1)]!,
        via: intBetween(random, 0, 1),
      }));
      const max = intBetween(random, 1, 3);
      const memory = await schedule(
        [new MemorySchedulingStore(max)],
        arrivals.map((a) => ({ ...a, via: 0 })),
        `m${seed}`,
        max,
        0,
      );
      assert.deepEqual(await schedule(shared, arrivals, `random-${seed}`, max, 60), memory, `seed ${seed}`);
    }
  },
);

test(
  'a holder killed (a real process, SIGKILL) is released when its lease ends, not before; the waiter gets a larger fencing token',
  { skip: redisSkip, timeout: 60_000 },
  async () => {
    const { child, exited, printed } = await spawnFixture(
      'sched-holder-fixture.js',
      [redis!.url, 'killed', '600'],
      'holding',
    );
    const held = /^holding (\d+)$/.exec(printed);
    assert.ok(held !== null, printed);
    const store = new RedisSchedulingStore(await connection(), { leaseMs: 600, pollMs: 20 });
    const waits: string[] = [];
    const waiting = store.enter({
      scope: 'killed',
      claims: resource('db'),
      label: 'next',
      maxConcurrent: 16,
      onWait: (text) => waits.push(text),
    });
    let started = false;
    void waiting.then(() => (started = true));
    await sleep(700);
    // The holder is alive and renewing: the waiter still waits, past one lease.
    assert.equal(started, false);
    assert.deepEqual(waits, ['waits for resource "db", held by "holder"']);
    const killedAt = Date.now();
    child.kill('SIGKILL');
    await exited;
    const turn = await waiting;
    const waited = Date.now() - killedAt;
    assert.ok(turn.fencingToken! > Number(held[1]), `fencing token ${turn.fencingToken} after ${held[1]}`);
    assert.ok(waited >= 300, `the turn came ${waited} ms after the kill, before the holder's lease could end`);
    turn.release();
  },
);

test(
  'a holder cut off from Redis finds out it lost its turn: its lost signal aborts, check() rejects; the next holder runs with a larger token',
  { skip: redisSkip, timeout: 60_000 },
  async () => {
    const real = await connection();
    let cut = false;
    const partitioned = await connectRedis({
      client: { sendCommand: (args: string[]) => (cut ? Promise.reject(new Error('cut off')) : real.command(args)) },
      durability: 'off',
    });
    const isolated = new RedisSchedulingStore(partitioned, { leaseMs: 400, pollMs: 20 });
    const other = new RedisSchedulingStore(await connection(), { leaseMs: 400, pollMs: 20 });
    const first = await isolated.enter({ scope: 'cut', claims: SEQUENTIAL, label: 'first', maxConcurrent: 4 });
    await first.check!();
    cut = true;
    const second = await other.enter({ scope: 'cut', claims: SEQUENTIAL, label: 'second', maxConcurrent: 4 });
    // By the time another holds the turn, the first's lease has ended: it knows without asking Redis.
    for (let i = 0; i < 100 && !first.lost!.aborted; i++) await sleep(20);
    assert.equal(first.lost!.aborted, true);
    const reason = first.lost!.reason as TurnLostError;
    assert.ok(reason instanceof TurnLostError);
    assert.equal(reason.code, 'turn-lost');
    assert.equal(
      reason.message,
      'the turn of tool "first" was lost (its lease of 400 ms lapsed before it was renewed), so another call may run now',
    );
    await assert.rejects(first.check!(), { name: 'TurnLostError' });
    assert.ok(second.fencingToken! > first.fencingToken!);
    await second.check!();
    second.release();
    first.release();
  },
);

test(
  'a waiting call is withdrawn by its signal at once (the calls behind it go on); Redis away fails the turn naming Redis',
  { skip: redisSkip, timeout: 60_000 },
  async () => {
    const store = new RedisSchedulingStore(await connection(), { leaseMs: 3000, pollMs: 50 });
    const holder = await store.enter({ scope: 'withdraw', claims: resource('r'), label: 'holder', maxConcurrent: 4 });
    const controller = new AbortController();
    const withdrawn = store.enter({
      scope: 'withdraw',
      claims: resource('r'),
      label: 'withdrawn',
      maxConcurrent: 4,
      signal: controller.signal,
    });
    const behind = store.enter({ scope: 'withdraw', claims: resource('r'), label: 'behind', maxConcurrent: 4 });
    await sleep(100);
    controller.abort(new Error('client cancelled'));
    await assert.rejects(withdrawn, { message: 'client cancelled' });
    holder.release();
    (await behind).release();

    const spare = await startRedisServer();
    const lonely = new RedisSchedulingStore(await connection(spare.url), { leaseMs: 3000 });
    await spare.down();
    try {
      await assert.rejects(lonely.enter({ scope: 's', claims: BARRIER, label: 'b', maxConcurrent: 1 }), {
        name: 'RedisUnavailableError',
        // The Redis client says "offline" once it saw the socket close, "Socket closed unexpectedly"
        // when the command raced the close: both are the same fault, named with the URL and the store.
        message: new RegExp(
          `^Redis at ${spare.url.replaceAll('.', '\\.')} cannot be reached: (The client is offline|Socket closed unexpectedly) \\(the shared store toolwright keeps replay and decisions in\\)$`,
        ),
      });
    } finally {
      await spare.stop();
    }
  },
);

test(
  'a Redis that lost its data grants nothing for one lease; a holder from before finds out its turn is gone',
  { skip: redisSkip, timeout: 60_000 },
  async () => {
    const volatile = await startRedisServer({ persistence: false });
    try {
      const store = new RedisSchedulingStore(await connection(volatile.url), { leaseMs: 600, pollMs: 20 });
      const before = await store.enter({ scope: 'loss', claims: resource('r'), label: 'before', maxConcurrent: 4 });
      await volatile.restart();
      let lostSeen = false;
      before.lost!.addEventListener('abort', () => (lostSeen = true));
      const askedAt = Date.now();
      const waits: string[] = [];
      let after: HeldTurn | undefined;
      for (let i = 0; i < 100 && after === undefined; i++) {
        after = await store
          .enter({
            scope: 'loss',
            claims: resource('r'),
            label: 'after',
            maxConcurrent: 4,
            onWait: (w) => waits.push(w),
          })
          .catch(() => sleep(50).then(() => undefined));
      }
      assert.ok(after !== undefined);
      assert.ok(Date.now() - askedAt >= 500, `granted ${Date.now() - askedAt} ms after the loss`);
      assert.deepEqual(waits, ['waits until the calls that held turns before Redis lost its data have stopped']);
      assert.equal(lostSeen, true);
      after.release();
      before.release();
    } finally {
      await volatile.stop();
    }
  },
);

test('RedisSchedulingStore refuses bad options naming the option', async () => {
  const conn = await connectRedis({ client: { sendCommand: async () => null }, durability: 'off' });
  assert.throws(() => new RedisSchedulingStore(conn, { leaseMs: 100 }), {
    name: 'TypeError',
    message: 'RedisSchedulingStore: "leaseMs" must be a whole number of milliseconds from 300, got 100',
  });
  assert.throws(() => new RedisSchedulingStore(conn, { leaseMs: 900, pollMs: 400 }), {
    name: 'TypeError',
    message:
      'RedisSchedulingStore: "pollMs" must be a whole number of milliseconds from 10 to a third of leaseMs (300), got 400',
  });
  assert.throws(() => new RedisSchedulingStore(conn, { namespace: 'a{b' }), {
    name: 'TypeError',
    message: 'RedisSchedulingStore: "namespace" must be a non-empty string without { or }, got "a{b"',
  });
  assert.throws(() => new RedisSchedulingStore(conn, { lease: 1 } as never), {
    name: 'TypeError',
    message: 'RedisSchedulingStore: unknown option "lease" (known options: namespace, leaseMs, pollMs)',
  });
  assert.throws(() => new RedisSchedulingStore({} as never), {
    name: 'TypeError',
    message: 'RedisSchedulingStore: the first argument must be a RedisConnection (see connectRedis)',
  });
});

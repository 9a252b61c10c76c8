import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnFixture } from './support/run-process.js';
import {
  Executor,
  IdempotencyConflictError,
  LostOutcomeError,
  MemoryReplayStore,
  type ReplayOutcome,
} from '../src/runtime/index.js';
import { text, type ContractTool } from '../src/index.js';
import { RawJsonData } from '../src/contract/internal.js';
import {
  connectRedis,
  RedisReplayStore,
  StoredFailure,
  outcomeFromJson,
  outcomeToJson,
  RedisBadReplyError,
  type RedisConnection,
} from '../src/redis/index.js';
import { PermissionDeniedError, ToolError } from '../src/index.js';
import { redisSkip, startRedisServer, type RedisServer } from './support/redis-server.js';

/*
 * RedisReplayStore against a real redis-server: atomic claims across connections (as across
 * processes), the first outcome for a retry, refusals, the lease of a claim whose process died
 * (a real child process, killed), outcome expiry, and the JSON form of outcomes.
 */

let redis: RedisServer | undefined;
let first: RedisConnection | undefined;
let second: RedisConnection | undefined;

before(async () => {
  if (redisSkip !== undefined) return;
  redis = await startRedisServer();
  first = await connectRedis({ url: redis.url });
  second = await connectRedis({ url: redis.url });
});

after(async () => {
  await first?.close();
  await second?.close();
  await redis?.stop();
});

const OK: ReplayOutcome = {
  ok: true,
  result: { content: [{ type: 'text', text: 'charged 5' }], structuredContent: { charged: 5 } },
};

test(
  'one process claims a key, another sees it running, then the first outcome; other arguments are refused',
  { skip: redisSkip },
  async () => {
    const a = new RedisReplayStore(first!);
    const b = new RedisReplayStore(second!);
    const claim = { key: 'k-basic', tool: 'charge', args: { amount: 5, currency: 'EUR' } };
    assert.deepEqual(await a.begin(claim), { status: 'new' });
    assert.equal(a.holding, 1);
    assert.deepEqual(await b.begin({ ...claim, args: { currency: 'EUR', amount: 5 } }), { status: 'running' });
    assert.deepEqual(await b.begin({ ...claim, args: { amount: 6, currency: 'EUR' } }), {
      status: 'different-arguments',
    });
    assert.deepEqual(await b.begin({ ...claim, tool: 'refund' }), { status: 'different-arguments' });
    await a.complete('k-basic', OK);
    assert.equal(a.holding, 0);
    assert.deepEqual(await b.begin(claim), { status: 'done', outcome: OK });
    assert.deepEqual(await a.begin(claim), { status: 'done', outcome: OK });
    // A second complete (or one for a key this process never claimed) changes nothing.
    await b.complete('k-basic', { ok: true, result: { content: [] } });
    assert.deepEqual(await b.begin(claim), { status: 'done', outcome: OK });
  },
);

test('keys of different owners never meet', { skip: redisSkip }, async () => {
  const store = new RedisReplayStore(first!);
  assert.deepEqual(await store.begin({ key: 'k-owner', tool: 't', args: {}, owner: 'alice' }), { status: 'new' });
  assert.deepEqual(await store.begin({ key: 'k-owner', tool: 't', args: {}, owner: 'bob' }), { status: 'new' });
  assert.deepEqual(await store.begin({ key: 'k-owner', tool: 't', args: {} }), { status: 'new' });
  await store.complete('k-owner', OK, 'alice');
  assert.deepEqual(await store.begin({ key: 'k-owner', tool: 't', args: {}, owner: 'alice' }), {
    status: 'done',
    outcome: OK,
  });
  assert.deepEqual(await store.begin({ key: 'k-owner', tool: 't', args: {}, owner: 'bob' }), { status: 'running' });
  store.close();
  const memory = new MemoryReplayStore();
  assert.deepEqual(memory.begin({ key: 'k', tool: 't', args: {}, owner: 'alice' }), { status: 'new' });
  assert.deepEqual(memory.begin({ key: 'k', tool: 't', args: {}, owner: 'bob' }), { status: 'new' });
  memory.complete('k', OK, 'alice');
  assert.deepEqual(memory.begin({ key: 'k', tool: 't', args: {}, owner: 'alice' }), { status: 'done', outcome: OK });
  assert.deepEqual(memory.begin({ key: 'k', tool: 't', args: {}, owner: 'bob' }), { status: 'running' });
});

test('claims made at once from two connections: exactly one of each pair is new', { skip: redisSkip }, async () => {
  const a = new RedisReplayStore(first!);
  const b = new RedisReplayStore(second!);
  const keys = Array.from({ length: 40 }, (_, i) => `k-race-${i}`);
  const answers = await Promise.all(
    keys.flatMap((key) => [
      a.begin({ key, tool: 't', args: { i: key } }),
      b.begin({ key, tool: 't', args: { i: key } }),
    ]),
  );
  const pairs = keys.map((_, i) => [answers[2 * i]!.status, answers[2 * i + 1]!.status].sort());
  assert.deepEqual(
    pairs,
    keys.map(() => ['new', 'running']),
  );
  a.close();
  b.close();
});

test(
  'a claim whose process was killed: running until its lease lapses, then a lost outcome, never a second run',
  { skip: redisSkip },
  async () => {
    const { child, exited, printed } = await spawnFixture(
      'stores-claim-fixture.js',
      [redis!.url, 'k-killed', '300'],
      'claiming',
    );
    assert.equal(printed, 'claimed new');
    const store = new RedisReplayStore(second!);
    const claim = { key: 'k-killed', tool: 'charge', args: { amount: 5 } };
    assert.deepEqual(await store.begin(claim), { status: 'running' });
    child.kill('SIGKILL');
    await exited;
    // The lease (300 ms) lapses some time after the kill: ask until it has, at most 200 times.
    let answer = await store.begin(claim);
    for (let attempt = 0; attempt < 200 && answer.status === 'running'; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      answer = await store.begin(claim);
    }
    assert.equal(answer.status, 'done');
    const outcome = (answer as { outcome: ReplayOutcome }).outcome;
    assert.equal(outcome.ok, false);
    const error = (outcome as { error: Error }).error;
    assert.ok(error instanceof LostOutcomeError);
    assert.equal(error.code, 'lost-outcome');
    assert.equal(
      error.message,
      'the call that first used idempotency key "k-killed" ended without an outcome (the process running it stopped or lost the shared store); whether it acted is unknown, so it is not run again',
    );
    // Every later retry gets the same answer; other arguments are still refused.
    assert.equal(((await store.begin(claim)) as { outcome: { error: Error } }).outcome.error.message, error.message);
    assert.deepEqual(await store.begin({ ...claim, args: { amount: 6 } }), { status: 'different-arguments' });
  },
);

test(
  'a live claim is renewed past its lease; a claim that stopped renewing is lost, and its late real outcome replaces the loss',
  { skip: redisSkip },
  async () => {
    const live = new RedisReplayStore(first!, { leaseMs: 60 });
    const other = new RedisReplayStore(second!, { leaseMs: 60 });
    assert.deepEqual(await live.begin({ key: 'k-live', tool: 't', args: {} }), { status: 'new' });
    // Ten leases long, renewed every 20 ms: still running.
    await new Promise((resolve) => setTimeout(resolve, 600));
    assert.deepEqual(await other.begin({ key: 'k-live', tool: 't', args: {} }), { status: 'running' });
    await live.complete('k-live', OK);
    assert.deepEqual(await other.begin({ key: 'k-live', tool: 't', args: {} }), { status: 'done', outcome: OK });

    // A connection that is cut off from Redis once its claim is made (every lease renewal fails),
    // as a partitioned process.
    let cut = false;
    const mute = await connectRedis({
      client: {
        sendCommand: (args: string[]) => (cut ? Promise.reject(new Error('cut off')) : first!.command(args)),
      },
      durability: 'off',
    });
    const cutOff = new RedisReplayStore(mute, { leaseMs: 60 });
    assert.deepEqual(await cutOff.begin({ key: 'k-cut', tool: 't', args: {} }), { status: 'new' });
    cut = true;
    let answer = await other.begin({ key: 'k-cut', tool: 't', args: {} });
    for (let attempt = 0; attempt < 200 && answer.status === 'running'; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      answer = await other.begin({ key: 'k-cut', tool: 't', args: {} });
    }
    assert.equal((answer as { outcome: { error: Error } }).outcome.error.name, 'LostOutcomeError');
    cut = false;
    await cutOff.complete('k-cut', OK);
    assert.deepEqual(await other.begin({ key: 'k-cut', tool: 't', args: {} }), { status: 'done', outcome: OK });
  },
);

test(
  'finished keys expire after ttlMs (Infinity: never); running keys hold at least twice the lease',
  { skip: redisSkip },
  async () => {
    const short = new RedisReplayStore(first!, { ttlMs: 5_000, leaseMs: 30_000 });
    await short.begin({ key: 'k-ttl', tool: 't', args: {} });
    const whileRunning = Number(await first!.command(['PTTL', 'toolwright:replay:k-ttl']));
    assert.ok(whileRunning > 30_000 && whileRunning <= 60_000, `PTTL while running: ${whileRunning}`);
    await short.complete('k-ttl', OK);
    const finished = Number(await first!.command(['PTTL', 'toolwright:replay:k-ttl']));
    assert.ok(finished > 0 && finished <= 5_000, `PTTL when finished: ${finished}`);
    const forever = new RedisReplayStore(first!, { ttlMs: Infinity });
    await forever.begin({ key: 'k-forever', tool: 't', args: {} });
    await forever.complete('k-forever', OK);
    assert.equal(await first!.command(['PTTL', 'toolwright:replay:k-forever']), -1);
    const defaults = new RedisReplayStore(first!);
    await defaults.begin({ key: 'k-default', tool: 't', args: {} });
    await defaults.complete('k-default', OK);
    const day = Number(await first!.command(['PTTL', 'toolwright:replay:k-default']));
    assert.ok(day > 86_000_000 && day <= 86_400_000, `PTTL by default: ${day}`);
  },
);

test(
  'Redis down: begin rejects with RedisUnavailableError naming Redis; it works again once Redis is back',
  { skip: redisSkip },
  async () => {
    const conn = await connectRedis({ url: redis!.url, commandTimeoutMs: 500 });
    const store = new RedisReplayStore(conn);
    try {
      await redis!.down();
      try {
        await assert.rejects(store.begin({ key: 'k-down', tool: 't', args: {} }), {
          name: 'RedisUnavailableError',
          // "offline", or "Socket closed unexpectedly" when the command raced the close: one fault.
          message: new RegExp(
            `^Redis at ${redis!.url.replaceAll('.', '\\.')} cannot be reached: (The client is offline|Socket closed unexpectedly) \\(the shared store toolwright keeps replay and decisions in\\)$`,
          ),
        });
      } finally {
        await redis!.up();
      }
      let answer: unknown;
      for (let attempt = 0; attempt < 100 && answer === undefined; attempt += 1) {
        answer = await store
          .begin({ key: 'k-down', tool: 't', args: {} })
          .catch(() => new Promise((resolve) => setTimeout(() => resolve(undefined), 50)));
      }
      assert.deepEqual(answer, { status: 'new' });
    } finally {
      store.close();
      await conn.close();
      // The restarted server is empty: the other tests' connections reconnect on their own.
      for (const conn of [first!, second!]) {
        for (let attempt = 0; attempt < 100; attempt += 1) {
          if ((await conn.command(['PING']).catch(() => undefined)) === 'PONG') break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
    }
  },
);

test(
  'Redis hung when a call ends: complete rejects naming Redis, and the outcome lands once Redis answers again',
  { skip: redisSkip },
  async () => {
    const conn = await connectRedis({ url: redis!.url, commandTimeoutMs: 200 });
    const store = new RedisReplayStore(conn, { leaseMs: 300 });
    try {
      assert.deepEqual(await store.begin({ key: 'k-late', tool: 't', args: {} }), { status: 'new' });
      redis!.pause();
      try {
        await assert.rejects(store.complete('k-late', OK), {
          name: 'RedisUnavailableError',
          message: `Redis at ${redis!.url} did not answer within 200 ms (the shared store toolwright keeps replay and decisions in)`,
        });
      } finally {
        redis!.resume();
      }
      const other = new RedisReplayStore(second!);
      let answer = await other.begin({ key: 'k-late', tool: 't', args: {} }).catch(() => undefined);
      for (
        let attempt = 0;
        attempt < 400 && (answer === undefined || answer.status !== 'done' || !answer.outcome.ok);
        attempt += 1
      ) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        answer = await other.begin({ key: 'k-late', tool: 't', args: {} }).catch(() => undefined);
      }
      assert.deepEqual(answer, { status: 'done', outcome: OK });
      // The other store can read the outcome a moment before this store has handled Redis's reply
      // to the write that put it there: wait (bounded) for this store to let go of the key.
      for (let attempt = 0; attempt < 200 && store.holding !== 0; attempt += 1)
        await new Promise((resolve) => setTimeout(resolve, 10));
      assert.equal(store.holding, 0);
    } finally {
      store.close();
      await conn.close();
    }
  },
);

test(
  'two Executor hosts sharing Redis: a keyed call runs once; the other host is refused while it runs and replayed after',
  { skip: redisSkip },
  async () => {
    let runs = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const pay: ContractTool = {
      name: 'pay',
      description: 'Pays once per key',
      replay: 'keyed',
      execute: async () => {
        runs += 1;
        await gate;
        return { content: [text('paid')] };
      },
    };
    const hostA = new Executor({ tools: [pay], replayStore: new RedisReplayStore(first!) });
    const hostB = new Executor({ tools: [pay], replayStore: new RedisReplayStore(second!) });
    const call = { id: 'p1', tool: 'pay', args: { to: 'bob' }, idempotencyKey: 'exec-pay-1' };
    const running = hostA.run([call]);
    for (let attempt = 0; attempt < 200 && runs === 0; attempt += 1)
      await new Promise((resolve) => setTimeout(resolve, 5));
    const [refusal] = await hostB.run([call]);
    assert.equal(refusal!.ok, false);
    assert.ok((refusal as { error: Error }).error instanceof IdempotencyConflictError);
    assert.equal(
      (refusal as { error: Error }).error.message,
      'idempotency key "exec-pay-1" is in use by a call that is still running',
    );
    release();
    const [ran] = await running;
    assert.deepEqual(
      [ran!.ok, ran!.replayed, ran!.ok && ran.result.content],
      [true, undefined, [{ type: 'text', text: 'paid' }]],
    );
    // The outcome was recorded before hostA returned it: a retry right after is replayed, never "still running".
    const replayed = (await hostB.run([call]))[0]!;
    assert.deepEqual(
      [replayed.ok, replayed.replayed, replayed.ok && replayed.result.content],
      [true, true, [{ type: 'text', text: 'paid' }]],
    );
    assert.equal(runs, 1);
  },
);

test('outcomes as JSON: what is kept exactly, and what is lost', () => {
  const result: ReplayOutcome = {
    ok: true,
    result: {
      content: [
        { type: 'text', text: 'a' },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      ],
      structuredContent: { n: 1 },
      isError: true,
      terminate: true,
      details: { kept: false },
      record: { ns: 'x', data: new RawJsonData('{"n":12345678901234567890}') },
    },
  };
  const back = outcomeFromJson(outcomeToJson(result), 'here');
  assert.deepEqual(back, {
    ok: true,
    result: {
      content: [
        { type: 'text', text: 'a' },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      ],
      structuredContent: { n: 1 },
      isError: true,
      terminate: true,
      record: { ns: 'x', data: new RawJsonData('{"n":12345678901234567890}') },
    },
  });
  const denied = new PermissionDeniedError([{ subject: '/x', capabilities: ['write'] }]);
  const failure = outcomeFromJson(
    outcomeToJson({
      ok: false,
      error: denied,
      record: { ns: 'toolwright:permissions', data: { decisions: [], grants: [] } },
    }),
    'here',
  ) as unknown as { ok: false; error: StoredFailure; record: unknown };
  assert.ok(failure.error instanceof StoredFailure);
  assert.deepEqual(
    { name: failure.error.name, code: failure.error.code, message: failure.error.message, record: failure.record },
    {
      name: 'PermissionDeniedError',
      code: 'permission-denied',
      message: denied.message,
      record: { ns: 'toolwright:permissions', data: { decisions: [], grants: [] } },
    },
  );
  const plain = outcomeFromJson(outcomeToJson({ ok: false, error: new TypeError('bad') }), 'here') as unknown as {
    error: StoredFailure;
  };
  assert.deepEqual([plain.error.name, plain.error.code, plain.error.message], ['TypeError', 'tool-failed', 'bad']);
  const coded = outcomeFromJson(
    outcomeToJson({ ok: false, error: new ToolError('over quota', { code: 'quota-exceeded' }) }),
    'here',
  ) as unknown as { error: StoredFailure };
  assert.deepEqual(
    [coded.error.name, coded.error.code, coded.error.message],
    ['ToolError', 'quota-exceeded', 'over quota'],
  );
  assert.throws(
    () => outcomeFromJson('nope', 'replay key "k"'),
    (error: unknown) =>
      error instanceof RedisBadReplyError &&
      error.message === 'replay key "k": the stored outcome is not JSON' &&
      error.code === 'redis-bad-reply',
  );
  assert.throws(() => outcomeFromJson('{"ok":1}', 'replay key "k"'), {
    message: 'replay key "k": the stored outcome is not one toolwright wrote',
  });
});

test('RedisReplayStore refuses bad options with a TypeError naming the option', () => {
  const conn = { command: async () => null, keyPrefix: '' } as unknown as RedisConnection;
  assert.throws(() => new RedisReplayStore(conn, { ttlMs: 0 }), {
    name: 'TypeError',
    message: 'RedisReplayStore: "ttlMs" must be a positive whole number of milliseconds or Infinity, got 0',
  });
  assert.throws(() => new RedisReplayStore(conn, { leaseMs: 5 }), {
    name: 'TypeError',
    message: 'RedisReplayStore: "leaseMs" must be a whole number of milliseconds from 30, got 5',
  });
  assert.throws(() => new RedisReplayStore(conn, { lease: 5 } as never), {
    name: 'TypeError',
    message: 'RedisReplayStore: unknown option "lease" (known options: ttlMs, leaseMs, maxOutcomeBytes)',
  });
  assert.throws(() => new RedisReplayStore({} as never), {
    name: 'TypeError',
    message: 'RedisReplayStore: the first argument must be a RedisConnection (see connectRedis)',
  });
});

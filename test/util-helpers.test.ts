import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorText } from '../src/util/describe.js';
import { pause, raceTimeout } from '../src/util/timeout.js';

test('errorText: the message, else the name, else String(); never a stack, never a throw', () => {
  class NamedError extends Error {
    override name = 'NamedError';
  }
  assert.equal(errorText(new Error('boom')), 'boom');
  assert.equal(errorText(new NamedError('')), 'NamedError');
  assert.equal(errorText(new Error('')), 'Error');
  assert.equal(errorText({ message: 'plain object', name: 'X' }), 'plain object');
  assert.equal(errorText({ message: '', name: '' }), 'Error');
  assert.equal(errorText('a string'), 'a string');
  assert.equal(errorText(42), '42');
  assert.equal(errorText(undefined), 'undefined');
  assert.equal(errorText(null), 'null');
  assert.equal(errorText(Object.create(null)), 'a thrown value that cannot be shown');
  assert.equal(
    errorText({
      toString() {
        throw new Error('no');
      },
    }),
    'a thrown value that cannot be shown',
  );
});

test('raceTimeout: the work wins when it settles first, as it settled', async () => {
  assert.equal(await raceTimeout(Promise.resolve('done'), 60_000, () => 'late'), 'done');
  await assert.rejects(
    raceTimeout(Promise.reject(new Error('failed')), 60_000, () => 'late'),
    { message: 'failed' },
  );
});

test("raceTimeout: past the delay, onTimeout's value resolves and its throw rejects; a late rejection is ignored", async () => {
  let rejectWork!: (error: Error) => void;
  const work = new Promise<string>((_, reject) => (rejectWork = reject));
  assert.equal(await raceTimeout(work, 1, () => 'timed out'), 'timed out');
  rejectWork(new Error('too late'));
  await assert.rejects(
    raceTimeout(new Promise(() => {}), 0, () => {
      throw new Error('no answer in time');
    }),
    { message: 'no answer in time' },
  );
  // A negative delay times out at the next timer turn.
  assert.equal(await raceTimeout(new Promise(() => {}), -5, () => 'at once'), 'at once');
  // Give an unhandled rejection of the late failure its chance to surface (it would fail the test).
  await new Promise((resolve) => setImmediate(resolve));
});

test('raceTimeout: Infinity never times out', async () => {
  let onTimeoutCalls = 0;
  let resolveWork!: (value: string) => void;
  const raced = raceTimeout(new Promise<string>((resolve) => (resolveWork = resolve)), Infinity, () => {
    onTimeoutCalls++;
    return 'timed out';
  });
  // A timer of the longest delay would fire at once (setTimeout's limit): none is set.
  await new Promise((resolve) => setTimeout(resolve, 5));
  resolveWork('answered');
  assert.equal(await raced, 'answered');
  assert.equal(onTimeoutCalls, 0);
});

test('pause: resolves when its time passes, at once when its signal aborts or had aborted, and never rejects', async () => {
  const order: string[] = [];
  await Promise.all([pause(1).then(() => order.push('timer')), Promise.resolve().then(() => order.push('now'))]);
  assert.deepEqual(order, ['now', 'timer']);
  const controller = new AbortController();
  const waiting = pause(60_000, controller.signal).then(() => 'woken');
  controller.abort(new Error('stop'));
  assert.equal(await waiting, 'woken');
  // Already aborted: resolved at once rather than after the hour.
  assert.equal(
    await raceTimeout(
      pause(3_600_000, controller.signal).then(() => 'at once'),
      5_000,
      () => 'waited',
    ),
    'at once',
  );
});

test('every public entry point refuses an unknown option with one error type and one message form', async () => {
  const { compile } = await import('../src/index.js');
  const { Executor, Scheduler, createPolicy } = await import('../src/runtime/index.js');
  const { testTools } = await import('../src/testing/index.js');
  const { connectRedis, redisRelayBus, RedisReplayStore, RedisDecisionStore } = await import('../src/redis/index.js');
  const connection = { command: async () => 'OK', keyPrefix: 'p:' } as never;
  const refusals: Array<[string, () => unknown]> = [
    ['compile()', () => compile([], { resolv: () => ({}) } as never)],
    ['Executor', () => new Executor({ maxParalel: 2 } as never)],
    ['Scheduler', () => new Scheduler({ maxConcurent: 2 } as never)],
    ['permissions', () => createPolicy({ asks: true } as never)],
    ['testTools', () => testTools([], { contexts: {} } as never)],
    ['redisRelayBus', () => redisRelayBus({ connection, subscribr: {} } as never)],
    ['RedisReplayStore', () => new RedisReplayStore(connection, { ttl: 1 } as never)],
    ['RedisDecisionStore', () => new RedisDecisionStore(connection, { ttl: 1 } as never)],
  ];
  for (const [where, refuse] of refusals) {
    let thrown: unknown;
    try {
      refuse();
    } catch (error) {
      thrown = error;
    }
    assert.ok(thrown instanceof TypeError, `${where} accepted an unknown option`);
    assert.equal((thrown as { code?: unknown }).code, 'invalid-option', where);
    assert.match(
      thrown.message,
      new RegExp(`^${where.replace(/[()]/g, '\\$&')}: unknown option "\\w+" \\(known options: `),
    );
  }
  await assert.rejects(connectRedis({ uri: 'redis://x' } as never), {
    name: 'TypeError',
    code: 'invalid-option',
    message:
      'connectRedis: unknown option "uri" (known options: url, client, connectTimeoutMs, commandTimeoutMs, keyPrefix, durability, log)',
  });
});

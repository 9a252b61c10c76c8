import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  Executor,
  CallTimeoutError,
  AmbiguousOutcomeError,
  isAmbiguous,
  type CallOutcome,
} from '../src/runtime/executor/index.js';
import { Timeout, defineTimeout, getClaims } from '../src/decorators/index.js';
import { DecoratorError } from '../src/contract/index.js';
import { deferred, makeTool, plain, settle } from './support/executor-tools.js';

test('a call past its tool timeoutMs completes with CallTimeoutError; its signal aborts; the late outcome is discarded', async () => {
  const release = deferred();
  const lateUpdateSent = deferred();
  const abortReasons: unknown[] = [];
  const deaf = makeTool('deaf', { timeoutMs: 20 }, async (_args, ctx) => {
    ctx.signal.addEventListener('abort', () => abortReasons.push(ctx.signal.reason));
    await release.promise;
    ctx.update('too late');
    lateUpdateSent.resolve();
    return 'late result';
  });
  const completions: CallOutcome[] = [];
  const updates: string[] = [];
  const outcomes = await new Executor({
    onComplete: (o) => completions.push(o),
    onUpdate: (_id, out) => updates.push(String(out)),
  }).run([{ id: 'a', tool: deaf, args: {} }]);
  assert.deepEqual(outcomes.map(plain), [
    { id: 'a', tool: 'deaf', started: true, ok: false, error: 'CallTimeoutError: tool "deaf" timed out after 20 ms' },
  ]);
  const error = (outcomes[0] as { error: Error }).error;
  assert.ok(error instanceof CallTimeoutError);
  assert.ok(error instanceof AmbiguousOutcomeError);
  assert.equal((error as CallTimeoutError).timeoutMs, 20);
  assert.equal(isAmbiguous(outcomes[0]!), true);
  assert.deepEqual(abortReasons, [error]);
  release.resolve();
  await lateUpdateSent.promise;
  await settle();
  assert.deepEqual(completions, [outcomes[0]], 'onComplete saw the timeout outcome, and only it');
  assert.deepEqual(updates, []);
});

test('the timeout decides even when the tool rejects on abort', async () => {
  const obedient = makeTool(
    'obedient',
    { timeoutMs: 15 },
    (_args, ctx) =>
      new Promise((_resolve, reject) =>
        ctx.signal.addEventListener('abort', () => reject(new Error('aborted by signal'))),
      ),
  );
  const outcomes = await new Executor().run([{ id: 'a', tool: obedient, args: {} }]);
  assert.deepEqual(outcomes.map(plain), [
    {
      id: 'a',
      tool: 'obedient',
      started: true,
      ok: false,
      error: 'CallTimeoutError: tool "obedient" timed out after 15 ms',
    },
  ]);
});

test('the executor default applies to tools without timeoutMs; a tool timeoutMs wins over it', async () => {
  const hang = (name: string, claims = {}) =>
    makeTool(
      name,
      claims,
      (_args, ctx) =>
        new Promise((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason))),
    );
  const quick = makeTool('quick');
  const outcomes = await new Executor({ timeoutMs: 25 }).run([
    { id: 'a', tool: hang('plain_hang'), args: {} },
    { id: 'b', tool: hang('own_limit', { timeoutMs: 10 }), args: {} },
    { id: 'c', tool: quick, args: {} },
  ]);
  assert.deepEqual(outcomes.map(plain), [
    {
      id: 'a',
      tool: 'plain_hang',
      started: true,
      ok: false,
      error: 'CallTimeoutError: tool "plain_hang" timed out after 25 ms',
    },
    {
      id: 'b',
      tool: 'own_limit',
      started: true,
      ok: false,
      error: 'CallTimeoutError: tool "own_limit" timed out after 10 ms',
    },
    { id: 'c', tool: 'quick', started: true, ok: true, result: { content: [{ type: 'text', text: 'quick' }] } },
  ]);
  const generous = await new Executor({ timeoutMs: 10 }).run([
    {
      id: 'a',
      tool: makeTool('patient', { timeoutMs: 60_000 }, async () => {
        await settle();
        return 'in time';
      }),
      args: {},
    },
  ]);
  assert.deepEqual(generous.map(plain), [
    { id: 'a', tool: 'patient', started: true, ok: true, result: { content: [{ type: 'text', text: 'in time' }] } },
  ]);
});

test('a tool with an invalid timeoutMs completes with an error and never runs', async () => {
  let runs = 0;
  const make = (timeoutMs: unknown) =>
    makeTool('bad_limit', { timeoutMs: timeoutMs as number }, async () => {
      runs += 1;
      return 'x';
    });
  const outcomes = await new Executor().run([
    { id: 'a', tool: make(0), args: {} },
    { id: 'b', tool: make(Number.NaN), args: {} },
    { id: 'c', tool: make('100'), args: {} },
  ]);
  assert.equal(runs, 0);
  assert.deepEqual(outcomes.map(plain), [
    {
      id: 'a',
      tool: 'bad_limit',
      started: false,
      ok: false,
      error:
        'Error: Executor: tool "bad_limit": timeoutMs: expected a positive number of milliseconds up to 2147483647, got 0',
    },
    {
      id: 'b',
      tool: 'bad_limit',
      started: false,
      ok: false,
      error:
        'Error: Executor: tool "bad_limit": timeoutMs: expected a positive number of milliseconds up to 2147483647, got NaN',
    },
    {
      id: 'c',
      tool: 'bad_limit',
      started: false,
      ok: false,
      error:
        'Error: Executor: tool "bad_limit": timeoutMs: expected a positive number of milliseconds up to 2147483647, got a string',
    },
  ]);
});

test('a timed-out call frees its chain: the next call of its resource starts', async () => {
  const never = deferred();
  const order: string[] = [];
  const stuck = makeTool('stuck', { resource: 'db:x', timeoutMs: 10 }, async () => {
    order.push('stuck started');
    await never.promise;
    return 'never';
  });
  const next = makeTool('next', { resource: 'db:x' }, async () => {
    order.push('next started');
    return 'next done';
  });
  const outcomes = await new Executor().run([
    { id: 'a', tool: stuck, args: {} },
    { id: 'b', tool: next, args: {} },
  ]);
  never.resolve();
  assert.deepEqual(order, ['stuck started', 'next started']);
  assert.deepEqual(outcomes.map(plain), [
    { id: 'a', tool: 'stuck', started: true, ok: false, error: 'CallTimeoutError: tool "stuck" timed out after 10 ms' },
    { id: 'b', tool: 'next', started: true, ok: true, result: { content: [{ type: 'text', text: 'next done' }] } },
  ]);
});

test('@Timeout(ms) records timeoutMs among the claims; defineTimeout is its plain twin', () => {
  @Timeout(1500)
  class SlowTool {}
  assert.deepEqual(getClaims(SlowTool), { timeoutMs: 1500 });

  class Twin {}
  defineTimeout(Twin, 250);
  assert.deepEqual(getClaims(Twin), { timeoutMs: 250 });
});

test('@Timeout refuses anything but a whole number of milliseconds from 1 to 2147483647, and non-class targets', () => {
  const expectation = (shown: string) => ({
    name: 'DecoratorError',
    message: `@Timeout() on class Limited: the limit must be a whole number of milliseconds from 1 to 2147483647, got ${shown}`,
  });
  class Limited {}
  assert.throws(() => Timeout(0)(Limited), expectation('0'));
  assert.throws(() => Timeout(-1)(Limited), expectation('-1'));
  assert.throws(() => Timeout(1.5)(Limited), expectation('1.5'));
  assert.throws(() => Timeout(2 ** 31)(Limited), expectation('2147483648'));
  assert.throws(() => Timeout(Number.POSITIVE_INFINITY)(Limited), expectation('Infinity'));
  assert.throws(() => Timeout('100' as unknown as number)(Limited), expectation('"100"'));
  assert.throws(() => Timeout(undefined as unknown as number)(Limited), expectation('undefined'));
  class Host {
    method(): void {}
  }
  assert.throws(
    () =>
      (Timeout(10) as unknown as (...args: unknown[]) => void)(
        Host.prototype,
        'method',
        Object.getOwnPropertyDescriptor(Host.prototype, 'method'),
      ),
    {
      name: 'DecoratorError',
      message: '@Timeout() decorates a class, but it was applied to member Host.method',
    },
  );
  const made = new DecoratorError('x');
  assert.ok(made instanceof TypeError);
  assert.deepEqual({ name: made.name, message: made.message }, { name: 'DecoratorError', message: 'x' });
});

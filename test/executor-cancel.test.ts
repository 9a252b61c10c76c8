import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Executor, CallCancelledError, type CallOutcome } from '../src/runtime/executor/index.js';
import { deferred, makeTool, plain, settle } from './support/executor-tools.js';

test('a batch cancelled before it runs completes every call as cancelled and runs no tool', async () => {
  let runs = 0;
  const t = makeTool('t', {}, async () => {
    runs += 1;
    return 'x';
  });
  const controller = new AbortController();
  controller.abort();
  const completed: string[] = [];
  const outcomes = await new Executor().run(
    [
      { id: 'a', tool: t, args: {} },
      { id: 'b', tool: 'unregistered', args: {}, idempotencyKey: 'k-1' },
    ],
    { signal: controller.signal, onComplete: (o) => completed.push(o.id) },
  );
  assert.equal(runs, 0);
  assert.deepEqual(completed, ['a', 'b']);
  assert.deepEqual(outcomes.map(plain), [
    { id: 'a', tool: 't', started: false, ok: false, error: 'CallCancelledError: cancelled before it started' },
    {
      id: 'b',
      tool: 'unregistered',
      started: false,
      ok: false,
      idempotencyKey: 'k-1',
      error: 'CallCancelledError: cancelled before it started',
    },
  ]);
  assert.ok((outcomes[0] as { error: Error }).error instanceof CallCancelledError);
});

test('cancelling a batch aborts running calls, completes waiting ones at once, and waits for the running ones', async () => {
  const release = deferred();
  const reasons: unknown[] = [];
  const stubborn = makeTool('stubborn', { resource: 'db:x' }, async (_args, ctx) => {
    ctx.signal.addEventListener('abort', () => reasons.push(ctx.signal.reason));
    await release.promise;
    return `finished after abort=${ctx.signal.aborted}`;
  });
  const obedient = makeTool(
    'obedient',
    {},
    (_args, ctx) =>
      new Promise((_resolve, reject) => {
        ctx.signal.addEventListener('abort', () => reject(new Error('stopped on request')));
      }),
  );
  let laterRuns = 0;
  const later = makeTool('later', { resource: 'db:x' }, async () => {
    laterRuns += 1;
    return 'never';
  });
  const controller = new AbortController();
  const completed: string[] = [];
  let resolved = false;
  const running = new Executor()
    .run(
      [
        { id: 's', tool: stubborn, args: {} },
        { id: 'o', tool: obedient, args: {} },
        { id: 'l', tool: later, args: {} },
      ],
      { signal: controller.signal, onComplete: (o) => completed.push(o.id) },
    )
    .then((outcomes) => {
      resolved = true;
      return outcomes;
    });
  await settle();
  const reason = new Error('user pressed stop');
  controller.abort(reason);
  await settle();
  assert.deepEqual(completed, ['l', 'o'], 'the waiting call completes at once, the obedient one when it stops');
  assert.equal(resolved, false, 'run waits for the stubborn running call');
  assert.deepEqual(reasons, [reason]);
  release.resolve();
  const outcomes = await running;
  assert.deepEqual(completed, ['l', 'o', 's']);
  assert.equal(laterRuns, 0);
  assert.deepEqual(outcomes.map(plain), [
    {
      id: 's',
      tool: 'stubborn',
      started: true,
      ok: true,
      result: { content: [{ type: 'text', text: 'finished after abort=true' }] },
    },
    { id: 'o', tool: 'obedient', started: true, ok: false, error: 'Error: stopped on request' },
    { id: 'l', tool: 'later', started: false, ok: false, error: 'CallCancelledError: cancelled before it started' },
  ]);
});

test('cancelling during a stage cancels every later stage, barrier included', async () => {
  const gate = deferred();
  const executed: string[] = [];
  const slow = makeTool('slow', {}, async (_args, ctx) => {
    executed.push(ctx.call.id);
    await gate.promise;
    return 'slow';
  });
  const barrier = makeTool('sync', { barrier: true }, async (_args, ctx) => {
    executed.push(ctx.call.id);
    return 'sync';
  });
  const controller = new AbortController();
  const running = new Executor().run(
    [
      { id: '1', tool: slow, args: {} },
      { id: '2', tool: barrier, args: {} },
      { id: '3', tool: slow, args: {} },
    ],
    { signal: controller.signal },
  );
  await settle();
  controller.abort();
  gate.resolve();
  const outcomes: CallOutcome[] = await running;
  assert.deepEqual(executed, ['1']);
  assert.deepEqual(outcomes.map(plain), [
    { id: '1', tool: 'slow', started: true, ok: true, result: { content: [{ type: 'text', text: 'slow' }] } },
    { id: '2', tool: 'sync', started: false, ok: false, error: 'CallCancelledError: cancelled before it started' },
    { id: '3', tool: 'slow', started: false, ok: false, error: 'CallCancelledError: cancelled before it started' },
  ]);
});

test('cancelling after the batch completed changes nothing', async () => {
  const t = makeTool('t');
  const controller = new AbortController();
  const outcomes = await new Executor().run([{ id: 'a', tool: t, args: {} }], { signal: controller.signal });
  controller.abort();
  await settle();
  assert.deepEqual(outcomes.map(plain), [
    { id: 'a', tool: 't', started: true, ok: true, result: { content: [{ type: 'text', text: 't' }] } },
  ]);
});

test('a signal first read after the batch was cancelled is already aborted with the reason, also through a copy of the context', async () => {
  const gate = deferred();
  const seen: unknown[] = [];
  const late = makeTool('late_reader', {}, async (_args, ctx) => {
    await gate.promise;
    const copy = { ...ctx };
    seen.push(ctx.signal.aborted, ctx.signal.reason, copy.signal === ctx.signal);
    return 'read';
  });
  const controller = new AbortController();
  const running = new Executor().run([{ id: 'a', tool: late, args: {} }], { signal: controller.signal });
  await settle();
  controller.abort('stop now');
  gate.resolve();
  await running;
  assert.deepEqual(seen, [true, 'stop now', true]);
});

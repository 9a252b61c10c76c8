import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  Scheduler,
  ScopedSchedulers,
  schedulingClaimsOf,
  type CallClaims,
  type Ticket,
} from '../src/runtime/scheduler/index.js';
import { admit } from '../src/runtime/scheduler/admit.js';
import { BARRIER_CLAIMS, NO_CLAIMS } from '../src/runtime/scheduler/claims.js';
import { makeTool } from './support/executor-tools.js';

/** Claims by name, as the tools of the contract would give them. */
const none: CallClaims = NO_CLAIMS;
const barrier: CallClaims = BARRIER_CLAIMS;
const sequential: CallClaims = { exclusive: true, resource: '', kind: 'sequential' };
const on = (resource: string): CallClaims => ({ exclusive: false, resource, kind: 'resource' });

/** A scheduler whose calls record when they start, by label. */
function recorder(maxConcurrent?: number): {
  scheduler: Scheduler;
  started: string[];
  submit(label: string, claims: CallClaims): Ticket;
} {
  const scheduler = new Scheduler(maxConcurrent === undefined ? {} : { maxConcurrent });
  const started: string[] = [];
  return {
    scheduler,
    started,
    submit: (label, claims) => scheduler.submit({ label, claims, start: () => started.push(label) }),
  };
}

test('schedulingClaimsOf reads a tool through the contract readers', () => {
  assert.deepEqual(schedulingClaimsOf(makeTool('plain')), { exclusive: false, resource: '', kind: 'none' });
  assert.deepEqual(schedulingClaimsOf(makeTool('db', { resource: 'db:main' })), {
    exclusive: false,
    resource: 'db:main',
    kind: 'resource',
  });
  assert.deepEqual(schedulingClaimsOf(makeTool('seq', { sequential: true, resource: 'db:main' })), {
    exclusive: true,
    resource: '',
    kind: 'sequential',
  });
  assert.deepEqual(schedulingClaimsOf(makeTool('sync', { barrier: true, sequential: true, resource: 'db:main' })), {
    exclusive: true,
    resource: '',
    kind: 'barrier',
  });
  assert.deepEqual(schedulingClaimsOf(makeTool('odd', { resource: 42 as unknown as string })), {
    exclusive: false,
    resource: '',
    kind: 'none',
  });
  assert.deepEqual(schedulingClaimsOf(undefined), { exclusive: false, resource: '', kind: 'none' });
});

test('calls that share nothing start at once, in arrival order', () => {
  const { scheduler, started, submit } = recorder();
  const tickets = ['a', 'b', 'c'].map((label) => submit(label, none));
  assert.deepEqual(started, ['a', 'b', 'c']);
  assert.deepEqual(
    tickets.map((t) => [t.status, t.waitingFor()]),
    [
      ['running', ''],
      ['running', ''],
      ['running', ''],
    ],
  );
  assert.equal(scheduler.running, 3);
});

test('calls on one resource never overlap and start in arrival order; other resources run beside them', () => {
  const { started, submit } = recorder();
  const a = submit('a', on('db'));
  const b = submit('b', on('db'));
  const c = submit('c', on('db'));
  const x = submit('x', on('cache'));
  assert.deepEqual(started, ['a', 'x']);
  assert.equal(b.waitingFor(), 'waits for resource "db", held by "a"');
  assert.equal(c.waitingFor(), 'waits for resource "db", behind "b"');
  a.release();
  assert.deepEqual(started, ['a', 'x', 'b']);
  assert.equal(c.waitingFor(), 'waits for resource "db", held by "b"');
  b.release();
  assert.deepEqual(started, ['a', 'x', 'b', 'c']);
  assert.deepEqual([a.status, b.status, c.status, x.status], ['released', 'released', 'running', 'running']);
});

test('a barrier waits for every earlier call, runs alone, and holds back every later call', () => {
  const { started, submit } = recorder();
  const a = submit('a', none);
  const b = submit('b', on('db'));
  const sync = submit('sync', barrier);
  const c = submit('c', none);
  const d = submit('d', on('other'));
  assert.deepEqual(started, ['a', 'b']);
  assert.equal(sync.waitingFor(), 'waits for 2 earlier calls to finish (a barrier runs alone)');
  assert.equal(c.waitingFor(), 'waits for the barrier "sync" to finish');
  a.release();
  assert.equal(sync.waitingFor(), 'waits for 1 earlier call to finish (a barrier runs alone)');
  assert.deepEqual(started, ['a', 'b']);
  b.release();
  assert.deepEqual(started, ['a', 'b', 'sync']);
  assert.equal(d.waitingFor(), 'waits for the barrier "sync" to finish');
  sync.release();
  assert.deepEqual(started, ['a', 'b', 'sync', 'c', 'd']);
});

test('online, a sequential tool runs alone, in arrival order, like a barrier', () => {
  const { started, submit } = recorder();
  const a = submit('a', none);
  const seq = submit('seq', sequential);
  const b = submit('b', none);
  assert.deepEqual(started, ['a']);
  assert.equal(seq.waitingFor(), 'waits for 1 earlier call to finish (a sequential tool runs alone)');
  assert.equal(b.waitingFor(), 'waits for the sequential tool "seq" to finish');
  a.release();
  assert.deepEqual(started, ['a', 'seq']);
  seq.release();
  assert.deepEqual(started, ['a', 'seq', 'b']);
  assert.equal(b.status, 'running');
});

test('at most maxConcurrent calls run; a freed slot goes to the earliest call the rules allow', () => {
  const { started, submit } = recorder(2);
  const a = submit('a', on('db'));
  const b = submit('b', none);
  const c = submit('c', on('db'));
  const d = submit('d', none);
  const e = submit('e', none);
  assert.deepEqual(started, ['a', 'b']);
  assert.equal(c.waitingFor(), 'waits for resource "db", held by "a"');
  assert.equal(d.waitingFor(), 'waits for a free slot (at most 2 calls run at once)');
  b.release();
  // c is held back by its resource, so the free slot goes to d, not to c.
  assert.deepEqual(started, ['a', 'b', 'd']);
  a.release();
  assert.deepEqual(started, ['a', 'b', 'd', 'c']);
  assert.equal(e.status, 'waiting');
  d.release();
  assert.deepEqual(started, ['a', 'b', 'd', 'c', 'e']);
});

test('a cancelled waiting call never starts and stops holding back the calls behind it', () => {
  const { scheduler, started, submit } = recorder();
  const a = submit('a', none);
  const sync = submit('sync', barrier);
  const b = submit('b', none);
  assert.equal(sync.cancel(), true);
  assert.equal(sync.status, 'cancelled');
  assert.deepEqual(started, ['a', 'b']);
  assert.equal(sync.cancel(), false);
  assert.equal(a.cancel(), false, 'a running call is not withdrawn');
  assert.equal(a.status, 'running');
  a.release();
  a.release();
  b.release();
  assert.deepEqual([scheduler.running, scheduler.queued], [0, 0]);
  assert.equal(sync.waitingFor(), '');
});

test('releasing a waiting call withdraws it', () => {
  const { started, submit } = recorder();
  const a = submit('a', on('db'));
  const b = submit('b', on('db'));
  submit('c', on('db'));
  b.release();
  assert.equal(b.status, 'cancelled');
  a.release();
  assert.deepEqual(started, ['a', 'c']);
});

test('cancelWaiting withdraws every waiting call at once without granting any of them', () => {
  const { scheduler, started, submit } = recorder();
  const a = submit('a', none);
  const sync = submit('sync', barrier);
  const b = submit('b', none);
  assert.equal(scheduler.cancelWaiting(), 2);
  assert.deepEqual(started, ['a']);
  assert.deepEqual([a.status, sync.status, b.status], ['running', 'cancelled', 'cancelled']);
  a.release();
  assert.deepEqual(started, ['a']);
});

test('a start that throws releases its call and the error reaches the submitter', () => {
  const scheduler = new Scheduler();
  const started: string[] = [];
  assert.throws(
    () =>
      scheduler.submit({
        label: 'bad',
        claims: on('db'),
        start: () => {
          throw new Error('start failed');
        },
      }),
    { message: 'start failed' },
  );
  scheduler.submit({ label: 'next', claims: on('db'), start: () => started.push('next') });
  assert.deepEqual(started, ['next']);
});

test('the scheduler says when it became idle', () => {
  let idle = 0;
  const scheduler = new Scheduler({ onIdle: () => (idle += 1) });
  const a = scheduler.submit({ label: 'a', claims: on('db'), start: () => {} });
  const b = scheduler.submit({ label: 'b', claims: on('db'), start: () => {} });
  a.release();
  assert.equal(idle, 0);
  b.release();
  assert.equal(idle, 1);
});

test('bad options are refused with the option named', () => {
  assert.throws(() => new Scheduler({ maxConcurrent: 0 }), {
    name: 'TypeError',
    message: 'Scheduler: "maxConcurrent" must be a positive integer or Infinity, got 0',
  });
  assert.throws(() => new Scheduler({ maxConcurrent: 2.5 }), {
    name: 'TypeError',
    message: 'Scheduler: "maxConcurrent" must be a positive integer or Infinity, got 2.5',
  });
  assert.throws(() => new Scheduler({ onIdle: 'no' as unknown as () => void }), {
    name: 'TypeError',
    message: 'Scheduler: "onIdle" must be a function, got a string',
  });
  assert.throws(() => new Scheduler(null as unknown as object), {
    name: 'TypeError',
    message: 'Scheduler: options must be an object, got null',
  });
  assert.throws(() => new ScopedSchedulers(-1), {
    name: 'TypeError',
    message: 'Scheduler: "maxConcurrent" must be a positive integer or Infinity, got -1',
  });
});

test('admit resolves with the running ticket, and reports a wait once with its reason', async () => {
  const scheduler = new Scheduler();
  const first = await admit(scheduler, { label: 'a', claims: on('db') });
  assert.equal(first.status, 'running');
  const waits: string[] = [];
  const second = admit(scheduler, {
    label: 'b',
    claims: on('db'),
    onWait: (ticket) => waits.push(ticket.waitingFor()),
  });
  assert.deepEqual(waits, ['waits for resource "db", held by "a"']);
  first.release();
  const ticket = await second;
  assert.deepEqual([ticket.label, ticket.status], ['b', 'running']);
  assert.deepEqual(waits, ['waits for resource "db", held by "a"']);
});

test('admit withdraws a waiting call whose signal aborts, and never queues an aborted one', async () => {
  const scheduler = new Scheduler();
  const holder = await admit(scheduler, { label: 'a', claims: barrier });
  const controller = new AbortController();
  const waiting = admit(scheduler, { label: 'b', claims: none, signal: controller.signal });
  const behind = admit(scheduler, { label: 'c', claims: none });
  controller.abort(new Error('client cancelled'));
  await assert.rejects(waiting, { message: 'client cancelled' });
  assert.equal(scheduler.queued, 1);
  holder.release();
  assert.equal((await behind).label, 'c');
  const waits: string[] = [];
  const aborted = AbortSignal.abort(new Error('too late'));
  await assert.rejects(
    admit(scheduler, { label: 'd', claims: barrier, signal: aborted, onWait: () => waits.push('d') }),
    { message: 'too late' },
  );
  assert.deepEqual(
    [scheduler.running, scheduler.queued, waits],
    [1, 0, []],
    'only c runs; d would have had to wait, so it was withdrawn at once',
  );
  const free = await admit(scheduler, { label: 'e', claims: none, signal: aborted });
  assert.deepEqual(
    [free.status, scheduler.running],
    ['running', 2],
    'e could start at once, so it starts and its work sees the aborted signal',
  );
});

test('admit ignores a throw from onWait', async () => {
  const scheduler = new Scheduler();
  const holder = await admit(scheduler, { label: 'a', claims: barrier });
  const next = admit(scheduler, {
    label: 'b',
    claims: none,
    onWait: () => {
      throw new Error('reporter broke');
    },
  });
  holder.release();
  assert.equal((await next).status, 'running');
});

test('scoped schedulers keep scopes apart and drop a scope once it is empty', async () => {
  const scopes = new ScopedSchedulers(4);
  const one = await admit(scopes.schedulerOf('session:1'), { label: 'a', claims: barrier });
  const other = await admit(scopes.schedulerOf('session:2'), { label: 'b', claims: barrier });
  assert.deepEqual([one.status, other.status, scopes.size], ['running', 'running', 2]);
  const queued = admit(scopes.schedulerOf('session:1'), { label: 'c', claims: none });
  one.release();
  (await queued).release();
  assert.equal(scopes.size, 1);
  other.release();
  assert.equal(scopes.size, 0);
  const holder = await admit(scopes.schedulerOf('session:3'), { label: 'h', claims: barrier });
  await assert.rejects(
    admit(scopes.schedulerOf('session:3'), { label: 'd', claims: none, signal: AbortSignal.abort(new Error('gone')) }),
    { message: 'gone' },
  );
  assert.equal(scopes.size, 1);
  holder.release();
  assert.equal(scopes.size, 0);
});

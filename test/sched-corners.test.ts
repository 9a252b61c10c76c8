import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { Scheduler, type Ticket } from '../src/runtime/scheduler/scheduler.js';
import { admit } from '../src/runtime/scheduler/admit.js';
import { Fifo } from '../src/runtime/scheduler/fifo.js';
import { ScopedSchedulers } from '../src/runtime/scheduler/scopes.js';
import { BARRIER_CLAIMS, NO_CLAIMS, type CallClaims } from '../src/runtime/scheduler/claims.js';

// Imports stop at the scheduler's own files (never the package root): each mutant runs this
// file in a fresh process, so it loads only what it tests.

/*
 * The online scheduler (`runtime/scheduler`) as its first full mutation run (`npm run
 * mutate:executor`) found it unpinned: the texts of `waitingFor`, a `start` that throws while the
 * scheduler grants waiting calls, re-entrant releases and submissions, `onIdle`, `admit`'s abort
 * listener, the Fifo's compaction and a scope's stale scheduler. See docs/mutation.md.
 */

const resource = (key: string): CallClaims => ({ exclusive: false, resource: key, kind: 'resource' });
const SEQUENTIAL: CallClaims = { exclusive: true, resource: '', kind: 'sequential' };

/** Submits a call that logs its start into `log` under `label`. */
function submit(scheduler: Scheduler, label: string, claims: CallClaims, log: string[], start?: () => void): Ticket {
  return scheduler.submit({ claims, label, start: start ?? (() => log.push(label)) });
}

test('Scheduler options must be an object', () => {
  assert.throws(() => new Scheduler(null as never), {
    name: 'TypeError',
    message: 'Scheduler: options must be an object, got null',
  });
  assert.throws(() => new Scheduler(2 as never), {
    name: 'TypeError',
    message: 'Scheduler: options must be an object, got a number',
  });
});

test('waitingFor: a free slot (singular and plural), a resource held (not "behind" an unrelated call), the count of earlier calls before an exclusive one', () => {
  const log: string[] = [];
  const one = new Scheduler({ maxConcurrent: 1 });
  submit(one, 'A', NO_CLAIMS, log);
  const onResource = submit(one, 'B', resource('r'), log);
  const plain = submit(one, 'C', NO_CLAIMS, log);
  assert.equal(onResource.waitingFor(), 'waits for a free slot (at most 1 call runs at once)');
  assert.equal(plain.waitingFor(), 'waits for a free slot (at most 1 call runs at once)');
  const later = submit(one, 'D', NO_CLAIMS, log);
  assert.equal(later.waitingFor(), 'waits for a free slot (at most 1 call runs at once)');

  const two = new Scheduler({ maxConcurrent: 2 });
  submit(two, 'H', resource('r'), log);
  submit(two, 'X', NO_CLAIMS, log);
  const unrelated = submit(two, 'U', NO_CLAIMS, log);
  const held = submit(two, 'R', resource('r'), log);
  assert.equal(unrelated.waitingFor(), 'waits for a free slot (at most 2 calls run at once)');
  assert.equal(held.waitingFor(), 'waits for resource "r", held by "H"');

  const open = new Scheduler();
  submit(open, 'P', NO_CLAIMS, log);
  submit(open, 'Q', NO_CLAIMS, log);
  const barrier = submit(open, 'E1', BARRIER_CLAIMS, log);
  const sequential = submit(open, 'E2', SEQUENTIAL, log);
  assert.equal(barrier.waitingFor(), 'waits for 2 earlier calls to finish (a barrier runs alone)');
  assert.equal(sequential.waitingFor(), 'waits for 3 earlier calls to finish (a sequential tool runs alone)');
});

test('a start that throws while waiting calls are granted releases that call, the others still start, and the first error reaches the releaser', () => {
  const log: string[] = [];
  const scheduler = new Scheduler({ maxConcurrent: 1 });
  const first = submit(scheduler, 'A', NO_CLAIMS, log);
  const b = submit(scheduler, 'B', NO_CLAIMS, log, () => {
    throw new Error('b failed');
  });
  const c = submit(scheduler, 'C', NO_CLAIMS, log, () => {
    throw new Error('c failed');
  });
  const d = submit(scheduler, 'D', NO_CLAIMS, log);
  assert.throws(() => first.release(), { message: 'b failed' });
  assert.deepEqual(
    [b.status, c.status, d.status, scheduler.running, scheduler.queued],
    ['released', 'released', 'running', 1, 0],
  );
  assert.deepEqual(log, ['A', 'D']);
});

test('a release inside a start that the scheduler granted frees a slot only after that start returned', () => {
  const log: string[] = [];
  const scheduler = new Scheduler({ maxConcurrent: 2 });
  const a = submit(scheduler, 'A', NO_CLAIMS, log);
  const b = submit(scheduler, 'B', NO_CLAIMS, log);
  submit(scheduler, 'C', NO_CLAIMS, log, () => {
    log.push('C');
    b.release();
    log.push('C released B');
  });
  submit(scheduler, 'D', NO_CLAIMS, log);
  a.release();
  assert.deepEqual(log, ['A', 'B', 'C', 'C released B', 'D']);
});

test('a call submitted inside a start that the scheduler granted starts after that start returned', () => {
  const log: string[] = [];
  const scheduler = new Scheduler();
  const holder = submit(scheduler, 'H', resource('r'), log);
  submit(scheduler, 'W', resource('r'), log, () => {
    log.push('W');
    submit(scheduler, 'N', NO_CLAIMS, log);
    log.push('W submitted N');
  });
  holder.release();
  assert.deepEqual(log, ['H', 'W', 'W submitted N', 'N']);
});

test('onIdle: not while a call still runs, even when the last waiting call is withdrawn', () => {
  const log: string[] = [];
  let idle = 0;
  const scheduler = new Scheduler({
    maxConcurrent: 1,
    onIdle: () => {
      idle += 1;
    },
  });
  const a = submit(scheduler, 'A', NO_CLAIMS, log);
  const b = submit(scheduler, 'B', NO_CLAIMS, log);
  assert.equal(b.cancel(), true);
  assert.equal(idle, 0);
  a.release();
  assert.equal(idle, 1);
});

test('onIdle: not when a granted call releases itself inside its start while others still wait', () => {
  const log: string[] = [];
  let idle = 0;
  const scheduler = new Scheduler({
    maxConcurrent: 1,
    onIdle: () => {
      idle += 1;
    },
  });
  const a = submit(scheduler, 'A', NO_CLAIMS, log);
  const b: Ticket = submit(scheduler, 'B', NO_CLAIMS, log, () => {
    log.push('B');
    b.release();
  });
  const c = submit(scheduler, 'C', NO_CLAIMS, log);
  a.release();
  assert.deepEqual([log, idle, b.status, c.status], [['A', 'B', 'C'], 0, 'released', 'running']);
  c.release();
  assert.equal(idle, 1);
});

test('admit leaves no abort listener behind: once the waiting call starts, and once its signal aborted', async () => {
  const scheduler = new Scheduler({ maxConcurrent: 1 });
  const first = await admit(scheduler, { claims: NO_CLAIMS, label: 'A' });
  const started = new AbortController();
  const second = admit(scheduler, { claims: NO_CLAIMS, label: 'B', signal: started.signal });
  assert.equal(getEventListeners(started.signal, 'abort').length, 1);
  first.release();
  const running = await second;
  assert.equal(running.status, 'running');
  assert.equal(getEventListeners(started.signal, 'abort').length, 0);
  const withdrawn = new AbortController();
  const third = admit(scheduler, { claims: NO_CLAIMS, label: 'C', signal: withdrawn.signal });
  withdrawn.abort(new Error('gone'));
  await assert.rejects(third, { message: 'gone' });
  assert.equal(getEventListeners(withdrawn.signal, 'abort').length, 0);
});

test('Fifo compacts its array once half of it is spent, and only then', () => {
  const fifo = new Fifo<number>();
  const inner = fifo as unknown as { items: number[]; head: number };
  for (let n = 1; n <= 4; n += 1) fifo.push(n);
  assert.equal(fifo.shift(), 1);
  assert.deepEqual([inner.items.length, inner.head, fifo.length, fifo.first()], [4, 1, 3, 2]);
  assert.equal(fifo.shift(), 2);
  assert.deepEqual([inner.items, inner.head, fifo.length], [[3, 4], 0, 2]);
  assert.equal(fifo.remove(4), 1);
  assert.deepEqual([fifo.shift(), fifo.shift(), fifo.length], [3, undefined, 0]);
});

test("ScopedSchedulers: an earlier scheduler of a key that becomes idle again never drops the key's current one", () => {
  const scopes = new ScopedSchedulers(2);
  const old = scopes.schedulerOf('k');
  const log: string[] = [];
  submit(old, 'A', NO_CLAIMS, log).release();
  assert.equal(scopes.size, 0);
  const current = scopes.schedulerOf('k');
  assert.notEqual(current, old);
  submit(current, 'B', NO_CLAIMS, log);
  assert.equal(old.cancelWaiting(), 0);
  assert.equal(scopes.size, 1);
  assert.equal(scopes.schedulerOf('k'), current);
});

test('claims that are exclusive and hold a resource are refused before anything is queued', () => {
  const scheduler = new Scheduler();
  const claims: CallClaims = { exclusive: true, resource: 'db', kind: 'sequential' };
  let started = 0;
  assert.throws(() => scheduler.submit({ claims, label: 'bad', start: () => void started++ }), {
    name: 'TypeError',
    message: 'scheduling claims cannot be exclusive and hold a resource ("db"): an exclusive call runs alone',
  });
  assert.deepEqual(
    { started, running: scheduler.running, queued: scheduler.queued },
    { started: 0, running: 0, queued: 0 },
  );
  // The scheduler is untouched: a call on that resource still starts at once.
  scheduler.submit({
    claims: { exclusive: false, resource: 'db', kind: 'resource' },
    label: 'good',
    start: () => void started++,
  });
  assert.equal(started, 1);
});

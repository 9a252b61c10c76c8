import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Scheduler, type CallClaims, type Submission, type Ticket } from '../src/runtime/scheduler/index.js';
import { NO_CLAIMS } from '../src/runtime/scheduler/claims.js';

/**
 * A seeded property test of the online scheduler: random interleavings of arrivals (plain,
 * resource, barrier and sequential calls), completions and withdrawals of waiting calls, checked
 * after every step against the rules written out here independently of the scheduler. Then the
 * same property is run against deliberately broken schedulers, which it must catch.
 * Set SCHED_PROPERTY_SEED to re-run with another seed.
 */

const SEED = Number(process.env.SCHED_PROPERTY_SEED ?? 0x5c4ed);
const RUNS = 400;

type Kind = 'none' | 'resource' | 'barrier' | 'sequential';
type Op =
  | { readonly type: 'submit'; readonly kind: Kind; readonly resource: number }
  | { readonly type: 'complete'; readonly pick: number }
  | { readonly type: 'cancel'; readonly pick: number };

/** What a scheduler under test must offer. */
interface SchedulerLike {
  submit(submission: Submission): Ticket;
}
type Factory = (maxConcurrent: number) => SchedulerLike;

function claimsFor(kind: Kind, resource: number): CallClaims {
  if (kind === 'barrier') return { exclusive: true, resource: '', kind };
  if (kind === 'sequential') return { exclusive: true, resource: '', kind };
  if (kind === 'resource') return { exclusive: false, resource: `r${resource}`, kind };
  return NO_CLAIMS;
}

/** How often the interesting cases happened, so a test can show the generator reaches them. */
interface Coverage {
  startedAfterWaiting: number;
  exclusiveStarts: number;
  cancelled: number;
}
const newCoverage = (): Coverage => ({ startedAfterWaiting: 0, exclusiveStarts: 0, cancelled: 0 });

interface Tracked {
  readonly index: number;
  readonly claims: CallClaims;
  state: 'waiting' | 'running' | 'ended' | 'cancelled';
  ticket: Ticket | undefined;
}

/** Thrown when the scheduler breaks a rule; the message names the rule. */
class Violation extends Error {}

function check(condition: boolean, message: string): void {
  if (!condition) throw new Violation(message);
}

/**
 * Runs `ops` against a scheduler from `factory` and throws a `Violation` on the first broken
 * rule. The rules, for `calls` in arrival order:
 * - safety: at most `limit` calls run; an exclusive call runs alone; two calls on one resource
 *   never run together; a call starts only while waiting (a withdrawn call never starts);
 * - order: a call starts only after every earlier call on its resource, every earlier exclusive
 *   call and (for an exclusive call) every earlier call has ended or been withdrawn; a free slot
 *   never goes to a later call while an earlier one the rules allow waits;
 * - progress: after every step, while fewer than `limit` calls run, no waiting call is one the
 *   rules allow; once every running call ended, nothing waits.
 */
function runOps(factory: Factory, limit: number, ops: readonly Op[], seen: Coverage = newCoverage()): void {
  const scheduler = factory(limit);
  const calls: Tracked[] = [];
  const running = (): Tracked[] => calls.filter((c) => c.state === 'running');
  const settled = (c: Tracked): boolean => c.state === 'ended' || c.state === 'cancelled';

  /** Whether the rules let `call` start now, leaving the limit aside. */
  const allowed = (call: Tracked): boolean => {
    const earlier = calls.slice(0, call.index);
    if (call.claims.exclusive) return earlier.every(settled) && running().length === 0;
    if (running().some((c) => c.claims.exclusive)) return false;
    if (earlier.some((c) => c.claims.exclusive && !settled(c))) return false;
    const r = call.claims.resource;
    return (
      r === '' ||
      !calls.some(
        (c) =>
          c !== call &&
          c.claims.resource === r &&
          (c.state === 'running' || (c.index < call.index && c.state === 'waiting')),
      )
    );
  };

  const onStart = (call: Tracked): void => {
    check(call.state === 'waiting', `call ${call.index} started while ${call.state}`);
    check(
      allowed(call),
      `call ${call.index} (${call.claims.kind}${call.claims.resource === '' ? '' : ` ${call.claims.resource}`}) started before the rules allowed it`,
    );
    const earlierAllowed = calls.find((c) => c.index < call.index && c.state === 'waiting' && allowed(c));
    check(
      earlierAllowed === undefined,
      `a slot went to call ${call.index} while earlier call ${earlierAllowed?.index} could start`,
    );
    if (call.ticket !== undefined) seen.startedAfterWaiting += 1;
    if (call.claims.exclusive) seen.exclusiveStarts += 1;
    call.state = 'running';
    const now = running();
    check(now.length <= limit, `${now.length} calls run at once, limit ${limit}`);
    check(
      !now.some((c) => c.claims.exclusive) || now.length === 1,
      `an exclusive call runs beside ${now.length - 1} other calls`,
    );
    const resources = now.map((c) => c.claims.resource).filter((r) => r !== '');
    check(
      new Set(resources).size === resources.length,
      `two calls on one resource run together: ${resources.join(', ')}`,
    );
  };

  const checkProgress = (): void => {
    for (const call of calls) {
      const expected = call.state === 'ended' ? 'released' : call.state;
      check(
        call.ticket?.status === expected,
        `call ${call.index} is ${call.state} but its ticket says ${call.ticket?.status}`,
      );
    }
    if (running().length >= limit) return;
    const stuck = calls.find((c) => c.state === 'waiting' && allowed(c));
    check(stuck === undefined, `call ${stuck?.index} waits though the rules allow it to start`);
  };

  for (const op of ops) {
    if (op.type === 'submit') {
      const call: Tracked = {
        index: calls.length,
        claims: claimsFor(op.kind, op.resource),
        state: 'waiting',
        ticket: undefined,
      };
      calls.push(call);
      call.ticket = scheduler.submit({ claims: call.claims, label: `call-${call.index}`, start: () => onStart(call) });
    } else if (op.type === 'complete') {
      const now = running();
      if (now.length === 0) continue;
      const call = now[op.pick % now.length]!;
      call.state = 'ended';
      call.ticket!.release();
    } else {
      const waiting = calls.filter((c) => c.state === 'waiting');
      if (waiting.length === 0) continue;
      const call = waiting[op.pick % waiting.length]!;
      call.state = 'cancelled';
      seen.cancelled += 1;
      check(call.ticket!.cancel(), `cancelling waiting call ${call.index} returned false`);
    }
    checkProgress();
  }
  for (let guard = 0; guard <= calls.length; guard += 1) {
    const next = running()[0];
    if (next === undefined) break;
    next.state = 'ended';
    next.ticket!.release();
    checkProgress();
  }
  const left = calls.filter((c) => c.state === 'waiting').map((c) => c.index);
  check(left.length === 0, `calls ${left.join(', ')} still wait with nothing running`);
}

const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      type: fc.constant('submit' as const),
      kind: fc.constantFrom<Kind>('none', 'resource', 'resource', 'barrier', 'sequential'),
      resource: fc.integer({ min: 0, max: 2 }),
    }),
  },
  { weight: 4, arbitrary: fc.record({ type: fc.constant('complete' as const), pick: fc.nat(20) }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('cancel' as const), pick: fc.nat(20) }) },
);
const limitArbitrary = fc.oneof(fc.integer({ min: 1, max: 4 }), fc.constant(Number.POSITIVE_INFINITY));
const scenarios = fc.tuple(limitArbitrary, fc.array(opArbitrary, { minLength: 1, maxLength: 40 }));

function property(factory: Factory, seen?: Coverage) {
  return fc.property(scenarios, ([limit, ops]) => runOps(factory, limit, ops, seen));
}

const real: Factory = (maxConcurrent) => new Scheduler({ maxConcurrent });

test(`the scheduler keeps every rule over ${RUNS} random interleavings (seed ${SEED})`, () => {
  const seen = newCoverage();
  fc.assert(property(real, seen), { seed: SEED, numRuns: RUNS });
  // The generator must reach waits, exclusive calls and withdrawals, or the property proves little.
  assert.ok(
    seen.startedAfterWaiting > 300 && seen.exclusiveStarts > 300 && seen.cancelled > 40,
    `coverage: ${JSON.stringify(seen)}`,
  );
});

test('the scheduler keeps every rule over long interleavings (up to 400 steps, 10 runs)', () => {
  const long = fc.tuple(limitArbitrary, fc.array(opArbitrary, { minLength: 200, maxLength: 400 }));
  fc.assert(
    fc.property(long, ([limit, ops]) => runOps(real, limit, ops)),
    { seed: SEED, numRuns: 10 },
  );
});

/** Runs the property against a broken scheduler and returns the rule it reported broken. */
function caught(factory: Factory): string {
  try {
    fc.assert(property(factory), { seed: SEED, numRuns: RUNS });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    assert.match(message, /^Property failed after \d+ tests/);
    const cause = error instanceof Error ? error.cause : undefined;
    assert.ok(cause instanceof Violation, `the failure is no broken rule: ${message}`);
    return cause.message;
  }
  throw new Error('the property passed against a broken scheduler');
}

/** A real scheduler fed claims changed by `change`: a scheduler that misreads claims. */
function misreading(change: (claims: CallClaims) => CallClaims): Factory {
  return (maxConcurrent) => {
    const inner = new Scheduler({ maxConcurrent });
    return { submit: (submission) => inner.submit({ ...submission, claims: change(submission.claims) }) };
  };
}

test('the property catches a scheduler that ignores resource keys', () => {
  assert.match(
    caught(misreading((c) => (c.kind === 'resource' ? NO_CLAIMS : c))),
    /started before the rules allowed it|two calls on one resource run together/,
  );
});

test('the property catches a scheduler that lets a barrier run beside other calls', () => {
  assert.match(
    caught(misreading((c) => (c.kind === 'barrier' ? NO_CLAIMS : c))),
    /started before the rules allowed it|an exclusive call runs beside/,
  );
});

test('the property catches a scheduler that runs everything one at a time', () => {
  assert.match(
    caught((limit) => new Scheduler({ maxConcurrent: Math.min(limit, 1) })),
    /waits though the rules allow it to start/,
  );
});

test('the property catches a scheduler whose withdrawn calls still start', () => {
  const ignoresCancel: Factory = (maxConcurrent) => {
    const inner = new Scheduler({ maxConcurrent });
    return {
      submit: (submission) => {
        const ticket = inner.submit(submission);
        return {
          get status() {
            return ticket.status;
          },
          label: ticket.label,
          waitingFor: () => ticket.waitingFor(),
          release: () => ticket.release(),
          cancel: () => ticket.status === 'waiting',
        };
      },
    };
  };
  assert.match(caught(ignoresCancel), /started while cancelled|ticket says waiting/);
});

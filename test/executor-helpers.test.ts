import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fingerprint } from '../src/runtime/executor/fingerprint.js';
import { LazyAbort } from '../src/runtime/executor/lazy-abort.js';
import { isAmbiguous, outcomeResult, terminationOf } from '../src/runtime/executor/outcome.js';
import {
  CallCancelledError,
  IdempotencyConflictError,
  InvalidBatchError,
  UnknownOutcomeError,
} from '../src/runtime/executor/errors.js';
import { batchClaims, planBatch } from '../src/runtime/executor/plan.js';
import { AmbiguousOutcomeError, CallTimeoutError } from '../src/runtime/call/errors.js';
import { BARRIER_CLAIMS, NO_CLAIMS, schedulingClaimsOf } from '../src/runtime/scheduler/claims.js';
import { ToolError, type ContractTool } from '../src/contract/index.js';
import type { CallOutcome } from '../src/runtime/executor/types.js';

// Imports stop at the executor, the scheduler's claims and the contract (never the package root):
// each mutant runs this file in a fresh process, so it loads only what it tests.

/*
 * The executor's helpers (`runtime/executor`) and the scheduler's claims as mutation testing
 * (`npm run mutate:executor`) found them unpinned. See docs/mutation.md.
 */

const tool = (extra: Partial<ContractTool> = {}): ContractTool =>
  ({ name: 't', description: 'd', execute: () => 'x', ...extra }) as ContractTool;

test('fingerprint: sorted keys, JSON numbers and strings, non-JSON values in angle brackets, toJSON followed, cycles refused', () => {
  assert.equal(fingerprint({ b: 1, a: [true, false, null], c: 'x' }), '{"a":[true,false,null],"b":1,"c":"x"}');
  assert.equal(fingerprint({ a: 1, b: 2 }), fingerprint({ b: 2, a: 1 }));
  assert.equal(
    fingerprint({ u: undefined, f: () => 1, s: Symbol('s'), n: Number.NaN, i: -Infinity }),
    '{"i":null,"n":null}',
  );
  assert.equal(fingerprint([undefined, () => 1, Symbol('s'), 2.5]), '[null,null,null,2.5]');
  assert.equal(fingerprint(undefined), '<undefined>');
  assert.equal(fingerprint(10n), '<bigint>');
  assert.equal(
    fingerprint(() => 1),
    '<function>',
  );
  assert.equal(fingerprint(null), 'null');
  assert.equal(fingerprint('a"b'), '"a\\"b"');
  assert.equal(fingerprint({ when: new Date(0) }), '{"when":"1970-01-01T00:00:00.000Z"}');
  assert.equal(fingerprint({ 'x"y': 1 }), '{"x\\"y":1}');
  const shared = { v: 1 };
  assert.equal(fingerprint([shared, shared]), '[{"v":1},{"v":1}]');
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  assert.throws(() => fingerprint({ a: cyclic }), {
    name: 'TypeError',
    message: 'cannot fingerprint the arguments: they contain a cycle',
  });
  assert.throws(() => fingerprint([[cyclic]]), {
    name: 'TypeError',
    message: 'cannot fingerprint the arguments: they contain a cycle',
  });
});

test('LazyAbort: no controller until the signal is read; a late read is already aborted with the first reason', () => {
  const early = new LazyAbort();
  const signal = early.signal;
  assert.equal(early.signal, signal);
  assert.deepEqual([early.aborted, signal.aborted], [false, false]);
  early.abort('first');
  early.abort('second');
  assert.deepEqual([early.aborted, signal.aborted, signal.reason], [true, true, 'first']);
  const late = new LazyAbort();
  late.abort('only');
  late.abort('ignored');
  assert.equal(late.aborted, true);
  assert.deepEqual([late.signal.aborted, late.signal.reason], [true, 'only']);
});

test("outcomeResult: a result as it is; a failure as its message, isError, a ToolError's details and the record it carries", () => {
  const base = { id: '1', tool: 't', started: true, endedAt: 0 };
  const ok = { ...base, ok: true, result: { content: [], terminate: true } } as CallOutcome;
  assert.equal(outcomeResult(ok), (ok as { result: unknown }).result);
  assert.deepEqual(
    outcomeResult({
      ...base,
      ok: false,
      error: new ToolError('no', { details: { code: 1 } }),
      record: { ns: 'r', data: 1 },
    } as CallOutcome),
    { content: [{ type: 'text', text: 'no' }], isError: true, details: { code: 1 }, record: { ns: 'r', data: 1 } },
  );
  assert.deepEqual(outcomeResult({ ...base, ok: false, error: new Error('plain') } as CallOutcome), {
    content: [{ type: 'text', text: 'plain' }],
    isError: true,
  });
  assert.deepEqual(outcomeResult({ ...base, ok: false, error: new ToolError('no details') } as CallOutcome), {
    content: [{ type: 'text', text: 'no details' }],
    isError: true,
  });
});

test('isAmbiguous and terminationOf', () => {
  const base = { id: '1', tool: 't', started: true, endedAt: 0 };
  const fail = (error: Error) => ({ ...base, ok: false, error }) as CallOutcome;
  const done = (terminate?: boolean) =>
    ({ ...base, ok: true, result: { content: [], ...(terminate === undefined ? {} : { terminate }) } }) as CallOutcome;
  assert.deepEqual(
    [
      isAmbiguous(fail(new AmbiguousOutcomeError('lost'))),
      isAmbiguous(fail(new CallTimeoutError('t', 1))),
      isAmbiguous(fail(new Error('x'))),
      isAmbiguous(done()),
    ],
    [true, true, false, false],
  );
  assert.equal(terminationOf([]), 'none');
  assert.equal(terminationOf([done(), done(false)]), 'none');
  assert.equal(terminationOf([done(true), done()]), 'partial');
  assert.equal(terminationOf([done(true), fail(new Error('x'))]), 'partial');
  assert.equal(terminationOf([done(true), done(true)]), 'all');
});

test("the executor's errors: names, codes and messages", () => {
  const cases: readonly [Error & { code: string }, string, string, string][] = [
    [new InvalidBatchError('duplicate id "1"'), 'InvalidBatchError', 'invalid-batch', 'duplicate id "1"'],
    [new CallCancelledError(), 'CallCancelledError', 'call-cancelled', 'cancelled before it started'],
    [
      new UnknownOutcomeError('c7', 'pay'),
      'UnknownOutcomeError',
      'unknown-outcome',
      'the outcome of call c7 (tool "pay") is unknown and the tool cannot be safely re-run',
    ],
    [
      new IdempotencyConflictError('k1', 'running'),
      'IdempotencyConflictError',
      'idempotency-conflict',
      'idempotency key "k1" is in use by a call that is still running',
    ],
    [
      new IdempotencyConflictError('k2', 'different-arguments'),
      'IdempotencyConflictError',
      'idempotency-conflict',
      'idempotency key "k2" was first used with different arguments',
    ],
  ];
  for (const [error, name, code, message] of cases)
    assert.deepEqual([error.name, error.code, error.message], [name, code, message]);
  const conflict = new IdempotencyConflictError('k3', 'running');
  assert.deepEqual([conflict.key, conflict.reason], ['k3', 'running']);
});

test('claims: a barrier wins over sequential and a resource; sequential is exclusive; a resource is held; nothing else claims', () => {
  assert.deepEqual(schedulingClaimsOf(undefined), { exclusive: false, resource: '', kind: 'none' });
  assert.deepEqual(schedulingClaimsOf(tool({ barrier: true, sequential: true, resource: 'db' } as never)), {
    exclusive: true,
    resource: '',
    kind: 'barrier',
  });
  assert.deepEqual(schedulingClaimsOf(tool({ sequential: true, resource: 'db' } as never)), {
    exclusive: true,
    resource: '',
    kind: 'sequential',
  });
  assert.deepEqual(schedulingClaimsOf(tool({ resource: 'db' } as never)), {
    exclusive: false,
    resource: 'db',
    kind: 'resource',
  });
  assert.deepEqual(schedulingClaimsOf(tool()), NO_CLAIMS);
  assert.deepEqual(BARRIER_CLAIMS, { exclusive: true, resource: '', kind: 'barrier' });
  assert.equal(Object.isFrozen(NO_CLAIMS), true);
});

test('batchClaims and planBatch: a sequential tool that is not a barrier makes the batch serial; the serial option too', () => {
  const plain = tool();
  const db = tool({ resource: 'db' } as never);
  const barrier = tool({ barrier: true, sequential: true } as never);
  const sequential = tool({ sequential: true } as never);
  const serialClaims = { exclusive: true, resource: '', kind: 'sequential' };
  assert.deepEqual(batchClaims([plain, db, barrier, undefined]), [
    NO_CLAIMS,
    { exclusive: false, resource: 'db', kind: 'resource' },
    BARRIER_CLAIMS,
    NO_CLAIMS,
  ]);
  assert.deepEqual(batchClaims([plain, sequential]), [serialClaims, serialClaims]);
  assert.deepEqual(batchClaims([plain, db], { serial: true }), [serialClaims, serialClaims]);
  assert.deepEqual(planBatch([plain, db, barrier, db, undefined, db]), {
    serial: false,
    stages: [[[0], [1]], [[2]], [[3, 5], [4]]],
  });
  assert.deepEqual(planBatch([barrier, barrier]), { serial: false, stages: [[[0]], [[1]]] });
  assert.deepEqual(planBatch([plain, sequential]), { serial: true, stages: [[[0, 1]]] });
  assert.deepEqual(planBatch([], { serial: true }), { serial: true, stages: [] });
  assert.deepEqual(planBatch([]), { serial: false, stages: [] });
});

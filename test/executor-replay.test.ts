import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  Executor,
  MemoryReplayStore,
  IdempotencyConflictError,
  UnknownOutcomeError,
  isAmbiguous,
  type BatchCall,
  type ReplayBegin,
  type ReplayClaim,
  type ReplayOutcome,
  type ReplayStore,
} from '../src/runtime/executor/index.js';
import { text, type ContractTool } from '../src/contract/index.js';
import { deferred, makeTool, plain, settle } from './support/executor-tools.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test('MemoryReplayStore: new, running, done with the first outcome, and different arguments', () => {
  const store = new MemoryReplayStore();
  const first: ReplayClaim = { key: 'k1', tool: 'pay', args: { to: 'bob', amount: 5 } };
  assert.deepEqual(store.begin(first), { status: 'new' });
  assert.deepEqual(store.begin(first), { status: 'running' });
  const outcome: ReplayOutcome = { ok: true, result: { content: [text('paid')] } };
  store.complete('k1', outcome);
  store.complete('k1', { ok: false, error: new Error('a second completion is ignored') });
  assert.deepEqual(store.begin({ key: 'k1', tool: 'pay', args: { amount: 5, to: 'bob' } }), {
    status: 'done',
    outcome,
  });
  assert.deepEqual(store.begin({ key: 'k1', tool: 'pay', args: { to: 'bob', amount: 6 } }), {
    status: 'different-arguments',
  });
  assert.deepEqual(store.begin({ key: 'k1', tool: 'refund', args: { to: 'bob', amount: 5 } }), {
    status: 'different-arguments',
  });
  assert.deepEqual(store.begin({ key: 'k2', tool: 'pay', args: { to: 'bob', amount: 5 } }), { status: 'new' });
  assert.equal(store.size, 2);
  store.complete('unknown-key', outcome);
  assert.equal(store.size, 2);
});

test('MemoryReplayStore forgets the oldest finished keys beyond maxEntries, never running ones', () => {
  const store = new MemoryReplayStore({ maxEntries: 2 });
  const claim = (key: string): ReplayClaim => ({ key, tool: 't', args: {} });
  const done: ReplayOutcome = { ok: true, result: { content: [] } };
  store.begin(claim('running'));
  store.begin(claim('a'));
  store.complete('a', done);
  store.begin(claim('b'));
  store.complete('b', done);
  assert.equal(store.size, 2);
  assert.deepEqual(store.begin(claim('running')), { status: 'running' });
  assert.deepEqual(store.begin(claim('b')), { status: 'done', outcome: done });
  assert.deepEqual(store.begin(claim('a')), { status: 'new' }, '"a" was forgotten');
  assert.throws(() => new MemoryReplayStore({ maxEntries: 0 }), {
    name: 'TypeError',
    message: 'MemoryReplayStore: "maxEntries" must be a positive integer, got 0',
  });
});

test('MemoryReplayStore refuses cyclic arguments with a clear error', () => {
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  assert.throws(() => new MemoryReplayStore().begin({ key: 'k', tool: 't', args: cyclic }), {
    name: 'TypeError',
    message: 'cannot fingerprint the arguments: they contain a cycle',
  });
});

test('keyed tools get a minted idempotency key; other tools get none unless the call brings one', async () => {
  const keyOf = new Map<string, string | undefined>();
  const record = (name: string, claims = {}) =>
    makeTool(name, claims, async (_args, ctx) => {
      keyOf.set(ctx.call.id, ctx.call.idempotencyKey);
      return 'ok';
    });
  const outcomes = await new Executor().run([
    { id: 'a', tool: record('keyed', { replay: 'keyed' }), args: {} },
    { id: 'b', tool: record('plain'), args: {} },
    { id: 'c', tool: record('safe', { replay: 'safe' }), args: {} },
    { id: 'd', tool: record('plain_with_key'), args: {}, idempotencyKey: 'given' },
    { id: 'e', tool: record('dynamic', { replay: () => 'keyed' }), args: {} },
  ]);
  const keys = ['a', 'b', 'c', 'd', 'e'].map((id) => keyOf.get(id));
  assert.match(keys[0]!, UUID);
  assert.match(keys[4]!, UUID);
  assert.notEqual(keys[0], keys[4]);
  assert.deepEqual(keys.slice(1, 4), [undefined, undefined, 'given']);
  assert.deepEqual(
    outcomes.map((o) => o.idempotencyKey),
    [keys[0], undefined, undefined, 'given', keys[4]],
  );
});

function countingPay(): { tool: ContractTool; runs: () => number } {
  let runs = 0;
  const tool = makeTool('pay', { replay: 'keyed', resource: 'bank:1' }, async (args) => {
    runs += 1;
    return `paid ${JSON.stringify(args)} (run ${runs})`;
  });
  return { tool, runs: () => runs };
}

test('a repeated key returns the first outcome without running the tool again', async () => {
  const pay = countingPay();
  const executor = new Executor();
  const outcomes = await executor.run([
    { id: 'a', tool: pay.tool, args: { amount: 5 }, idempotencyKey: 'K' },
    { id: 'b', tool: pay.tool, args: { amount: 5 }, idempotencyKey: 'K' },
  ]);
  const again = await executor.run([{ id: 'c', tool: pay.tool, args: { amount: 5 }, idempotencyKey: 'K' }]);
  assert.equal(pay.runs(), 1);
  const paid = { content: [{ type: 'text', text: 'paid {"amount":5} (run 1)' }] };
  assert.deepEqual([...outcomes, ...again].map(plain), [
    { id: 'a', tool: 'pay', started: true, ok: true, idempotencyKey: 'K', result: paid },
    { id: 'b', tool: 'pay', started: false, ok: true, idempotencyKey: 'K', replayed: true, result: paid },
    { id: 'c', tool: 'pay', started: false, ok: true, idempotencyKey: 'K', replayed: true, result: paid },
  ]);
});

test('a failed first outcome is returned again too', async () => {
  let runs = 0;
  const flaky = makeTool('flaky', { replay: 'keyed' }, async () => {
    runs += 1;
    throw new Error('card declined');
  });
  const executor = new Executor();
  await executor.run([{ id: 'a', tool: flaky, args: {}, idempotencyKey: 'K' }]);
  const [second] = await executor.run([{ id: 'b', tool: flaky, args: {}, idempotencyKey: 'K' }]);
  assert.equal(runs, 1);
  assert.deepEqual(plain(second!), {
    id: 'b',
    tool: 'flaky',
    started: false,
    ok: false,
    idempotencyKey: 'K',
    replayed: true,
    error: 'Error: card declined',
  });
});

test('a key reused with different arguments, or while its first call runs, is refused', async () => {
  const gate = deferred();
  let runs = 0;
  const transfer = makeTool('transfer', { replay: 'keyed' }, async () => {
    runs += 1;
    await gate.promise;
    return 'moved';
  });
  const executor = new Executor();
  const first = executor.run([{ id: 'a', tool: transfer, args: { amount: 1 }, idempotencyKey: 'K' }]);
  await settle();
  const [whileRunning] = await executor.run([{ id: 'b', tool: transfer, args: { amount: 1 }, idempotencyKey: 'K' }]);
  const [otherArgs] = await executor.run([{ id: 'c', tool: transfer, args: { amount: 2 }, idempotencyKey: 'K' }]);
  gate.resolve();
  await first;
  assert.equal(runs, 1);
  assert.deepEqual([whileRunning!, otherArgs!].map(plain), [
    {
      id: 'b',
      tool: 'transfer',
      started: false,
      ok: false,
      idempotencyKey: 'K',
      error: 'IdempotencyConflictError: idempotency key "K" is in use by a call that is still running',
    },
    {
      id: 'c',
      tool: 'transfer',
      started: false,
      ok: false,
      idempotencyKey: 'K',
      error: 'IdempotencyConflictError: idempotency key "K" was first used with different arguments',
    },
  ]);
  const error = (whileRunning as { error: Error }).error as IdempotencyConflictError;
  assert.equal(error.key, 'K');
  assert.equal(error.reason, 'running');
});

test('replayStore: null leaves deduplication to the tool', async () => {
  const pay = countingPay();
  await new Executor({ replayStore: null }).run([
    { id: 'a', tool: pay.tool, args: {}, idempotencyKey: 'K' },
    { id: 'b', tool: pay.tool, args: {}, idempotencyKey: 'K' },
  ]);
  assert.equal(pay.runs(), 2);
});

test('a durable store gets begin and exactly one complete with the real outcome, even after a timeout', async () => {
  const calls: string[] = [];
  const memory = new MemoryReplayStore();
  const durable: ReplayStore = {
    async begin(claim: ReplayClaim): Promise<ReplayBegin> {
      calls.push(`begin ${claim.key} ${claim.tool} ${JSON.stringify(claim.args)}`);
      return memory.begin(claim);
    },
    async complete(key: string, outcome: ReplayOutcome): Promise<void> {
      calls.push(`complete ${key} ${outcome.ok ? JSON.stringify(outcome.result) : outcome.error.message}`);
      memory.complete(key, outcome);
    },
  };
  const release = deferred();
  const slowPay = makeTool('slow_pay', { replay: 'keyed', timeoutMs: 10 }, async () => {
    await release.promise;
    return 'paid late';
  });
  const executor = new Executor({ replayStore: durable });
  const call: BatchCall = { id: 'a', tool: slowPay, args: { n: 1 }, idempotencyKey: 'K' };
  const [timedOut] = await executor.run([call]);
  assert.equal(isAmbiguous(timedOut!), true);
  assert.deepEqual(calls, ['begin K slow_pay {"n":1}']);

  const [tooEarly] = await executor.retryAmbiguous(call).then((o) => [o]);
  assert.deepEqual(plain(tooEarly!), {
    id: 'a',
    tool: 'slow_pay',
    started: false,
    ok: false,
    idempotencyKey: 'K',
    error: 'IdempotencyConflictError: idempotency key "K" is in use by a call that is still running',
  });

  release.resolve();
  await settle();
  assert.deepEqual(calls, [
    'begin K slow_pay {"n":1}',
    'begin K slow_pay {"n":1}',
    'complete K {"content":[{"type":"text","text":"paid late"}]}',
  ]);
  const retried = await executor.retryAmbiguous(call);
  assert.deepEqual(plain(retried), {
    id: 'a',
    tool: 'slow_pay',
    started: false,
    ok: true,
    idempotencyKey: 'K',
    replayed: true,
    result: { content: [{ type: 'text', text: 'paid late' }] },
  });
});

test('a store that fails to begin completes the call with its error and the tool never runs', async () => {
  let runs = 0;
  const keyed = makeTool('keyed', { replay: 'keyed' }, async () => {
    runs += 1;
    return 'x';
  });
  const broken: ReplayStore = {
    begin: () => {
      throw new Error('replay store unavailable');
    },
    complete: () => {},
  };
  const [outcome] = await new Executor({ replayStore: broken }).run([
    { id: 'a', tool: keyed, args: {}, idempotencyKey: 'K' },
  ]);
  assert.equal(runs, 0);
  assert.deepEqual(plain(outcome!), {
    id: 'a',
    tool: 'keyed',
    started: false,
    ok: false,
    idempotencyKey: 'K',
    error: 'Error: replay store unavailable',
  });
});

test('retryAmbiguous re-runs safe tools, re-runs keyed tools only with the first key, and never re-runs unknown ones', async () => {
  const runs = new Map<string, number>();
  const counting = (name: string, claims = {}) =>
    makeTool(name, claims, async () => {
      runs.set(name, (runs.get(name) ?? 0) + 1);
      return `${name} run ${runs.get(name)}`;
    });
  const safe = counting('lookup', { replay: 'safe' });
  const keyed = counting('charge', { replay: 'keyed' });
  const unknown = counting('launch');
  const badClaim = counting('odd', { replay: () => 'maybe' });
  const executor = new Executor({ tools: [safe, keyed, unknown, badClaim] });

  const [firstCharge] = await executor.run([{ id: 'c1', tool: 'charge', args: { amount: 3 } }]);
  const key = firstCharge!.idempotencyKey;
  assert.match(key!, UUID);

  const outcomes = [
    await executor.retryAmbiguous({ id: 's1', tool: 'lookup', args: {} }),
    await executor.retryAmbiguous({ id: 'c1', tool: 'charge', args: { amount: 3 }, idempotencyKey: key! }),
    await executor.retryAmbiguous({ id: 'c2', tool: 'charge', args: { amount: 3 } }),
    await executor.retryAmbiguous({ id: 'u1', tool: 'launch', args: {} }),
    await executor.retryAmbiguous({ id: 'o1', tool: 'odd', args: {} }),
    await executor.retryAmbiguous({ id: 'x1', tool: 'nowhere', args: {} }),
  ];
  assert.deepEqual(Object.fromEntries(runs), { lookup: 1, charge: 1 });
  assert.deepEqual(outcomes.map(plain), [
    {
      id: 's1',
      tool: 'lookup',
      started: true,
      ok: true,
      result: { content: [{ type: 'text', text: 'lookup run 1' }] },
    },
    {
      id: 'c1',
      tool: 'charge',
      started: false,
      ok: true,
      idempotencyKey: key,
      replayed: true,
      result: { content: [{ type: 'text', text: 'charge run 1' }] },
    },
    {
      id: 'c2',
      tool: 'charge',
      started: false,
      ok: false,
      error:
        'UnknownOutcomeError: the outcome of call c2 (tool "charge") is unknown and the tool cannot be safely re-run',
    },
    {
      id: 'u1',
      tool: 'launch',
      started: false,
      ok: false,
      error:
        'UnknownOutcomeError: the outcome of call u1 (tool "launch") is unknown and the tool cannot be safely re-run',
    },
    {
      id: 'o1',
      tool: 'odd',
      started: false,
      ok: false,
      error: 'UnknownOutcomeError: the outcome of call o1 (tool "odd") is unknown and the tool cannot be safely re-run',
    },
    { id: 'x1', tool: 'nowhere', started: false, ok: false, error: 'UnknownToolError: unknown tool "nowhere"' },
  ]);
  assert.ok((outcomes[3] as { error: Error }).error instanceof UnknownOutcomeError);
});

test('a per-call replay claim deduplicates only the calls it answers keyed', async () => {
  let runs = 0;
  const write = makeTool('write', { replay: (args) => (args.mode === 'append' ? 'keyed' : 'safe') }, async (args) => {
    runs += 1;
    return `${JSON.stringify(args)} run ${runs}`;
  });
  const executor = new Executor({ serial: true });
  const outcomes = await executor.run([
    { id: 'a', tool: write, args: { mode: 'append' }, idempotencyKey: 'K' },
    { id: 'b', tool: write, args: { mode: 'append' }, idempotencyKey: 'K' },
    { id: 'c', tool: write, args: { mode: 'overwrite' }, idempotencyKey: 'S' },
    { id: 'd', tool: write, args: { mode: 'overwrite' }, idempotencyKey: 'S' },
  ]);
  assert.equal(runs, 3);
  assert.deepEqual(outcomes.map(plain), [
    {
      id: 'a',
      tool: 'write',
      started: true,
      ok: true,
      idempotencyKey: 'K',
      result: { content: [{ type: 'text', text: '{"mode":"append"} run 1' }] },
    },
    {
      id: 'b',
      tool: 'write',
      started: false,
      ok: true,
      idempotencyKey: 'K',
      replayed: true,
      result: { content: [{ type: 'text', text: '{"mode":"append"} run 1' }] },
    },
    {
      id: 'c',
      tool: 'write',
      started: true,
      ok: true,
      idempotencyKey: 'S',
      result: { content: [{ type: 'text', text: '{"mode":"overwrite"} run 2' }] },
    },
    {
      id: 'd',
      tool: 'write',
      started: true,
      ok: true,
      idempotencyKey: 'S',
      result: { content: [{ type: 'text', text: '{"mode":"overwrite"} run 3' }] },
    },
  ]);
});

test('a store answering begin with something else completes the call with an error naming it', async () => {
  let runs = 0;
  const keyed = makeTool('keyed', { replay: 'keyed' }, async () => {
    runs += 1;
    return 'x';
  });
  const odd = (answer: unknown): ReplayStore => ({ begin: () => answer as ReplayBegin, complete: () => {} });
  const [maybe] = await new Executor({ replayStore: odd({ status: 'maybe' }) }).run([
    { id: 'a', tool: keyed, args: {}, idempotencyKey: 'K' },
  ]);
  const [nothing] = await new Executor({ replayStore: odd(undefined) }).run([
    { id: 'b', tool: keyed, args: {}, idempotencyKey: 'K' },
  ]);
  assert.equal(runs, 0);
  assert.deepEqual([maybe!, nothing!].map(plain), [
    {
      id: 'a',
      tool: 'keyed',
      started: false,
      ok: false,
      idempotencyKey: 'K',
      error:
        'Error: the replay store answered "maybe" for idempotency key "K"; expected "new", "done", "running" or "different-arguments"',
    },
    {
      id: 'b',
      tool: 'keyed',
      started: false,
      ok: false,
      idempotencyKey: 'K',
      error:
        'Error: the replay store answered nothing for idempotency key "K"; expected "new", "done", "running" or "different-arguments"',
    },
  ]);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { Executor } from '../src/runtime/executor/executor.js';
import {
  LostOutcomeError,
  MemoryReplayStore,
  ownedReplayKey,
  type ReplayBegin,
  type ReplayClaim,
  type ReplayStore,
} from '../src/runtime/executor/replay-store.js';
import type { CallOutcome } from '../src/runtime/executor/types.js';
import { ToolwrightError, type CallContext, type ContractTool, type ToolOutput } from '../src/contract/index.js';

// Imports stop at the executor's own files and the contract (never the package root): each
// mutant runs this file in a fresh process, so it loads only what it tests.

/*
 * The executor (`runtime/executor`) as its first full mutation run (`npm run mutate:executor`)
 * found it unpinned: option checks with their exact messages, retryAmbiguous's context and
 * refusals, the replay path's guards, the batch's abort listener, and a batch cancelled while a
 * call is starting. See docs/mutation.md.
 */

const tool = (
  name: string,
  execute: (args: unknown, ctx: CallContext) => ToolOutput | Promise<ToolOutput> = () => name,
  extra: Partial<ContractTool> = {},
): ContractTool => ({ name, description: `tool ${name}`, ...extra, execute }) as ContractTool;

const errorOf = (outcome: CallOutcome | undefined): string =>
  outcome !== undefined && !outcome.ok ? `${outcome.error.name}: ${outcome.error.message}` : 'ok';

test('Executor option checks: each bad option is a TypeError with its exact message', () => {
  assert.throws(() => new Executor(null as never), {
    name: 'TypeError',
    message: 'Executor: options must be an object, got null',
  });
  assert.throws(() => new Executor('fast' as never), {
    name: 'TypeError',
    message: 'Executor: options must be an object, got a string',
  });
  assert.throws(() => new Executor({ onStart: 1 as never }), {
    name: 'TypeError',
    message: 'Executor: "onStart" must be a function, got 1',
  });
  const replayMessage = 'Executor: "replayStore" must have "begin" and "complete" methods, or be null';
  assert.throws(() => new Executor({ replayStore: { complete() {} } as never }), {
    name: 'TypeError',
    message: replayMessage,
  });
  assert.throws(
    () =>
      new Executor({
        replayStore: {
          begin() {
            return { status: 'new' };
          },
        } as never,
      }),
    { name: 'TypeError', message: replayMessage },
  );
  assert.throws(() => new Executor({ tools: null as never }), {
    name: 'TypeError',
    message: 'Executor: "tools" must be a Map of name -> contract tool or a list of contract tools, got null',
  });
  assert.doesNotThrow(() => new Executor({ replayStore: null, onStart: () => undefined }));
});

test('a malformed call: null is not a call; an empty idempotencyKey is refused', async () => {
  const executor = new Executor();
  await assert.rejects(executor.run([null as never]), {
    name: 'InvalidBatchError',
    message: 'call 0 must be an object with "id", "tool" and "args", got null',
  });
  await assert.rejects(executor.run(['call' as never]), {
    name: 'InvalidBatchError',
    message: 'call 0 must be an object with "id", "tool" and "args", got a string',
  });
  await assert.rejects(executor.run([{ id: 'a', tool: tool('t'), args: {}, idempotencyKey: '' }]), {
    name: 'InvalidBatchError',
    message: 'call "a": "idempotencyKey" must be a non-empty string when given',
  });
  await assert.rejects(executor.run([{ id: 'a', tool: tool('t'), args: {}, idempotencyKey: 5 as never }]), {
    name: 'InvalidBatchError',
    message: 'call "a": "idempotencyKey" must be a non-empty string when given',
  });
});

test('a tool is prepared once per executor: a warning from its preparation is given once, however many calls', async () => {
  const warnings: string[] = [];
  const odd = tool('odd', () => 'ran', {
    parameters: { $schema: 'https://example.com/unknown-dialect', type: 'object' },
  } as never);
  const executor = new Executor({ tools: [odd], log: (message) => warnings.push(message) });
  const outcomes = [
    ...(await executor.run([
      { id: 'a', tool: 'odd', args: {} },
      { id: 'b', tool: 'odd', args: {} },
    ])),
    ...(await executor.run([{ id: 'c', tool: odd, args: {} }])),
  ];
  assert.deepEqual(outcomes.map(errorOf), ['ok', 'ok', 'ok']);
  assert.deepEqual(warnings, [
    'Executor: tool "odd": schema declares the dialect "https://example.com/unknown-dialect", which no validator here knows; it is served unvalidated',
  ]);
});

test("retryAmbiguous: the claim sees the context (run options first, then the executor's, a factory called with the call and tool); a claim that throws is unknown", async () => {
  const seen: string[] = [];
  let runs = 0;
  const claim = (_args: unknown, ctx: CallContext) => {
    const who = ctx.session?.id;
    seen.push(`${ctx.call.id} ${ctx.call.tool} ${who ?? '-'}`);
    return who === 'trusted' ? 'safe' : 'unknown';
  };
  const maybe = tool(
    'maybe',
    () => {
      runs += 1;
      return 'ran';
    },
    { replay: claim } as never,
  );
  const executor = new Executor({ tools: [maybe], context: { session: { id: 'trusted', transport: 'stdio' } } });
  const first = await executor.retryAmbiguous({ id: 'r1', tool: 'maybe', args: {} });
  assert.equal(errorOf(first), 'ok');
  const overridden = await executor.retryAmbiguous(
    { id: 'r2', tool: 'maybe', args: {} },
    { context: { session: { id: 'stranger', transport: 'stdio' } } },
  );
  assert.equal(
    errorOf(overridden),
    'UnknownOutcomeError: the outcome of call r2 (tool "maybe") is unknown and the tool cannot be safely re-run',
  );
  const factories: string[] = [];
  const viaFactory = new Executor({
    tools: [maybe],
    context: ((call: { id: string }, t: ContractTool) => {
      factories.push(`${call.id} ${t.name}`);
      return { session: { id: 'trusted', transport: 'stdio' } };
    }) as never,
  });
  assert.equal(errorOf(await viaFactory.retryAmbiguous({ id: 'r3', tool: 'maybe', args: {} })), 'ok');
  assert.deepEqual(factories.slice(0, 1), ['r3 maybe']);
  const throwing = tool(
    'throwing',
    () => {
      runs += 1;
      return 'ran';
    },
    {
      replay: () => {
        throw new Error('no claim');
      },
    } as never,
  );
  const refused = await new Executor({ tools: [throwing] }).retryAmbiguous({
    id: 'r4',
    tool: 'throwing',
    args: {},
    idempotencyKey: 'k4',
  });
  assert.equal(
    errorOf(refused),
    'UnknownOutcomeError: the outcome of call r4 (tool "throwing") is unknown and the tool cannot be safely re-run',
  );
  assert.equal(refused.idempotencyKey, 'k4');
  assert.deepEqual(seen, [
    'r1 maybe trusted',
    'r1 maybe trusted',
    'r2 maybe stranger',
    'r3 maybe trusted',
    'r3 maybe trusted',
  ]);
  assert.equal(runs, 2);
});

test('retryAmbiguous never re-runs a tool whose claim is unknown, even with a key; the refusal keeps the key when the call had one', async () => {
  let runs = 0;
  const launch = tool('launch', () => {
    runs += 1;
    return 'ran';
  });
  const executor = new Executor({ tools: [launch] });
  const keyed = await executor.retryAmbiguous({ id: 'u1', tool: 'launch', args: {}, idempotencyKey: 'k1' });
  const unkeyed = await executor.retryAmbiguous({ id: 'u2', tool: 'launch', args: {} });
  assert.equal(runs, 0);
  const { endedAt: _one, error: e1, ...restKeyed } = keyed as CallOutcome & { error: Error };
  const { endedAt: _two, error: e2, ...restUnkeyed } = unkeyed as CallOutcome & { error: Error };
  assert.deepEqual(restKeyed, { id: 'u1', tool: 'launch', started: false, idempotencyKey: 'k1', ok: false });
  assert.deepEqual(restUnkeyed, { id: 'u2', tool: 'launch', started: false, ok: false });
  assert.equal(e1.name, 'UnknownOutcomeError');
  assert.equal(e2.name, 'UnknownOutcomeError');
});

test('an outcome that never started has no startedAt member at all', async () => {
  const executor = new Executor({
    onStart: () => {
      throw new Error('refused');
    },
  });
  const [outcome] = await executor.run([{ id: 'a', tool: tool('t'), args: {} }]);
  assert.deepEqual(Object.keys(outcome!), ['id', 'tool', 'started', 'endedAt', 'ok', 'error']);
});

test('without a replay store a per-call replay claim is never asked', async () => {
  let asked = 0;
  const write = tool('write', () => 'wrote', {
    replay: () => {
      asked += 1;
      return 'keyed';
    },
  } as never);
  const outcomes = await new Executor({ replayStore: null }).run([
    { id: 'a', tool: write, args: {} },
    { id: 'b', tool: write, args: {}, idempotencyKey: 'k' },
  ]);
  assert.deepEqual(outcomes.map(errorOf), ['ok', 'ok']);
  assert.equal(asked, 0);
});

test('a keyed call whose batch is cancelled while its claim is read never reaches the store and never runs', async () => {
  const controller = new AbortController();
  const begun: ReplayClaim[] = [];
  let runs = 0;
  const store: ReplayStore = {
    begin: (claim) => {
      begun.push(claim);
      return { status: 'new' } as ReplayBegin;
    },
    complete: () => undefined,
  };
  const write = tool(
    'write',
    () => {
      runs += 1;
      return 'wrote';
    },
    {
      replay: async () => {
        controller.abort(new Error('stop'));
        return 'keyed';
      },
    } as never,
  );
  const [outcome] = await new Executor({ replayStore: store }).run(
    [{ id: 'a', tool: write, args: {}, idempotencyKey: 'k' }],
    { signal: controller.signal },
  );
  assert.equal(errorOf(outcome), 'CallCancelledError: cancelled before it started');
  assert.equal(outcome!.started, false);
  assert.deepEqual([begun.length, runs], [0, 0]);
});

test('a batch cancelled while a call starts: the calls not started yet never run, and each outcome is given once', async () => {
  const controller = new AbortController();
  const ran: string[] = [];
  const completed: string[] = [];
  const t = tool('t', (args) => {
    ran.push((args as { n: string }).n);
    return 'x';
  });
  const executor = new Executor({
    onStart: (call) => {
      if (call.id === 'a') controller.abort(new Error('stop'));
    },
  });
  const outcomes = await executor.run(
    [
      { id: 'a', tool: t, args: { n: 'a' } },
      { id: 'b', tool: t, args: { n: 'b' } },
      { id: 'c', tool: t, args: { n: 'c' } },
    ],
    {
      signal: controller.signal,
      onComplete: (outcome) => completed.push(`${outcome.id} ${errorOf(outcome)}`),
    },
  );
  assert.deepEqual(ran, ['a']);
  assert.deepEqual(outcomes.map(errorOf), [
    'ok',
    'CallCancelledError: cancelled before it started',
    'CallCancelledError: cancelled before it started',
  ]);
  assert.deepEqual(completed, [
    'b CallCancelledError: cancelled before it started',
    'c CallCancelledError: cancelled before it started',
    'a ok',
  ]);
});

test("a batch leaves no abort listener on its signal once it completed, and a completed call's signal is not aborted by a later cancel", async () => {
  const controller = new AbortController();
  const signals: AbortSignal[] = [];
  let release!: () => void;
  const slow = tool(
    'slow',
    () =>
      new Promise<string>((resolve) => {
        release = () => resolve('slow');
      }),
  );
  const quick = tool('quick', (_args, ctx) => {
    signals.push(ctx.signal);
    return 'quick';
  });
  const running = new Executor().run(
    [
      { id: 'q', tool: quick, args: {} },
      { id: 's', tool: slow, args: {} },
    ],
    { signal: controller.signal },
  );
  for (let turn = 0; turn < 20 && signals.length === 0; turn += 1)
    await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
  controller.abort(new Error('late'));
  assert.equal(signals[0]!.aborted, false);
  release();
  const outcomes = await running;
  assert.deepEqual(outcomes.map(errorOf), ['ok', 'ok']);
  const other = new AbortController();
  await new Executor().run([{ id: 'a', tool: quick, args: {} }], { signal: other.signal });
  assert.equal(getEventListeners(other.signal, 'abort').length, 0);
});

test('MemoryReplayStore keeps owners apart; ownedReplayKey is the key alone without an owner, else the owner as JSON and the key', () => {
  assert.equal(ownedReplayKey('k', undefined), 'k');
  assert.equal(ownedReplayKey('k', 'alice'), '"alice":k');
  const store = new MemoryReplayStore({ maxEntries: 2 });
  assert.deepEqual(store.begin({ key: 'k', tool: 't', args: {} }), { status: 'new' });
  assert.deepEqual(store.begin({ key: 'k', tool: 't', args: {}, owner: 'alice' }), { status: 'new' });
  assert.deepEqual(store.begin({ key: 'k', tool: 't', args: {}, owner: 'alice' }), { status: 'running' });
  store.complete('k', { ok: true, result: { content: [] } }, 'alice');
  assert.deepEqual(store.begin({ key: 'k', tool: 't', args: {} }), { status: 'running' });
  assert.deepEqual(store.begin({ key: 'k', tool: 't', args: {}, owner: 'alice' }), {
    status: 'done',
    outcome: { ok: true, result: { content: [] } },
  });
  assert.deepEqual(store.begin({ key: 'k', tool: 't', args: {}, owner: 'bob' }), { status: 'new' });
  assert.equal(store.size, 3);
});

test('LostOutcomeError: name, code, key and message', () => {
  const error = new LostOutcomeError('k"1');
  assert.ok(error instanceof ToolwrightError);
  assert.deepEqual([error.name, error.code, error.key], ['LostOutcomeError', 'lost-outcome', 'k"1']);
  assert.equal(
    error.message,
    'the call that first used idempotency key "k\\"1" ended without an outcome (the process running it stopped or lost the shared store); whether it acted is unknown, so it is not run again',
  );
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  Executor,
  isAmbiguous,
  terminationOf,
  outcomeResult,
  AmbiguousOutcomeError,
  type CallOutcome,
} from '../src/runtime/executor/index.js';
import {
  ToolError,
  text,
  type Call,
  type CallContext,
  type ContractTool,
  type ProgressUpdate,
  type Session,
  type ToolOutput,
} from '../src/contract/index.js';
import { deferred, makeTool, plain, settle, type Deferred } from './support/executor-tools.js';

test('run resolves every outcome in model order with the normalised result', async () => {
  const gate = deferred();
  const first = makeTool('first', {}, async () => {
    await gate.promise;
    return 'one';
  });
  const second = makeTool('second', {}, async () => [text('two')]);
  const third = makeTool('third', {}, async () => ({
    content: [text('three')],
    structuredContent: { n: 3 },
    terminate: true,
  }));
  const completions: string[] = [];
  const running = new Executor({ onComplete: (outcome) => completions.push(outcome.id) }).run([
    { id: 'a', tool: first, args: {} },
    { id: 'b', tool: second, args: {} },
    { id: 'c', tool: third, args: {} },
  ]);
  await settle();
  gate.resolve();
  const outcomes = await running;
  assert.deepEqual(outcomes.map(plain), [
    { id: 'a', tool: 'first', started: true, ok: true, result: { content: [{ type: 'text', text: 'one' }] } },
    { id: 'b', tool: 'second', started: true, ok: true, result: { content: [{ type: 'text', text: 'two' }] } },
    {
      id: 'c',
      tool: 'third',
      started: true,
      ok: true,
      result: { content: [{ type: 'text', text: 'three' }], structuredContent: { n: 3 }, terminate: true },
    },
  ]);
  assert.deepEqual(completions, ['b', 'c', 'a']);
});

test('an empty batch resolves to no outcomes', async () => {
  assert.deepEqual(await new Executor().run([]), []);
});

test('execute gets the raw arguments and a context whose call names the tool', async () => {
  const seen: { args: unknown; call: Call; session: Session | undefined; aborted: boolean }[] = [];
  const echo = makeTool('echo', {}, async (args, ctx) => {
    seen.push({ args, call: ctx.call, session: ctx.session, aborted: ctx.signal.aborted });
    return 'ok';
  });
  const args = { path: 'a.txt', nested: { n: 1 } };
  await new Executor().run([{ id: 'x1', tool: echo, args }]);
  assert.deepEqual(seen, [
    {
      args: { path: 'a.txt', nested: { n: 1 } },
      call: { id: 'x1', tool: 'echo', args: { path: 'a.txt', nested: { n: 1 } } },
      session: undefined,
      aborted: false,
    },
  ]);
  assert.equal(seen[0]!.args, args);
});

test('thrown errors keep their message and class; other failures get a message naming the tool', async () => {
  const thrown = new ToolError('disk full', { details: { free: 0 } });
  const tools: ContractTool[] = [
    makeTool('rejects', {}, async () => {
      throw thrown;
    }),
    makeTool('throws_sync', {}, (() => {
      throw new RangeError('bad range');
    }) as unknown as ContractTool['execute']),
    makeTool('throws_string', {}, async () => {
      throw 'boom';
    }),
    makeTool('throws_object', {}, async () => {
      throw { code: 7 };
    }),
    makeTool('throws_number', {}, async () => {
      throw 42;
    }),
    makeTool('returns_undefined', {}, (async () => undefined) as unknown as ContractTool['execute']),
    makeTool('returns_number', {}, (async () => 5) as unknown as ContractTool['execute']),
    makeTool('returns_object', {}, (async () => ({ text: 'hi' })) as unknown as ContractTool['execute']),
    makeTool('returns_plain_value', {}, (() => 'not a promise') as unknown as ContractTool['execute']),
  ];
  const outcomes = await new Executor().run(tools.map((tool, index) => ({ id: `c${index}`, tool, args: {} })));
  assert.equal((outcomes[0] as { error: Error }).error, thrown);
  assert.deepEqual(outcomes.map(plain), [
    { id: 'c0', tool: 'rejects', started: true, ok: false, error: 'ToolError: disk full' },
    { id: 'c1', tool: 'throws_sync', started: true, ok: false, error: 'RangeError: bad range' },
    { id: 'c2', tool: 'throws_string', started: true, ok: false, error: 'Error: tool "throws_string" threw: "boom"' },
    {
      id: 'c3',
      tool: 'throws_object',
      started: true,
      ok: false,
      error: 'Error: tool "throws_object" threw: {"code":7}',
    },
    { id: 'c4', tool: 'throws_number', started: true, ok: false, error: 'Error: tool "throws_number" threw: 42' },
    {
      id: 'c5',
      tool: 'returns_undefined',
      started: true,
      ok: false,
      error:
        'InvalidOutputError: tool "returns_undefined" returned an invalid output: expected a string, an array of content parts or a result object, got nothing',
    },
    {
      id: 'c6',
      tool: 'returns_number',
      started: true,
      ok: false,
      error:
        'InvalidOutputError: tool "returns_number" returned an invalid output: expected a string, an array of content parts or a result object, got a number',
    },
    {
      id: 'c7',
      tool: 'returns_object',
      started: true,
      ok: false,
      error:
        'InvalidOutputError: tool "returns_object" returned an invalid output: a result object needs a "content" array',
    },
    {
      id: 'c8',
      tool: 'returns_plain_value',
      started: true,
      ok: true,
      result: { content: [{ type: 'text', text: 'not a promise' }] },
    },
  ]);
  assert.deepEqual(outcomeResult(outcomes[0]!), {
    content: [{ type: 'text', text: 'disk full' }],
    isError: true,
    details: { free: 0 },
  });
  assert.deepEqual(outcomeResult(outcomes[2]!), {
    content: [{ type: 'text', text: 'tool "throws_string" threw: "boom"' }],
    isError: true,
  });
  assert.deepEqual(outcomeResult(outcomes[8]!), { content: [{ type: 'text', text: 'not a promise' }] });
  assert.equal(((outcomes[2] as { error: Error }).error as Error & { cause: unknown }).cause, 'boom');
});

test('a tool named but not registered completes with "unknown tool"; registered names run', async () => {
  const hello = makeTool('hello', {}, async () => 'hi');
  const executor = new Executor({ tools: new Map([['hello', hello]]) });
  const outcomes = await executor.run([
    { id: '1', tool: 'hello', args: {} },
    { id: '2', tool: 'missing', args: {} },
  ]);
  assert.deepEqual(outcomes.map(plain), [
    { id: '1', tool: 'hello', started: true, ok: true, result: { content: [{ type: 'text', text: 'hi' }] } },
    { id: '2', tool: 'missing', started: false, ok: false, error: 'UnknownToolError: unknown tool "missing"' },
  ]);
});

test('a batch with duplicate call ids is rejected before anything runs', async () => {
  let runs = 0;
  const counted = makeTool('counted', {}, async () => {
    runs += 1;
    return 'ran';
  });
  await assert.rejects(
    new Executor().run([
      { id: 'same', tool: counted, args: {} },
      { id: 'other', tool: counted, args: {} },
      { id: 'same', tool: counted, args: {} },
    ]),
    { name: 'InvalidBatchError', message: 'duplicate call id "same" at positions 0 and 2' },
  );
  await assert.rejects(
    new Executor().run([{ id: 'a', tool: counted, args: {} }], { signal: 'no' as unknown as AbortSignal }),
    {
      name: 'InvalidBatchError',
      message: '"signal" must be an AbortSignal',
    },
  );
  assert.equal(runs, 0);
});

test('onStart runs after the chain turn, sees the call and its context, and a throw refuses the call', async () => {
  const gate = deferred();
  const executed: string[] = [];
  const slow = makeTool('slow', { resource: 'db:x' }, async (_args, ctx) => {
    executed.push(ctx.call.id);
    await gate.promise;
    return 'slow done';
  });
  const guarded = makeTool('guarded', { resource: 'db:x' }, async (_args, ctx) => {
    executed.push(ctx.call.id);
    return 'never';
  });
  const starts: { call: Call; tool: string; sameCall: boolean }[] = [];
  const executor = new Executor({
    onStart: (call, ctx, tool) => {
      starts.push({ call, tool: tool.name, sameCall: ctx.call === call });
      if (tool.name === 'guarded') throw new Error('permission denied: guarded needs approval');
    },
  });
  const running = executor.run([
    { id: 'a', tool: slow, args: { n: 1 } },
    { id: 'b', tool: guarded, args: { n: 2 } },
  ]);
  await settle();
  assert.deepEqual(
    starts.map((s) => s.call.id),
    ['a'],
    'b waits for its chain turn before onStart',
  );
  gate.resolve();
  const outcomes = await running;
  assert.deepEqual(starts, [
    { call: { id: 'a', tool: 'slow', args: { n: 1 } }, tool: 'slow', sameCall: true },
    { call: { id: 'b', tool: 'guarded', args: { n: 2 } }, tool: 'guarded', sameCall: true },
  ]);
  assert.deepEqual(executed, ['a']);
  assert.deepEqual(outcomes.map(plain), [
    { id: 'a', tool: 'slow', started: true, ok: true, result: { content: [{ type: 'text', text: 'slow done' }] } },
    { id: 'b', tool: 'guarded', started: false, ok: false, error: 'Error: permission denied: guarded needs approval' },
  ]);
});

test('onStart must decide synchronously: a returned promise refuses the call', async () => {
  let ran = false;
  const t = makeTool('t', {}, async () => {
    ran = true;
    return 'x';
  });
  const executor = new Executor({ onStart: (async () => {}) as unknown as () => void });
  const [outcome] = await executor.run([{ id: 'a', tool: t, args: {} }]);
  assert.deepEqual(plain(outcome!), {
    id: 'a',
    tool: 't',
    started: false,
    ok: false,
    error:
      'Error: onStart returned a promise, but it must decide synchronously; put asynchronous checks in a tool wrapper',
  });
  assert.equal(ran, false);
});

test('context overrides reach every call; a factory gets the call and tool, and its throw refuses the call', async () => {
  const session: Session = { id: 's-1', transport: 'memory' };
  const logs: string[] = [];
  const probe = makeTool('probe', {}, async (_args, ctx) => {
    ctx.log('info', `log from ${ctx.call.id}`);
    const answer = await ctx.elicit({ message: 'sure?' });
    return `${ctx.session?.id ?? 'none'} ${answer.action}`;
  });
  const fixed = new Executor({ context: { session, log: (_level, data) => logs.push(String(data)) } });
  assert.deepEqual((await fixed.run([{ id: 'a', tool: probe, args: {} }])).map(plain), [
    { id: 'a', tool: 'probe', started: true, ok: true, result: { content: [{ type: 'text', text: 's-1 cancel' }] } },
  ]);
  assert.deepEqual(logs, ['log from a']);

  const factoryCalls: string[] = [];
  const perCall = new Executor({
    context: (call, tool) => {
      factoryCalls.push(`${call.id}:${tool.name}`);
      if (call.id === 'bad') throw new Error('no session for this call');
      return {
        session: { id: `s-${call.id}`, transport: 'other' },
        elicit: async () => ({ action: 'accept', content: {} }),
      };
    },
  });
  const outcomes = await perCall.run([
    { id: 'ok', tool: probe, args: {} },
    { id: 'bad', tool: probe, args: {} },
  ]);
  assert.deepEqual(factoryCalls, ['ok:probe', 'bad:probe']);
  assert.deepEqual(outcomes.map(plain), [
    { id: 'ok', tool: 'probe', started: true, ok: true, result: { content: [{ type: 'text', text: 's-ok accept' }] } },
    { id: 'bad', tool: 'probe', started: false, ok: false, error: 'Error: no session for this call' },
  ]);
});

test('context overrides cannot replace the call, the signal, progress or updates', async () => {
  const seen: { call: Call; aborted: boolean }[] = [];
  const probe = makeTool('probe', {}, async (_args, ctx) => {
    seen.push({ call: ctx.call, aborted: ctx.signal.aborted });
    ctx.update('u');
    return 'done';
  });
  const updates: string[] = [];
  const foreign = new AbortController();
  foreign.abort();
  const sneaky = {
    call: { id: 'other', tool: 'x', args: 1 },
    signal: foreign.signal,
    update: () => updates.push('override'),
  } as unknown as Record<string, never>;
  await new Executor({ context: sneaky, onUpdate: (id) => updates.push(`executor:${id}`) }).run([
    { id: 'a', tool: probe, args: { n: 2 } },
  ]);
  assert.deepEqual(seen, [{ call: { id: 'a', tool: 'probe', args: { n: 2 } }, aborted: false }]);
  assert.deepEqual(updates, ['executor:a']);
});

test('updates and progress reach the consumers in send order, and none after the call completed', async () => {
  const events: string[] = [];
  const late = deferred();
  const chatty = makeTool('chatty', {}, async (_args, ctx) => {
    ctx.update('first');
    ctx.progress('half way');
    ctx.update([text('second')]);
    ctx.progress({ progress: 2, total: 3, message: 'two of three' });
    ctx.update({ content: [text('third')], details: { step: 3 } });
    setImmediate(() => {
      ctx.update('after the end');
      ctx.progress('after the end');
      late.resolve();
    });
    return 'final';
  });
  const executor = new Executor({
    onUpdate: (id: string, output: ToolOutput) => events.push(`update ${id} ${JSON.stringify(output)}`),
    onProgress: (id: string, update: ProgressUpdate) => events.push(`progress ${id} ${JSON.stringify(update)}`),
    onComplete: (outcome: CallOutcome) => events.push(`complete ${outcome.id}`),
  });
  await executor.run([{ id: 'k', tool: chatty, args: {} }]);
  await late.promise;
  assert.deepEqual(events, [
    'update k "first"',
    'progress k {"message":"half way"}',
    'update k [{"type":"text","text":"second"}]',
    'progress k {"progress":2,"total":3,"message":"two of three"}',
    'update k {"content":[{"type":"text","text":"third"}],"details":{"step":3}}',
    'complete k',
  ]);
});

test('a consumer that throws never fails the call', async () => {
  const t = makeTool('t', {}, async (_args, ctx) => {
    ctx.update('x');
    ctx.progress('y');
    return 'fine';
  });
  const executor = new Executor({
    onUpdate: () => {
      throw new Error('consumer broke');
    },
    onProgress: () => {
      throw new Error('consumer broke');
    },
    onComplete: () => {
      throw new Error('consumer broke');
    },
  });
  assert.deepEqual((await executor.run([{ id: 'a', tool: t, args: {} }])).map(plain), [
    { id: 'a', tool: 't', started: true, ok: true, result: { content: [{ type: 'text', text: 'fine' }] } },
  ]);
});

test('run options override the executor hooks for one batch', async () => {
  const t = makeTool('t', {}, async (_args, ctx) => {
    ctx.update(`${ctx.session?.id}`);
    return 'x';
  });
  const seen: string[] = [];
  const executor = new Executor({
    onUpdate: () => seen.push('executor update'),
    onComplete: () => seen.push('executor complete'),
    context: { session: { id: 'executor', transport: 'other' } },
  });
  await executor.run([{ id: 'a', tool: t, args: {} }], {
    onUpdate: (_id, output) => seen.push(`run update ${String(output)}`),
    onComplete: () => seen.push('run complete'),
    context: { session: { id: 'run', transport: 'other' } },
  });
  assert.deepEqual(seen, ['run update run', 'run complete']);
});

test('at most maxParallel calls run at once; a freed slot goes to the next waiting chain', async () => {
  const gates = new Map<string, Deferred<void>>();
  const active: string[] = [];
  const startOrder: string[] = [];
  const gated = makeTool('gated', {}, async (_args, ctx) => {
    const gate = deferred();
    gates.set(ctx.call.id, gate);
    active.push(ctx.call.id);
    startOrder.push(ctx.call.id);
    await gate.promise;
    active.splice(active.indexOf(ctx.call.id), 1);
    return ctx.call.id;
  });
  const ids = ['a', 'b', 'c', 'd', 'e'];
  const running = new Executor({ maxParallel: 2 }).run(ids.map((id) => ({ id, tool: gated, args: {} })));
  await settle();
  assert.deepEqual(active, ['a', 'b']);
  gates.get('b')!.resolve();
  await settle();
  assert.deepEqual(active, ['a', 'c']);
  gates.get('a')!.resolve();
  gates.get('c')!.resolve();
  await settle();
  assert.deepEqual(active, ['d', 'e']);
  gates.get('d')!.resolve();
  gates.get('e')!.resolve();
  const outcomes = await running;
  assert.deepEqual(startOrder, ['a', 'b', 'c', 'd', 'e']);
  assert.deepEqual(
    outcomes.map((o) => o.id),
    ids,
  );
});

test('a barrier waits for everything before it and holds back everything after it', async () => {
  const log: string[] = [];
  const gates = new Map<string, Deferred<void>>();
  const step = (name: string, claims = {}) =>
    makeTool(name, claims, async (_args, ctx) => {
      const gate = deferred();
      gates.set(ctx.call.id, gate);
      log.push(`start ${ctx.call.id}`);
      await gate.promise;
      log.push(`end ${ctx.call.id}`);
      return ctx.call.id;
    });
  const p = step('p');
  const barrier = step('sync', { barrier: true });
  const running = new Executor().run([
    { id: 'a', tool: p, args: {} },
    { id: 'b', tool: p, args: {} },
    { id: 'B', tool: barrier, args: {} },
    { id: 'c', tool: p, args: {} },
  ]);
  await settle();
  assert.deepEqual(log, ['start a', 'start b']);
  gates.get('a')!.resolve();
  await settle();
  assert.deepEqual(log, ['start a', 'start b', 'end a']);
  gates.get('b')!.resolve();
  await settle();
  assert.deepEqual(log, ['start a', 'start b', 'end a', 'end b', 'start B']);
  gates.get('B')!.resolve();
  await settle();
  gates.get('c')!.resolve();
  await running;
  assert.deepEqual(log, ['start a', 'start b', 'end a', 'end b', 'start B', 'end B', 'start c', 'end c']);
});

test('isAmbiguous, outcomeResult and terminationOf read outcomes', async () => {
  const stop = makeTool('stop', {}, async () => ({ content: [text('bye')], terminate: true }));
  const go = makeTool('go', {}, async () => 'on');
  const lost = makeTool('lost', {}, async () => {
    throw new AmbiguousOutcomeError('the connection to the server broke during the call');
  });
  const executor = new Executor();
  const [s1, s2, g, l] = await executor.run([
    { id: '1', tool: stop, args: {} },
    { id: '2', tool: stop, args: {} },
    { id: '3', tool: go, args: {} },
    { id: '4', tool: lost, args: {} },
  ]);
  assert.equal(terminationOf([s1!, s2!]), 'all');
  assert.equal(terminationOf([s1!, g!]), 'partial');
  assert.equal(terminationOf([g!]), 'none');
  assert.equal(terminationOf([]), 'none');
  assert.equal(terminationOf([s1!, l!]), 'partial');
  assert.equal(isAmbiguous(l!), true);
  assert.equal(isAmbiguous(g!), false);
  assert.deepEqual(outcomeResult(l!), {
    content: [{ type: 'text', text: 'the connection to the server broke during the call' }],
    isError: true,
  });
});

test('a context built for one call is frozen and its ctx.call is the call onStart saw', async () => {
  let ctxSeen: CallContext | undefined;
  const t = makeTool('t', {}, async (_args, ctx) => {
    ctxSeen = ctx;
    return 'x';
  });
  let startCtx: CallContext | undefined;
  await new Executor({ onStart: (_call, ctx) => (startCtx = ctx) }).run([{ id: 'a', tool: t, args: {} }]);
  assert.equal(ctxSeen, startCtx);
  assert.equal(Object.isFrozen(ctxSeen), true);
});

test('onStart waits for a free slot too', async () => {
  const gate = deferred();
  const starts: string[] = [];
  const held = makeTool('held', {}, async () => {
    await gate.promise;
    return 'held';
  });
  const running = new Executor({ maxParallel: 1, onStart: (call) => starts.push(call.id) }).run([
    { id: 'a', tool: held, args: {} },
    { id: 'b', tool: held, args: {} },
  ]);
  await settle();
  assert.deepEqual(starts, ['a']);
  gate.resolve();
  await running;
  assert.deepEqual(starts, ['a', 'b']);
});

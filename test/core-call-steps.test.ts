import { test } from 'node:test';
import assert from 'node:assert/strict';
import { prepareTools, runToolCall, type CallEnd, type PreparedTool } from '../src/runtime/call/index.js';
import { handBuiltArgumentsProblem } from '../src/runtime/call/run.js';
import { AmbiguousOutcomeError, CallTimeoutError, errorFromThrown } from '../src/runtime/call/errors.js';
import { CallTimeLimit, checkTimeout } from '../src/runtime/call/time-limit.js';
import { createPolicy } from '../src/runtime/permissions/index.js';
import {
  ToolError,
  createCallContext,
  type CallContext,
  type ContractTool,
  type ToolOutput,
} from '../src/contract/index.js';
import { ctxOf } from './support/text.js';

// Imports stop at the call core and the contract (never the package root): each mutant runs this
// file in a fresh process, so it loads only what it tests.

/*
 * The call core (`runtime/call`) as mutation testing (`npm run mutate:call`) found it unpinned:
 * every option and tool check with its exact message, the observer, records on both ends, the
 * arguments of hand-built tools, thrown values, and the time limit. See docs/mutation.md.
 */

const call = { id: 'c1', tool: 't', args: {} };

/** A hand-built tool with an object schema; `run` is its `execute`. */
function tool(
  run: (args: unknown, ctx: CallContext) => ToolOutput | Promise<ToolOutput>,
  extra: Partial<ContractTool> = {},
): ContractTool {
  return {
    name: 't',
    description: 'A tool',
    parameters: { type: 'object', properties: { n: { type: 'number' } }, additionalProperties: false },
    execute: run,
    ...extra,
  } as ContractTool;
}

const prepared = (t: ContractTool, options: Parameters<typeof prepareTools>[1] = {}): PreparedTool =>
  prepareTools([t], options).get(t.name)!;

/** The call's end with its error as `{ name, message }`, so ends compare exactly. */
async function endOf(promise: Promise<CallEnd>): Promise<unknown> {
  const end = await promise;
  if (end.ok) return end;
  return {
    ok: false,
    error: { name: end.error.name, message: end.error.message },
    ...(end.record === undefined ? {} : { record: end.record }),
  };
}

test('every bad host option is a TypeError naming it, with where it was given', () => {
  const t = tool(() => 'x');
  const cases: readonly [unknown, string][] = [
    [null, 'host: options must be an object, got null'],
    ['x', 'host: options must be an object, got a string'],
    [{ log: 'stderr' }, 'host: "log" must be a function, got a string'],
    [{ policy: {} }, 'host: "policy" must be a PermissionPolicy (made with createPolicy), got an object'],
    [{ maxOutputChars: 0 }, 'host: "maxOutputChars" must be a positive integer or Infinity, got 0'],
    [{ maxOutputChars: 2.5 }, 'host: "maxOutputChars" must be a positive integer or Infinity, got 2.5'],
    [{ maxOutputChars: -Infinity }, 'host: "maxOutputChars" must be a positive integer or Infinity, got -Infinity'],
    [{ timeoutMs: 0 }, 'host: "timeoutMs" expected a positive number of milliseconds up to 2147483647, got 0'],
  ];
  for (const [options, message] of cases)
    assert.throws(() => prepareTools([t], options as never, 'host'), { name: 'TypeError', message }, message);
  assert.throws(() => prepareTools('t' as never, {}, 'host'), {
    name: 'TypeError',
    message: 'host: tools must be an array of contract tools, got a string',
  });
  assert.throws(() => prepareTools([t, { name: 'u' } as never]), {
    name: 'TypeError',
    message: 'prepareTools: tools[1] is not a contract tool (it needs a string "name" and an "execute" function)',
  });
  assert.throws(() => prepareTools([t, t]), {
    name: 'Error',
    message: 'prepareTools: tool "t" is listed twice; tool names must be unique',
  });
});

test('checkTimeout: undefined or a positive finite number up to MAX_TIMEOUT_MS; anything else is described', () => {
  assert.equal(checkTimeout(undefined), undefined);
  assert.equal(checkTimeout(1), undefined);
  assert.equal(checkTimeout(0.5), undefined);
  assert.equal(checkTimeout(2_147_483_647), undefined);
  const bad: readonly [unknown, string][] = [
    [0, '0'],
    [-1, '-1'],
    [Number.NaN, 'NaN'],
    [Infinity, 'Infinity'],
    [2_147_483_648, '2147483648'],
    ['5', 'a string'],
    [null, 'null'],
  ];
  for (const [value, shown] of bad)
    assert.equal(checkTimeout(value), `expected a positive number of milliseconds up to 2147483647, got ${shown}`);
});

test('every tool that cannot be prepared fails naming the tool and the problem', () => {
  const cases: readonly [Partial<ContractTool>, string][] = [
    [{ name: 'a b' }, 'host: tool "a b": the name must be 1 to 128 characters of A-Za-z0-9, "_", "-" and "."'],
    [
      { timeoutMs: -1 },
      'host: tool "t": timeoutMs: expected a positive number of milliseconds up to 2147483647, got -1',
    ],
    [{ maxOutputChars: 0 }, 'host: tool "t": maxOutputChars: expected a positive integer, got 0'],
    [{ maxOutputChars: 1.5 }, 'host: tool "t": maxOutputChars: expected a positive integer, got 1.5'],
    [{ requires: 'read' as never }, 'host: tool "t": requires: expected an array of requirements, got a string'],
    [
      { parameters: { type: 'array' } as never },
      'host: tool "t": schema: must be a JSON Schema object with "type": "object" at its root',
    ],
    [
      { parameters: [] as never },
      'host: tool "t": schema: must be a JSON Schema object with "type": "object" at its root',
    ],
    [
      { outputSchema: { type: 'string' } as never },
      'host: tool "t": output schema: must be a JSON Schema object with "type": "object" at its root',
    ],
    [
      { parameters: { type: 'object', properties: { n: { type: 'nope' } } } as never },
      'host: tool "t": schema: schema is invalid: data/properties/n/type must be equal to one of the allowed values, data/properties/n/type must be array, data/properties/n/type must match a schema in anyOf',
    ],
  ];
  for (const [extra, message] of cases)
    assert.throws(() => prepareTools([tool(() => 'x', extra)], {}, 'host'), { name: 'Error', message }, message);
});

test("a prepared tool is frozen and keeps its name, the tool as given, and its own time limit before the host's", async () => {
  const own = tool(() => 'x', { timeoutMs: 50 });
  const ready = prepared(own, { timeoutMs: 900 });
  assert.equal(ready.name, 't');
  assert.equal(ready.tool, own);
  assert.equal(ready.timeoutMs, 50);
  assert.equal(Object.isFrozen(ready), true);
  assert.equal(
    prepared(
      tool(() => 'x'),
      { timeoutMs: 900 },
    ).timeoutMs,
    900,
  );
  assert.equal(prepared(tool(() => 'x')).timeoutMs, undefined);
  assert.deepEqual(await runToolCall(ready, {}, ctxOf()), {
    ok: true,
    result: { content: [{ type: 'text', text: 'x' }] },
  });
});

test("a schema in a dialect no validator knows is served unvalidated, and the host's log says so", async () => {
  const lines: string[] = [];
  const unknown = tool((args) => JSON.stringify(args), {
    parameters: { $schema: 'https://example.com/schema', type: 'object' } as never,
  });
  const ready = prepared(unknown, { log: (line) => lines.push(line) });
  assert.deepEqual(lines, [
    'prepareTools: tool "t": schema declares the dialect "https://example.com/schema", which no validator here knows; it is served unvalidated',
  ]);
  assert.deepEqual(await runToolCall(ready, { anything: 1 }, ctxOf()), {
    ok: true,
    result: { content: [{ type: 'text', text: '{"anything":1}' }] },
  });
});

test("the default output bound is 100,000 characters; Infinity switches it off; a tool's own bound wins", async () => {
  const long = 'x'.repeat(100_001);
  const text = async (options: Parameters<typeof prepareTools>[1], extra: Partial<ContractTool> = {}) => {
    const end = await runToolCall(
      prepared(
        tool(() => long, extra),
        options,
      ),
      {},
      ctxOf(),
    );
    assert.ok(end.ok);
    return (end.result.content[0] as { text: string }).text;
  };
  assert.equal(await text({}), `${'x'.repeat(100_000)}\n…[truncated: showing 100,000 of 100,001 characters]`);
  assert.equal(await text({ maxOutputChars: Infinity }), long);
  assert.equal(
    await text({ maxOutputChars: Infinity }, { maxOutputChars: 3 }),
    'xxx\n…[truncated: showing 3 of 100,001 characters]',
  );
  assert.equal((await text({ maxOutputChars: 100_001 })).length, 100_001);
});

test('runToolCall runs only tools prepareTools made', async () => {
  assert.deepEqual(await endOf(runToolCall({ name: 't', call: () => undefined } as never, {}, ctxOf())), {
    ok: false,
    error: { name: 'TypeError', message: 'runToolCall: expected a tool made by prepareTools' },
  });
  assert.deepEqual(await endOf(runToolCall(null as never, {}, ctxOf())), {
    ok: false,
    error: { name: 'TypeError', message: 'runToolCall: expected a tool made by prepareTools' },
  });
  assert.deepEqual(await runToolCall(prepared(tool(() => 'ran')), {}, ctxOf()), {
    ok: true,
    result: { content: [{ type: 'text', text: 'ran' }] },
  });
});

test('a hand-built tool\'s arguments: nothing and "" are {}, anything but an object is refused, then its schema decides', async () => {
  const echo = prepared(tool((args) => JSON.stringify(args)));
  const text = (end: CallEnd) => (end.ok ? (end.result.content[0] as { text: string }).text : end.error.message);
  assert.equal(text(await runToolCall(echo, undefined, ctxOf())), '{}');
  assert.equal(text(await runToolCall(echo, '', ctxOf())), '{}');
  assert.equal(text(await runToolCall(echo, { n: 1 }, ctxOf())), '{"n":1}');
  assert.equal(
    text(await runToolCall(echo, '{"n":1}', ctxOf())),
    'invalid arguments: expected an object, got a string',
  );
  assert.equal(text(await runToolCall(echo, [1], ctxOf())), 'invalid arguments: expected an object, got an array');
  assert.equal(text(await runToolCall(echo, null, ctxOf())), 'invalid arguments: expected an object, got null');
  assert.equal(text(await runToolCall(echo, { n: 'one' }, ctxOf())), 'invalid arguments: /n: must be number');
  const free = prepared(tool((args) => JSON.stringify(args), { parameters: undefined }));
  assert.equal(text(await runToolCall(free, { anything: [1] }, ctxOf())), '{"anything":[1]}');
  assert.equal(text(await runToolCall(free, 7, ctxOf())), 'invalid arguments: expected an object, got a number');
});

test('handBuiltArgumentsProblem answers without running: the refusal text, or undefined', () => {
  let runs = 0;
  const ready = prepared(
    tool(() => {
      runs += 1;
      return 'x';
    }),
  );
  assert.equal(handBuiltArgumentsProblem(ready, { n: 'one' }), 'invalid arguments: /n: must be number');
  assert.equal(handBuiltArgumentsProblem(ready, 'x'), 'invalid arguments: expected an object, got a string');
  assert.equal(handBuiltArgumentsProblem(ready, { n: 1 }), undefined);
  assert.equal(handBuiltArgumentsProblem(ready, undefined), undefined);
  assert.equal(runs, 0);
});

test('the observer: started once right before execute, settled once with the end; a throw from either changes nothing', async () => {
  const seen: string[] = [];
  const ready = prepared(
    tool(() => {
      seen.push('execute');
      return 'done';
    }),
  );
  const end = await runToolCall(ready, {}, ctxOf(), {
    started: () => {
      seen.push('started');
      throw new Error('observer broke');
    },
    settled: (e) => {
      seen.push(`settled ${e.ok}`);
      throw new Error('observer broke again');
    },
  });
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(end, { ok: true, result: { content: [{ type: 'text', text: 'done' }] } });
  assert.deepEqual(seen, ['started', 'execute', 'settled true']);
  const refused: string[] = [];
  await runToolCall(ready, { n: 'x' }, ctxOf(), {
    started: () => refused.push('started'),
    settled: (e) => refused.push(`settled ${e.ok}`),
  });
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(refused, ['settled false']);
});

test("without a policy, @Requires is checked through the context's requirePermission, whose default refuses; a tool without requirements asks nothing", async () => {
  const requires = [{ capabilities: ['read', 'write'], subject: (args: { path: string }) => args.path }];
  const ready = prepared(
    tool((args) => `ran on ${(args as { path: string }).path}`, { parameters: undefined, requires }),
  );
  const asked: unknown[] = [];
  const granting = (granted: string[]) =>
    ctxOf({
      requirePermission: async (request: unknown) => {
        asked.push(request);
        return granted;
      },
    });
  assert.deepEqual(await runToolCall(ready, { path: '/a' }, granting(['read', 'write'])), {
    ok: true,
    result: { content: [{ type: 'text', text: 'ran on /a' }] },
  });
  assert.deepEqual(asked, [{ subject: '/a', capabilities: ['read', 'write'] }]);
  assert.deepEqual(await endOf(runToolCall(ready, { path: '/a' }, granting(['read']))), {
    ok: false,
    error: { name: 'PermissionDeniedError', message: 'permission denied: write on "/a"' },
  });
  assert.deepEqual(await endOf(runToolCall(ready, { path: '/a' }, ctxOf())), {
    ok: false,
    error: {
      name: 'NoPermissionPolicyError',
      message: 'permission denied: no permission policy is configured to grant read, write on "/a"',
    },
  });
  const plain = prepared(tool(() => 'no requirements', { parameters: undefined }));
  assert.deepEqual(await runToolCall(plain, {}, ctxOf()), {
    ok: true,
    result: { content: [{ type: 'text', text: 'no requirements' }] },
  });
});

test("records: the tool's own wins, then the last one written, then the policy's; a failed call keeps the error's, else the written one, else the policy's", async () => {
  const own = { ns: 'own', data: 1 };
  const writes = (ctx: CallContext) => ctx.writeRecord('written', { n: 2 });
  const policy = createPolicy({ rules: [{ effect: 'allow' }] });
  const asks = async (ctx: CallContext) => ctx.requirePermission({ subject: '/a', capabilities: ['read'] });
  const permissionRecord = {
    ns: 'toolwright:permissions',
    data: { decisions: [], grants: [{ subjects: ['/a'], capabilities: ['read'], granted: ['read'] }] },
  };
  const ends = {
    own: await runToolCall(
      prepared(
        tool(async (_a, ctx) => {
          writes(ctx);
          await asks(ctx);
          return { content: [], record: own };
        }),
        { policy },
      ),
      {},
      ctxOf(),
    ),
    writtenUnderPolicy: await runToolCall(
      prepared(
        tool(async (_a, ctx) => {
          writes(ctx);
          await asks(ctx);
          return 'ok';
        }),
        { policy },
      ),
      {},
      ctxOf(),
    ),
    policy: await runToolCall(
      prepared(
        tool(async (_a, ctx) => {
          await asks(ctx);
          return 'ok';
        }),
        { policy },
      ),
      {},
      ctxOf(),
    ),
    written: await runToolCall(
      prepared(
        tool((_a, ctx) => {
          writes(ctx);
          return 'ok';
        }),
      ),
      {},
      ctxOf(),
    ),
    none: await runToolCall(prepared(tool(() => 'ok')), {}, ctxOf()),
  };
  assert.deepEqual(ends.own, { ok: true, result: { content: [], record: own } });
  // A tool's record is never dropped for the permissions record (a host's onRecord hears both).
  assert.deepEqual(ends.writtenUnderPolicy, {
    ok: true,
    result: { content: [{ type: 'text', text: 'ok' }], record: { ns: 'written', data: { n: 2 } } },
  });
  assert.deepEqual(ends.policy, {
    ok: true,
    result: { content: [{ type: 'text', text: 'ok' }], record: permissionRecord },
  });
  assert.deepEqual(ends.written, {
    ok: true,
    result: { content: [{ type: 'text', text: 'ok' }], record: { ns: 'written', data: { n: 2 } } },
  });
  assert.deepEqual(ends.none, { ok: true, result: { content: [{ type: 'text', text: 'ok' }] } });
  const failed = {
    carried: await runToolCall(
      prepared(
        tool((_a, ctx) => {
          writes(ctx);
          throw new ToolError('failed', { record: own });
        }),
      ),
      {},
      ctxOf(),
    ),
    written: await runToolCall(
      prepared(
        tool((_a, ctx) => {
          writes(ctx);
          throw new Error('failed');
        }),
      ),
      {},
      ctxOf(),
    ),
    policy: await runToolCall(
      prepared(
        tool(async (_a, ctx) => {
          await asks(ctx);
          throw new Error('failed');
        }),
        { policy },
      ),
      {},
      ctxOf(),
    ),
    notARecord: await runToolCall(
      prepared(
        tool(() => {
          throw Object.assign(new Error('failed'), { record: 'text' });
        }),
      ),
      {},
      ctxOf(),
    ),
    nullRecord: await runToolCall(
      prepared(
        tool(() => {
          throw Object.assign(new Error('failed'), { record: null });
        }),
      ),
      {},
      ctxOf(),
    ),
  };
  assert.deepEqual(failed.carried.ok === false && failed.carried.record, own);
  assert.deepEqual(failed.written.ok === false && failed.written.record, { ns: 'written', data: { n: 2 } });
  assert.deepEqual(failed.policy.ok === false && failed.policy.record, permissionRecord);
  assert.equal(Object.hasOwn(failed.notARecord, 'record'), false);
  assert.equal(Object.hasOwn(failed.nullRecord, 'record'), false);
});

test('an output schema: matching structured content passes, a result without it fails, an isError result is let through', async () => {
  const outputSchema = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } as never;
  const run = async (output: ToolOutput) =>
    endOf(runToolCall(prepared(tool(() => output, { outputSchema })), {}, ctxOf()));
  assert.deepEqual(await run({ content: [], structuredContent: { n: 1 } }), {
    ok: true,
    result: { content: [], structuredContent: { n: 1 } },
  });
  assert.deepEqual(await run({ content: [], isError: true }), { ok: true, result: { content: [], isError: true } });
  assert.deepEqual(await run('plain'), {
    ok: false,
    error: {
      name: 'OutputSchemaMismatchError',
      message: 'structured content does not match the output schema: the tool returned no structured content',
    },
  });
  assert.deepEqual(await run({ content: [], structuredContent: { n: 'one' } }), {
    ok: false,
    error: {
      name: 'OutputSchemaMismatchError',
      message: 'structured content does not match the output schema: /n: must be number',
    },
  });
});

test('errorFromThrown: an Error is kept; any other value is described in "tool \\"x\\" threw: ..." with itself as the cause', () => {
  const error = new RangeError('kept');
  assert.equal(errorFromThrown('x', error), error);
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  const cases: readonly [unknown, string][] = [
    ['oops', 'tool "x" threw: "oops"'],
    [{ code: 7 }, 'tool "x" threw: {"code":7}'],
    [[1, 'a'], 'tool "x" threw: [1,"a"]'],
    [cyclic, 'tool "x" threw: [object Object]'],
    [{ toJSON: () => undefined }, 'tool "x" threw: [object Object]'],
    [42, 'tool "x" threw: 42'],
    [undefined, 'tool "x" threw: undefined'],
    [null, 'tool "x" threw: null'],
    [Symbol('s'), 'tool "x" threw: Symbol(s)'],
  ];
  for (const [thrown, message] of cases) {
    const made = errorFromThrown('x', thrown);
    assert.equal(made.constructor, Error);
    assert.equal(made.message, message);
    assert.equal(made.cause, thrown);
  }
});

test('AmbiguousOutcomeError and CallTimeoutError: codes, names, cause and the time limit', () => {
  const cause = new Error('socket closed');
  const ambiguous = new AmbiguousOutcomeError('lost the answer', { cause });
  assert.deepEqual(
    [ambiguous.name, ambiguous.code, ambiguous.message, ambiguous.cause],
    ['AmbiguousOutcomeError', 'ambiguous-outcome', 'lost the answer', cause],
  );
  assert.equal(new AmbiguousOutcomeError('x').code, 'ambiguous-outcome');
  assert.equal(new AmbiguousOutcomeError('x', { code: 'own-code' }).code, 'own-code');
  const timeout = new CallTimeoutError('slow', 25);
  assert.deepEqual(
    [timeout.name, timeout.code, timeout.message, timeout.timeoutMs],
    ['CallTimeoutError', 'call-timeout', 'tool "slow" timed out after 25 ms', 25],
  );
  assert.ok(timeout instanceof AmbiguousOutcomeError);
});

test("a call past its time limit ends at once with CallTimeoutError; the tool's signal aborts with it; settled sees the tool's own end later", async () => {
  let finish!: (text: string) => void;
  let seenSignal: AbortSignal | undefined;
  const slow = prepared(
    tool(
      (_a, ctx) => {
        seenSignal = ctx.signal;
        return new Promise<string>((resolve) => {
          finish = resolve;
        });
      },
      { timeoutMs: 5 },
    ),
  );
  const settled: CallEnd[] = [];
  const end = await runToolCall(slow, {}, ctxOf(), { settled: (e) => settled.push(e) });
  assert.deepEqual(await endOf(Promise.resolve(end)), {
    ok: false,
    error: { name: 'CallTimeoutError', message: 'tool "t" timed out after 5 ms' },
  });
  assert.equal(seenSignal!.aborted, true);
  assert.equal(seenSignal!.reason, (end as { error: Error }).error);
  assert.deepEqual(settled, []);
  finish('late');
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(settled, [{ ok: true, result: { content: [{ type: 'text', text: 'late' }] } }]);
});

test("CallTimeLimit: a synchronous throw is the run's rejection and starts no timer; contextFor keeps getters and makes the signal once", async () => {
  const limit = new CallTimeLimit('t', 5);
  const thrown = new Error('sync');
  await assert.rejects(
    limit.run(() => {
      throw thrown;
    }),
    (err: unknown) => err === thrown,
  );
  let reads = 0;
  const base = createCallContext({ call });
  const withGetter = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(base)) withGetter[key] = (base as unknown as Record<string, unknown>)[key];
  Object.defineProperty(withGetter, 'lazy', { enumerable: true, get: () => (reads += 1) });
  const ctx = limit.contextFor(withGetter as unknown as CallContext) as unknown as Record<string, unknown>;
  assert.equal(reads, 0);
  assert.equal(ctx.lazy, 1);
  assert.equal(ctx.lazy, 2);
  assert.equal(ctx.call, base.call);
  const signal = ctx.signal as AbortSignal;
  assert.equal(ctx.signal, signal);
  assert.equal(signal.aborted, false);
  assert.equal(Object.isFrozen(ctx), true);
  const late = new CallTimeLimit('late', 1);
  void late.run(() => new Promise<string>(() => undefined));
  const end = await late.expired;
  assert.equal(end.error.message, 'tool "late" timed out after 1 ms');
  const after = late.contextFor(base).signal;
  assert.deepEqual([after.aborted, after.reason], [true, end.error]);
});

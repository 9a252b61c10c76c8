import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createCallContext, createPolicy, prepareTools, runToolCall, type Interceptor } from '../src/runtime/index.js';
import { createValidator, type SchemaValidator } from '../src/compiler/index.js';
import { type CallContext, type ContractTool } from '../src/index.js';

/*
 * The call core's fixed order (see runToolCall): arguments, permissions, interceptors, time
 * limit, execute, output check, output bounds, records. Each step leaves a mark in `trace`.
 */

function tracingValidator(trace: string[]): SchemaValidator {
  const inner = createValidator();
  return {
    compile(schema) {
      const validate = inner.compile(schema);
      const label = (schema as { title?: string }).title ?? 'schema';
      const traced = ((data: unknown) => {
        trace.push(`validate ${label}`);
        const ok = validate(data);
        traced.errors = validate.errors;
        return ok;
      }) as ReturnType<SchemaValidator['compile']>;
      return traced;
    },
  };
}

test('a call runs its steps in the documented order; a question waits in place (the tool is not run again)', async () => {
  const trace: string[] = [];
  const tool: ContractTool = {
    name: 'ordered',
    description: 'Leaves a mark in every step',
    parameters: { title: 'arguments', type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    outputSchema: { title: 'output', type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
    timeoutMs: 60_000,
    requires: [
      {
        capabilities: ['write'],
        subject: (args: { path: string }) => {
          trace.push('requirements');
          return args.path;
        },
      },
    ],
    async execute(_args: unknown, ctx: CallContext) {
      trace.push(`execute (signal aborted: ${ctx.signal.aborted})`);
      return { content: [{ type: 'text', text: 'a long text to cut' }], structuredContent: { n: 1 } };
    },
  };
  const interceptor: Interceptor = {
    name: 'mark',
    before: () => {
      trace.push('before');
    },
    after: (result) => {
      trace.push('after');
      return result;
    },
  };
  let questions = 0;
  const policy = createPolicy({
    ask: () => {
      questions += 1;
      trace.push('ask');
      return { decision: 'allow_once' };
    },
  });
  const prepared = prepareTools([tool], {
    policy,
    interceptors: [interceptor],
    maxOutputChars: 8,
    validator: tracingValidator(trace),
  }).get('ordered')!;
  const end = await runToolCall(
    prepared,
    { path: '/a' },
    createCallContext({ call: { id: '1', tool: 'ordered', args: {} } }),
  );
  assert.deepEqual(trace, [
    'validate arguments',
    'requirements',
    'ask',
    'before',
    'execute (signal aborted: false)',
    'after',
    'validate output',
  ]);
  assert.equal(questions, 1);
  assert.deepEqual(end, {
    ok: true,
    result: {
      content: [{ type: 'text', text: 'a long t\n…[truncated: showing 8 of 18 characters]' }],
      structuredContent: { n: 1 },
      record: {
        ns: 'toolwright:permissions',
        data: {
          decisions: [{ subject: '/a', capabilities: ['write'], decision: 'allow_once' }],
          grants: [{ subjects: ['/a'], capabilities: ['write'], granted: ['write'] }],
        },
      },
    },
  });
});

test('a step that fails ends the call there: no later step runs', async () => {
  const trace: string[] = [];
  const tool: ContractTool = {
    name: 'ordered',
    description: 'Leaves a mark when it runs',
    parameters: { title: 'arguments', type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    requires: [
      {
        capabilities: ['write'],
        subject: (args: { path: string }) => {
          trace.push('requirements');
          return args.path;
        },
      },
    ],
    async execute() {
      trace.push('execute');
      return 'ran';
    },
  };
  const interceptor: Interceptor = {
    before: () => {
      trace.push('before');
    },
  };
  const policy = createPolicy({
    rules: [{ effect: 'deny', path: '/etc/**', reason: 'system files' }, { effect: 'allow' }],
  });
  const prepared = prepareTools([tool], {
    policy,
    interceptors: [interceptor],
    validator: tracingValidator(trace),
  }).get('ordered')!;
  const ctx = createCallContext({ call: { id: '1', tool: 'ordered', args: {} } });
  const invalid = await runToolCall(prepared, {}, ctx);
  assert.deepEqual(trace.splice(0), ['validate arguments']);
  assert.equal(!invalid.ok && invalid.error.message, 'invalid arguments: /: must have required property "path"');
  const denied = await runToolCall(prepared, { path: '/etc/passwd' }, ctx);
  assert.deepEqual(trace.splice(0), ['validate arguments', 'requirements']);
  assert.equal(!denied.ok && denied.error.message, 'permission denied: write on "/etc/passwd": system files');
  const ran = await runToolCall(prepared, { path: '/tmp/a' }, ctx);
  assert.deepEqual(trace.splice(0), ['validate arguments', 'requirements', 'before', 'execute']);
  assert.equal(ran.ok, true);
});

test('a run that timed out never has its late permission requests put to the user', async () => {
  let asked = 0;
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const tool: ContractTool = {
    name: 'late',
    description: 'Asks for a permission only after its time is up',
    timeoutMs: 20,
    async execute(_args: unknown, ctx: CallContext) {
      await released;
      await ctx.requirePermission({ subject: '/a', capabilities: ['write'] });
      return 'wrote';
    },
  };
  const policy = createPolicy({
    ask: () => {
      asked += 1;
      return { decision: 'allow_once' };
    },
  });
  const prepared = prepareTools([tool], { policy }).get('late')!;
  let settled!: (end: unknown) => void;
  const settledEnd = new Promise((resolve) => {
    settled = resolve;
  });
  const end = await runToolCall(prepared, {}, createCallContext({ call: { id: '1', tool: 'late', args: {} } }), {
    settled,
  });
  assert.equal(
    !end.ok && `${end.error.name}: ${end.error.message}`,
    'CallTimeoutError: tool "late" timed out after 20 ms',
  );
  release();
  const late = (await settledEnd) as { ok: boolean; error?: Error };
  assert.equal(
    late.ok === false && `${late.error!.name}: ${late.error!.message}`,
    'CallTimeoutError: tool "late" timed out after 20 ms',
  );
  assert.equal(asked, 0);
});

test('the core runs only tools prepareTools made: a look-alike is refused, never run unchecked', async () => {
  const { runToolCall } = await import('../src/runtime/index.js');
  let runs = 0;
  const tool: ContractTool = {
    name: 't',
    description: 'T',
    parameters: { type: 'object', properties: {}, additionalProperties: false },
    async execute() {
      runs += 1;
      return 'ran';
    },
  };
  const lookAlike = {
    name: 't',
    tool,
    timeoutMs: undefined,
    call: () => Promise.resolve({ ok: true as const, result: { content: [] } }),
  };
  const end = await runToolCall(lookAlike, { extra: 1 }, createCallContext({ call: { id: '1', tool: 't', args: {} } }));
  assert.equal(
    !end.ok && `${end.error.name}: ${end.error.message}`,
    'TypeError: runToolCall: expected a tool made by prepareTools',
  );
  const real = await runToolCall(
    prepareTools([tool]).get('t')!,
    { extra: 1 },
    createCallContext({ call: { id: '1', tool: 't', args: {} } }),
  );
  assert.equal(!real.ok && real.error.message, 'invalid arguments: /: must NOT have additional property "extra"');
  assert.equal(runs, 0);
});

test("a rewrite an interceptor chooses is validated and its requirements are checked, as the model's arguments were", async () => {
  const runs: unknown[] = [];
  const rewriteTo = { current: {} as Record<string, unknown> };
  const tool: ContractTool = {
    name: 'mover',
    description: 'Writes to a path; its facts offer a rewrite',
    parameters: {
      type: 'object',
      properties: { path: { type: 'string' } },
      required: ['path'],
      additionalProperties: false,
    },
    requires: [{ capabilities: ['write'], subject: (args: { path: string }) => args.path }],
    facts: async () => ({ calls: null, rewrite: rewriteTo.current as never }),
    async execute(args: unknown) {
      runs.push(args);
      return 'moved';
    },
  };
  const rewrite: Interceptor = { name: 'rewrite', before: () => ({ action: 'rewrite' }) };
  const policy = createPolicy({
    rules: [{ effect: 'deny', path: '/etc/**', reason: 'system files' }, { effect: 'allow' }],
  });
  const prepared = prepareTools([tool], { policy, interceptors: [rewrite] }).get('mover')!;
  const call = () =>
    runToolCall(prepared, { path: '/tmp/a' }, createCallContext({ call: { id: '1', tool: 'mover', args: {} } }));
  rewriteTo.current = { path: '/tmp/b' };
  const moved = await call();
  assert.deepEqual(moved.ok && moved.result.record, {
    ns: 'toolwright:permissions',
    data: {
      decisions: [],
      grants: [
        { subjects: ['/tmp/a'], capabilities: ['write'], granted: ['write'] },
        { subjects: ['/tmp/b'], capabilities: ['write'], granted: ['write'] },
      ],
    },
  });
  rewriteTo.current = { path: '/etc/passwd' };
  const denied = await call();
  assert.equal(!denied.ok && denied.error.message, 'permission denied: write on "/etc/passwd": system files');
  rewriteTo.current = { path: 7 };
  const invalid = await call();
  assert.equal(!invalid.ok && invalid.error.message, 'invalid arguments: /path: must be string');
  assert.deepEqual(runs, [{ path: '/tmp/b' }]);
});

test('a compiled tool runs a rewrite through its own pipeline: the class gets a DTO of the rewrite', async () => {
  const { compile, Facts, Tool } = await import('../src/index.js');
  const { IsInt, Max } = await import('class-validator');
  const seen: unknown[] = [];
  class LimitArgs {
    limit!: number;
  }
  IsInt()(LimitArgs.prototype, 'limit');
  Max(100)(LimitArgs.prototype, 'limit');
  class Lister {
    execute(args: LimitArgs) {
      seen.push({ isDto: args instanceof LimitArgs, limit: args.limit });
      return `listed ${args.limit}`;
    }
    facts(args: LimitArgs) {
      return { calls: null, rewrite: { limit: args.limit === 99 ? 500 : Math.min(args.limit, 10) } };
    }
  }
  Facts()(Lister.prototype, 'facts', Object.getOwnPropertyDescriptor(Lister.prototype, 'facts')!);
  Tool({ name: 'lister', description: 'Lists, at most 10 unless rewritten', args: LimitArgs })(Lister);
  const rewrite: Interceptor = { before: () => ({ action: 'rewrite' }) };
  const prepared = prepareTools(compile([Lister]), { interceptors: [rewrite] }).get('lister')!;
  const ctx = createCallContext({ call: { id: '1', tool: 'lister', args: {} } });
  const listed = await runToolCall(prepared, { limit: 50 }, ctx);
  assert.deepEqual(listed.ok && listed.result.content, [{ type: 'text', text: 'listed 10' }]);
  const refused = await runToolCall(prepared, { limit: 99 }, ctx);
  assert.equal(!refused.ok && refused.error.message, 'invalid arguments: /limit: must be <= 100');
  assert.deepEqual(seen, [{ isDto: true, limit: 10 }]);
});

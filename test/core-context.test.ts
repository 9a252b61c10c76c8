import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IsString } from 'class-validator';
import {
  compile,
  Facts,
  Requires,
  Tool,
  type CallContext,
  type Principal,
  type TransportRequest,
} from '../src/index.js';
import { createCallContext, createPolicy, Executor } from '../src/runtime/index.js';
import { type Class } from '../src/compiler/index.js';
import { makeTool, plain } from './support/executor-tools.js';
import { throughCore } from './support/core-tools.js';

const PRINCIPAL: Principal = {
  subject: 'user-7',
  clientId: 'app',
  scopes: ['files:write'],
  claims: { tenant: 'acme' },
};
const REQUEST: TransportRequest = {
  headers: { authorization: 'Bearer t', 'x-trace': ['a', 'b'] },
  raw: { kind: 'raw request' },
};

test('a call context has room for the principal and the transport request, undefined by default', () => {
  const bare = createCallContext({ call: { id: '1', tool: 't', args: {} } });
  assert.equal(bare.principal, undefined);
  assert.equal(bare.request, undefined);
  assert.ok('principal' in bare && 'request' in bare, 'both members are always present');
  const filled = createCallContext({ call: { id: '1', tool: 't', args: {} }, principal: PRINCIPAL, request: REQUEST });
  assert.equal(filled.principal, PRINCIPAL);
  assert.equal(filled.request, REQUEST);
});

test('the principal and request a host gives reach the tool through every step (policy, time limit)', async () => {
  const seen: unknown[] = [];
  const probe = makeTool('probe', { timeoutMs: 60_000 }, async (_args, ctx) => {
    await ctx.requirePermission({ subject: '/a', capabilities: ['read'] });
    seen.push({ principal: ctx.principal, request: ctx.request, aborted: ctx.signal.aborted });
    return 'ok';
  });
  const executor = new Executor({
    context: { principal: PRINCIPAL, request: REQUEST },
    policy: createPolicy({ rules: [{ effect: 'allow' }] }),
  });
  const outcomes = await executor.run([{ id: 'a', tool: probe, args: {} }]);
  assert.deepEqual(outcomes.map(plain), [
    {
      id: 'a',
      tool: 'probe',
      started: true,
      ok: true,
      result: {
        content: [{ type: 'text', text: 'ok' }],
        record: {
          ns: 'toolwright:permissions',
          data: { decisions: [], grants: [{ subjects: ['/a'], capabilities: ['read'], granted: ['read'] }] },
        },
      },
    },
  ]);
  assert.deepEqual(seen, [{ principal: PRINCIPAL, request: REQUEST, aborted: false }]);
});

/** A tool class whose instance is made per call; `made` lists the principal each instance was made for. */
function perCallTool(made: string[], log: string[]) {
  class NoteArgs {
    @IsString() text!: string;
  }
  @Tool({ name: 'note', description: 'Writes a note for the caller', args: NoteArgs })
  @Requires({ capabilities: ['write'], subject: (a: NoteArgs) => `/notes/${a.text}` })
  class NoteTool {
    constructor(private readonly owner: string) {}
    async execute(args: NoteArgs) {
      log.push(`execute ${this.owner}`);
      return `${this.owner}: ${args.text}`;
    }
    @Facts()
    facts(args: NoteArgs) {
      return { calls: [{ tool: 'write', args: { owner: this.owner, text: args.text } }] };
    }
  }
  const resolveForCall = async (cls: Class, ctx: CallContext) => {
    const owner = ctx.principal?.subject ?? 'anonymous';
    log.push(`resolve ${owner}`);
    await new Promise((resolve) => setImmediate(resolve));
    made.push(owner);
    return new (cls as new (owner: string) => object)(owner);
  };
  return { NoteTool, resolveForCall };
}

test("resolveForCall makes the instance per call, asynchronously, with the call's context, after validation and permissions", async () => {
  const made: string[] = [];
  const log: string[] = [];
  const { NoteTool, resolveForCall } = perCallTool(made, log);
  const [tool] = compile([NoteTool], { resolveForCall });
  assert.equal(tool!.close, undefined, 'no compile-time instance, so nothing to close');
  const runner = throughCore(tool!, {
    policy: createPolicy({
      rules: [
        { effect: 'allow', path: '/notes/ok' },
        { effect: 'deny', reason: 'no' },
      ],
    }),
  });
  const ctxOf = (principal?: Principal) =>
    createCallContext({ call: { id: '1', tool: 'note', args: {} }, ...(principal === undefined ? {} : { principal }) });
  assert.deepEqual((await runner.execute({ text: 'ok' }, ctxOf(PRINCIPAL))).content, [
    { type: 'text', text: 'user-7: ok' },
  ]);
  assert.deepEqual((await runner.execute({ text: 'ok' }, ctxOf())).content, [{ type: 'text', text: 'anonymous: ok' }]);
  await assert.rejects(runner.execute({ text: 5 }, ctxOf(PRINCIPAL)), {
    name: 'InvalidArgumentsError',
    message: 'invalid arguments: /text: must be string',
  });
  await assert.rejects(runner.execute({ text: 'secret' }, ctxOf(PRINCIPAL)), {
    name: 'PermissionDeniedError',
    message: 'permission denied: write on "/notes/secret": no',
  });
  assert.deepEqual(made, ['user-7', 'anonymous'], 'refused calls never made an instance');
  assert.deepEqual(log, ['resolve user-7', 'execute user-7', 'resolve anonymous', 'execute anonymous']);
  assert.deepEqual(await tool!.facts!({ text: 'x' }, ctxOf(PRINCIPAL)), {
    calls: [{ tool: 'write', args: { owner: 'user-7', text: 'x' } }],
  });
});

test('resolveForCall failures fail the call, naming the class; misuse of the option is a TypeError', async () => {
  const { NoteTool } = perCallTool([], []);
  const ctx = createCallContext({
    call: { id: '1', tool: 'note', args: {} },
    requirePermission: async () => ['write'],
  });
  const [failing] = compile([NoteTool], {
    resolveForCall: async () => {
      throw new Error('no request scope');
    },
  });
  await assert.rejects(throughCore(failing!).execute({ text: 'a' }, ctx), {
    message: 'class NoteTool: resolveForCall() failed: no request scope',
  });
  const [empty] = compile([NoteTool], { resolveForCall: () => ({}) });
  await assert.rejects(throughCore(empty!).execute({ text: 'a' }, ctx), {
    name: 'TypeError',
    message:
      'class NoteTool: resolveForCall() returned an object without an execute() method; return an instance of NoteTool',
  });
  assert.throws(
    () => compile([NoteTool], { resolve: (cls) => new (cls as new () => object)(), resolveForCall: () => ({}) }),
    {
      name: 'TypeError',
      message: 'compile(): give "resolve" (one instance per class) or "resolveForCall" (one per call), not both',
    },
  );
  assert.throws(() => compile([NoteTool], { resolveForCall: 'x' as never }), {
    name: 'TypeError',
    message: 'compile(): "resolveForCall" must be a function (cls, ctx) => instance, got a string',
  });
});

test('a tool consumed from another server is the documented exception: its schemas are never compiled or checked here (a local tool with the same draft-07 schemas is checked in that dialect)', async () => {
  const { markRemoteTool } = await import('../src/runtime/call/remote.js');
  const { Executor: HostExecutor } = await import('../src/runtime/index.js');
  const draft07 = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: { n: { type: 'number' } },
    required: ['n'],
  };
  const seen: unknown[] = [];
  const remote = markRemoteTool({
    name: 'remote_count',
    description: 'Forwards to another server, which validates',
    parameters: draft07 as never,
    outputSchema: draft07 as never,
    execute: async (args: unknown) => {
      seen.push(args);
      return 'forwarded';
    },
  });
  const local = { ...remote, name: 'local_count' };
  const executor = new HostExecutor();
  const outcomes = await executor.run([
    { id: 'a', tool: remote, args: { n: 'not a number' } },
    { id: 'b', tool: remote, args: 'not an object' },
    { id: 'c', tool: local, args: { n: 1 } },
  ]);
  assert.deepEqual(outcomes.map(plain), [
    {
      id: 'a',
      tool: 'remote_count',
      started: true,
      ok: true,
      result: { content: [{ type: 'text', text: 'forwarded' }] },
    },
    {
      id: 'b',
      tool: 'remote_count',
      started: false,
      ok: false,
      error: 'InvalidArgumentsError: invalid arguments: expected an object, got a string',
    },
    {
      id: 'c',
      tool: 'local_count',
      started: true,
      ok: false,
      error:
        'OutputSchemaMismatchError: structured content does not match the output schema: the tool returned no structured content',
    },
  ]);
  assert.deepEqual(seen, [{ n: 'not a number' }, { n: 1 }]);
});

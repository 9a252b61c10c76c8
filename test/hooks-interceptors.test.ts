import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createCallContext, Executor, prepareTools, type Interceptor } from '../src/runtime/index.js';
import { createServer } from '../src/mcp/index.js';
import { type CallContext, type ContractTool, type ToolFacts } from '../src/index.js';
import { throughCore } from './support/core-tools.js';

function ctxFor(tool: string, args: unknown): CallContext {
  return createCallContext({ call: { id: '1', tool, args } });
}

function echo(seen: unknown[], facts?: (args: unknown) => ToolFacts): ContractTool {
  return {
    name: 'echo',
    description: 'Echoes',
    ...(facts === undefined ? {} : { facts: async (args: unknown) => facts(args) }),
    async execute(args: unknown) {
      seen.push(args);
      return `ran with ${JSON.stringify(args)}`;
    },
  };
}

test('before runs in order, after in reverse order, like middleware', async () => {
  const trace: string[] = [];
  const logging = (name: string): Interceptor => ({
    name,
    before: () => {
      trace.push(`before ${name}`);
    },
    after: (result) => {
      trace.push(`after ${name}`);
      return { ...result, content: [...result.content, { type: 'text', text: name }] };
    },
  });
  const [tool] = [throughCore(echo([]), { interceptors: [logging('a'), logging('b')] })];
  const result = await tool!.execute({ x: 1 }, ctxFor('echo', { x: 1 }));
  assert.deepEqual(trace, ['before a', 'before b', 'after b', 'after a']);
  assert.deepEqual(result, {
    content: [
      { type: 'text', text: 'ran with {"x":1}' },
      { type: 'text', text: 'b' },
      { type: 'text', text: 'a' },
    ],
  });
});

test('a refusal stops the call before the tool runs; later interceptors and afters are skipped', async () => {
  const seen: unknown[] = [];
  const trace: string[] = [];
  const tool = throughCore(echo(seen), {
    interceptors: [
      {
        after: () => {
          trace.push('after outer');
        },
      },
      {
        name: 'no-secrets',
        before: (call) =>
          JSON.stringify(call.args).includes('secret')
            ? { action: 'refuse', reason: 'the arguments mention a secret' }
            : undefined,
      },
      {
        before: () => {
          trace.push('before inner');
        },
      },
    ],
  });
  await assert.rejects(tool.execute({ q: 'secret' }, ctxFor('echo', {})), {
    name: 'CallRefusedError',
    message: 'call refused by "no-secrets": the arguments mention a secret',
  });
  assert.deepEqual(seen, []);
  assert.deepEqual(trace, []);
  const unnamed = throughCore(echo(seen), {
    interceptors: [{ before: () => ({ action: 'refuse', reason: 'closed' }) }],
  });
  await assert.rejects(unnamed.execute({}, ctxFor('echo', {})), { message: 'call refused: closed' });
  const throwing = throughCore(echo(seen), {
    interceptors: [
      {
        before: () => {
          throw new Error('audit log unavailable');
        },
      },
    ],
  });
  await assert.rejects(throwing.execute({}, ctxFor('echo', {})), { message: 'audit log unavailable' });
  assert.deepEqual(seen, []);
});

test("the arguments can be replaced only by the rewrite the tool's facts claim", async () => {
  const seen: unknown[] = [];
  const stamped = echo(seen, (args) => ({ calls: null, rewrite: { ...(args as object), stamp: 'k1' } }));
  const answers: unknown[] = [];
  const asked: Interceptor = {
    before: async (call) => {
      answers.push(await call.facts());
      return { action: 'rewrite' };
    },
  };
  const viewed: unknown[] = [];
  const viewer: Interceptor = {
    before: (call) => {
      viewed.push({ args: call.args, rewritten: call.rewritten });
    },
  };
  const tool = throughCore(stamped, { interceptors: [asked, viewer, asked] });
  assert.deepEqual(await tool.execute({ cmd: 'ls' }, ctxFor('echo', {})), {
    content: [{ type: 'text', text: 'ran with {"cmd":"ls","stamp":"k1"}' }],
  });
  assert.deepEqual(seen, [{ cmd: 'ls', stamp: 'k1' }]);
  assert.deepEqual(viewed, [{ args: { cmd: 'ls', stamp: 'k1' }, rewritten: true }]);
  const claimed = { claimed: true, facts: { calls: null, rewrite: { cmd: 'ls', stamp: 'k1' } } };
  assert.deepEqual(answers, [claimed, claimed], 'the facts of the original arguments, asked once');

  const plain = throughCore(
    echo(seen, () => ({ calls: [] })),
    { interceptors: [{ before: () => ({ action: 'rewrite' }) }] },
  );
  await assert.rejects(plain.execute({ cmd: 'ls' }, ctxFor('echo', {})), {
    name: 'RewriteUnavailableError',
    message: 'cannot run with a rewrite: tool "echo" claims no rewrite for these arguments',
  });
  const noFacts = throughCore(echo(seen), { interceptors: [{ before: () => ({ action: 'rewrite' }) }] });
  await assert.rejects(noFacts.execute({}, ctxFor('echo', {})), {
    message: 'cannot run with a rewrite: tool "echo" claims no rewrite for these arguments',
  });
  const failing = throughCore(
    echo(seen, () => {
      throw new Error('cannot parse the command');
    }),
    { interceptors: [{ before: () => ({ action: 'rewrite' }) }] },
  );
  await assert.rejects(failing.execute({}, ctxFor('echo', {})), {
    message: 'cannot run with a rewrite: tool "echo" could not state its facts (cannot parse the command)',
  });
  assert.equal(seen.length, 1);
});

test('facts are asked once per call and only when wanted', async () => {
  let asked = 0;
  const tool = echo([], () => {
    asked += 1;
    return { calls: [{ tool: 'read', args: { path: '.env' } }] };
  });
  const answers: unknown[] = [];
  const reader: Interceptor = {
    before: async (call) => {
      answers.push(await call.facts());
    },
  };
  await throughCore(tool, { interceptors: [reader, reader] }).execute({}, ctxFor('echo', {}));
  assert.equal(asked, 1);
  const answer = { claimed: true, facts: { calls: [{ tool: 'read', args: { path: '.env' } }] } };
  assert.deepEqual(answers, [answer, answer]);
  await throughCore(tool, { interceptors: [{ after: () => undefined }] }).execute({}, ctxFor('echo', {}));
  assert.equal(asked, 1);
});

test('after sees results as ToolResult, may keep or replace them; errors pass through', async () => {
  const tool = throughCore(echo([]), {
    interceptors: [
      {
        after: (result) => {
          assert.deepEqual(result, { content: [{ type: 'text', text: 'ran with {}' }] });
          return 'replaced';
        },
      },
    ],
  });
  assert.deepEqual(await tool.execute({}, ctxFor('echo', {})), { content: [{ type: 'text', text: 'replaced' }] });
  let afterCalled = false;
  const failing = throughCore(
    {
      name: 'f',
      description: 'F',
      async execute() {
        throw new Error('boom');
      },
    },
    {
      interceptors: [
        {
          after: () => {
            afterCalled = true;
          },
        },
      ],
    },
  );
  await assert.rejects(failing.execute({}, ctxFor('f', {})), { message: 'boom' });
  assert.equal(afterCalled, false);
  const bad = throughCore(echo([]), { interceptors: [{ name: 'broken', after: () => 42 as never }] });
  await assert.rejects(bad.execute({}, ctxFor('echo', {})), {
    name: 'InterceptorError',
    message:
      'interceptor "broken": after() must return a tool output (a string, content parts or a result with content) or nothing, got a number',
  });
  const badBefore = throughCore(echo([]), { interceptors: [{ before: () => ({ action: 'skip' }) as never }] });
  await assert.rejects(badBefore.execute({}, ctxFor('echo', {})), {
    message:
      "interceptor 1: before() must answer nothing, { action: 'continue' }, { action: 'refuse', reason } or { action: 'rewrite' }, got {\"action\":\"skip\"}",
  });
});

test('interceptors are checked when a host is made, naming the host', () => {
  assert.throws(() => prepareTools([echo([])], { interceptors: [{} as Interceptor] }), {
    name: 'TypeError',
    message: 'prepareTools: interceptor 1 has neither before() nor after()',
  });
  assert.throws(() => prepareTools([echo([])], { interceptors: [{ before: 'x' } as never] }), {
    message: 'prepareTools: interceptor 1: "before" must be a function',
  });
  assert.throws(() => new Executor({ interceptors: 'x' as never }), {
    name: 'TypeError',
    message: 'Executor: "interceptors" must be an array',
  });
  assert.throws(
    () =>
      createServer({ name: 's', version: '1' }, [], { interceptors: [{ name: 7, before: () => undefined } as never] }),
    { message: 'createServer: interceptor 1: "name" must be a string' },
  );
});

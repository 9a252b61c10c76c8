import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyInterceptors, withInterceptors, createCallContext, type Interceptor } from '../src/runtime/index.js';
import { type CallContext, type ContractTool, type ToolFacts } from '../src/index.js';

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
    before: () => { trace.push(`before ${name}`); },
    after: (result) => { trace.push(`after ${name}`); return { ...result, content: [...result.content, { type: 'text', text: name }] }; },
  });
  const [tool] = applyInterceptors([echo([])], [logging('a'), logging('b')]);
  const result = await tool!.execute({ x: 1 }, ctxFor('echo', { x: 1 }));
  assert.deepEqual(trace, ['before a', 'before b', 'after b', 'after a']);
  assert.deepEqual(result, { content: [{ type: 'text', text: 'ran with {"x":1}' }, { type: 'text', text: 'b' }, { type: 'text', text: 'a' }] });
});

test('a refusal stops the call before the tool runs; later interceptors and afters are skipped', async () => {
  const seen: unknown[] = [];
  const trace: string[] = [];
  const tool = withInterceptors(echo(seen), [
    { after: () => { trace.push('after outer'); } },
    { name: 'no-secrets', before: (call) => (JSON.stringify(call.args).includes('secret') ? { action: 'refuse', reason: 'the arguments mention a secret' } : undefined) },
    { before: () => { trace.push('before inner'); } },
  ]);
  await assert.rejects(tool.execute({ q: 'secret' }, ctxFor('echo', {})), { name: 'CallRefusedError', message: 'call refused by "no-secrets": the arguments mention a secret' });
  assert.deepEqual(seen, []);
  assert.deepEqual(trace, []);
  const unnamed = withInterceptors(echo(seen), [{ before: () => ({ action: 'refuse', reason: 'closed' }) }]);
  await assert.rejects(unnamed.execute({}, ctxFor('echo', {})), { message: 'call refused: closed' });
  const throwing = withInterceptors(echo(seen), [{ before: () => { throw new Error('audit log unavailable'); } }]);
  await assert.rejects(throwing.execute({}, ctxFor('echo', {})), { message: 'audit log unavailable' });
  assert.deepEqual(seen, []);
});

test('the arguments can be replaced only by the rewrite the tool\'s facts claim', async () => {
  const seen: unknown[] = [];
  const stamped = echo(seen, (args) => ({ calls: null, rewrite: { ...(args as object), stamp: 'k1' } }));
  const answers: unknown[] = [];
  const asked: Interceptor = { before: async (call) => { answers.push(await call.facts()); return { action: 'rewrite' }; } };
  const viewed: unknown[] = [];
  const viewer: Interceptor = { before: (call) => { viewed.push({ args: call.args, rewritten: call.rewritten }); } };
  const tool = withInterceptors(stamped, [asked, viewer, asked]);
  assert.equal(await tool.execute({ cmd: 'ls' }, ctxFor('echo', {})), 'ran with {"cmd":"ls","stamp":"k1"}');
  assert.deepEqual(seen, [{ cmd: 'ls', stamp: 'k1' }]);
  assert.deepEqual(viewed, [{ args: { cmd: 'ls', stamp: 'k1' }, rewritten: true }]);
  const claimed = { claimed: true, facts: { calls: null, rewrite: { cmd: 'ls', stamp: 'k1' } } };
  assert.deepEqual(answers, [claimed, claimed], 'the facts of the original arguments, asked once');

  const plain = withInterceptors(echo(seen, () => ({ calls: [] })), [{ before: () => ({ action: 'rewrite' }) }]);
  await assert.rejects(plain.execute({ cmd: 'ls' }, ctxFor('echo', {})), { name: 'RewriteUnavailableError', message: 'cannot run with a rewrite: tool "echo" claims no rewrite for these arguments' });
  const noFacts = withInterceptors(echo(seen), [{ before: () => ({ action: 'rewrite' }) }]);
  await assert.rejects(noFacts.execute({}, ctxFor('echo', {})), { message: 'cannot run with a rewrite: tool "echo" claims no rewrite for these arguments' });
  const failing = withInterceptors(echo(seen, () => { throw new Error('cannot parse the command'); }), [{ before: () => ({ action: 'rewrite' }) }]);
  await assert.rejects(failing.execute({}, ctxFor('echo', {})), { message: 'cannot run with a rewrite: tool "echo" could not state its facts (cannot parse the command)' });
  assert.equal(seen.length, 1);
});

test('facts are asked once per call and only when wanted', async () => {
  let asked = 0;
  const tool = echo([], () => { asked += 1; return { calls: [{ tool: 'read', args: { path: '.env' } }] }; });
  const answers: unknown[] = [];
  const reader: Interceptor = { before: async (call) => { answers.push(await call.facts()); } };
  await withInterceptors(tool, [reader, reader]).execute({}, ctxFor('echo', {}));
  assert.equal(asked, 1);
  const answer = { claimed: true, facts: { calls: [{ tool: 'read', args: { path: '.env' } }] } };
  assert.deepEqual(answers, [answer, answer]);
  await withInterceptors(tool, [{ after: () => undefined }]).execute({}, ctxFor('echo', {}));
  assert.equal(asked, 1);
});

test('after sees results as ToolResult, may keep or replace them; errors pass through', async () => {
  const tool = withInterceptors(echo([]), [{ after: (result) => { assert.deepEqual(result, { content: [{ type: 'text', text: 'ran with {}' }] }); return 'replaced'; } }]);
  assert.equal(await tool.execute({}, ctxFor('echo', {})), 'replaced');
  let afterCalled = false;
  const failing = withInterceptors({ name: 'f', description: 'F', async execute() { throw new Error('boom'); } }, [{ after: () => { afterCalled = true; } }]);
  await assert.rejects(failing.execute({}, ctxFor('f', {})), { message: 'boom' });
  assert.equal(afterCalled, false);
  const bad = withInterceptors(echo([]), [{ name: 'broken', after: () => 42 as never }]);
  await assert.rejects(bad.execute({}, ctxFor('echo', {})), { name: 'InterceptorError', message: 'interceptor "broken": after() must return a tool output (a string, content parts or a result with content) or nothing, got a number' });
  const badBefore = withInterceptors(echo([]), [{ before: () => ({ action: 'skip' }) as never }]);
  await assert.rejects(badBefore.execute({}, ctxFor('echo', {})), { message: 'interceptor 1: before() must answer nothing, { action: \'continue\' }, { action: \'refuse\', reason } or { action: \'rewrite\' }, got {"action":"skip"}' });
});

test('interceptors are checked when applied; every property of the tool is forwarded', () => {
  assert.throws(() => applyInterceptors([echo([])], [{} as Interceptor]), { name: 'TypeError', message: 'applyInterceptors: interceptor 1 has neither before() nor after()' });
  assert.throws(() => applyInterceptors([echo([])], [{ before: 'x' } as never]), { message: 'applyInterceptors: interceptor 1: "before" must be a function' });
  const inner: ContractTool = { name: 'r', description: 'R', sequential: true, resource: 'shell:s', replay: 'safe', async execute() { return 'x'; } };
  const [wrapped] = applyInterceptors([inner], [{ before: () => undefined }]);
  const { execute, ...forwarded } = wrapped!;
  assert.deepEqual(forwarded, { name: 'r', description: 'R', sequential: true, resource: 'shell:s', replay: 'safe' });
  assert.notEqual(execute, inner.execute);
  assert.equal(withInterceptors(inner, []), inner);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Executor, createPolicy, type Interceptor, type PermissionQuestion } from '../src/runtime/index.js';
import { PermissionDeniedError, type CallContext, type ContractTool } from '../src/index.js';
import { plain } from './support/executor-tools.js';

/** A writer on one resource, so calls of a batch run in model order; `effects` counts writes. */
function writer(effects: string[]): ContractTool {
  return {
    name: 'write_file',
    description: 'Writes a file',
    resource: 'fs:workspace',
    async execute(args: unknown, ctx: CallContext) {
      const { path } = args as { path: string };
      await ctx.requirePermission({ subject: path, capabilities: ['write'] });
      effects.push(path);
      return `wrote ${path}`;
    },
  };
}

test('executor: a batch through interceptors, policy and bounds; allow always holds for later calls of the batch', async () => {
  const effects: string[] = [];
  const questions: PermissionQuestion[] = [];
  const trace: string[] = [];
  const policy = createPolicy({
    rules: [{ effect: 'deny', path: '/etc/**', reason: 'system files' }],
    ask: (q) => {
      questions.push(q);
      return { decision: q.subject === '/tmp/a' ? 'allow_always' : 'deny_once' };
    },
  });
  const audit: Interceptor = {
    name: 'audit',
    before: (call) => {
      trace.push(`before ${call.ctx.call.id}`);
    },
  };
  const executor = new Executor({ tools: [writer(effects)], policy, interceptors: [audit], maxOutputChars: 8 });
  const outcomes = await executor.run([
    { id: 'c1', tool: 'write_file', args: { path: '/tmp/a' } },
    { id: 'c2', tool: 'write_file', args: { path: '/etc/passwd' } },
    { id: 'c3', tool: 'write_file', args: { path: '/tmp/a' } },
    { id: 'c4', tool: 'write_file', args: { path: '/tmp/b' } },
  ]);
  const grantA = { subjects: ['/tmp/a'], capabilities: ['write'], granted: ['write'] };
  assert.deepEqual(outcomes.map(plain), [
    {
      id: 'c1',
      tool: 'write_file',
      started: true,
      ok: true,
      result: {
        content: [{ type: 'text', text: 'wrote /t\n…[truncated: showing 8 of 12 characters]' }],
        record: {
          ns: 'toolwright:permissions',
          data: {
            decisions: [{ subject: '/tmp/a', capabilities: ['write'], decision: 'allow_always' }],
            grants: [grantA],
          },
        },
      },
    },
    {
      id: 'c2',
      tool: 'write_file',
      started: true,
      ok: false,
      error: 'PermissionDeniedError: permission denied: write on "/etc/passwd": system files',
      record: {
        ns: 'toolwright:permissions',
        data: { decisions: [], grants: [{ subjects: ['/etc/passwd'], capabilities: ['write'], granted: [] }] },
      },
    },
    {
      id: 'c3',
      tool: 'write_file',
      started: true,
      ok: true,
      result: {
        content: [{ type: 'text', text: 'wrote /t\n…[truncated: showing 8 of 12 characters]' }],
        record: { ns: 'toolwright:permissions', data: { decisions: [], grants: [grantA] } },
      },
    },
    {
      id: 'c4',
      tool: 'write_file',
      started: true,
      ok: false,
      error: 'PermissionDeniedError: permission denied: write on "/tmp/b"',
      record: {
        ns: 'toolwright:permissions',
        data: {
          decisions: [{ subject: '/tmp/b', capabilities: ['write'], decision: 'deny_once' }],
          grants: [{ subjects: ['/tmp/b'], capabilities: ['write'], granted: [] }],
        },
      },
    },
  ]);
  assert.deepEqual(
    questions.map((q) => q.subject),
    ['/tmp/a', '/tmp/b'],
  );
  assert.deepEqual(effects, ['/tmp/a', '/tmp/a']);
  // The interceptor (inside the policy) runs once per call: a question waits in place.
  assert.deepEqual(trace, ['before c1', 'before c2', 'before c3', 'before c4']);
  const denied = outcomes[3]!;
  assert.ok(!denied.ok && denied.error instanceof PermissionDeniedError);
  assert.deepEqual(denied.error.record, {
    ns: 'toolwright:permissions',
    data: {
      decisions: [{ subject: '/tmp/b', capabilities: ['write'], decision: 'deny_once' }],
      grants: [{ subjects: ['/tmp/b'], capabilities: ['write'], granted: [] }],
    },
  });
});

test("executor: the context's elicit asks when the policy has no ask of its own", async () => {
  const effects: string[] = [];
  const messages: string[] = [];
  const executor = new Executor({
    tools: [writer(effects)],
    policy: createPolicy(),
    context: {
      elicit: async (q) => {
        messages.push(q.message);
        return { action: 'accept', content: { decision: 'allow_once' } };
      },
    },
  });
  const outcomes = await executor.run([{ id: 'x', tool: 'write_file', args: { path: '/w' } }]);
  assert.deepEqual(outcomes.map(plain), [
    {
      id: 'x',
      tool: 'write_file',
      started: true,
      ok: true,
      result: {
        content: [{ type: 'text', text: 'wrote /w' }],
        record: {
          ns: 'toolwright:permissions',
          data: {
            decisions: [{ subject: '/w', capabilities: ['write'], decision: 'allow_once' }],
            grants: [{ subjects: ['/w'], capabilities: ['write'], granted: ['write'] }],
          },
        },
      },
    },
  ]);
  assert.deepEqual(messages, ['Allow the tool "write_file" to use write on "/w"?']);
  assert.deepEqual(effects, ['/w']);
});

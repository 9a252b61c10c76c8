import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createCallContext, createPolicy, questionText } from '../src/runtime/index.js';
import {
  PermissionDeniedError,
  type CallContext,
  type ContractTool,
  type ElicitAnswer,
  type PermissionRequest,
} from '../src/index.js';
import { throughCore } from './support/core-tools.js';

/*
 * Behaviours of permissions that mutation testing found unpinned: each test fails when the
 * mutant it is named after survives.
 */

function asking(requests: readonly PermissionRequest[]): ContractTool {
  return {
    name: 'asker',
    description: 'Makes the permission requests it was given, in order',
    async execute(_args: unknown, ctx: CallContext) {
      const granted: string[] = [];
      for (const request of requests) granted.push((await ctx.requirePermission(request)).join('+'));
      return granted.join(' ');
    },
  };
}

const ctx = (elicit?: (q: unknown) => Promise<ElicitAnswer>) =>
  createCallContext({ call: { id: '1', tool: 'asker', args: {} }, ...(elicit === undefined ? {} : { elicit }) });

async function failure(promise: Promise<unknown>): Promise<PermissionDeniedError> {
  const error = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  assert.ok(error instanceof PermissionDeniedError, `expected PermissionDeniedError, got ${String(error)}`);
  return error;
}

test('addRule with { first: true } puts the rule before the others; without it, after', () => {
  const policy = createPolicy({ rules: [{ effect: 'allow', path: '/a' }] });
  policy.addRule({ effect: 'deny', path: '/a', reason: 'locked' }, { first: true });
  policy.addRule({ effect: 'deny', reason: 'everything else' });
  assert.deepEqual(policy.rules, [
    { effect: 'deny', path: '/a', reason: 'locked' },
    { effect: 'allow', path: '/a' },
    { effect: 'deny', reason: 'everything else' },
  ]);
  assert.deepEqual(policy.check('t', '/a', 'read'), { effect: 'deny', source: 'rule', reason: 'locked' });
  assert.deepEqual(policy.check('t', '/b', 'read'), { effect: 'deny', source: 'rule', reason: 'everything else' });
});

test('a call that needs exactly maxQuestions answers succeeds; one more fails', async () => {
  const ask = () => ({ decision: 'allow_once' as const });
  const two = [
    { subject: '/a', capabilities: ['read'] },
    { subject: '/b', capabilities: ['read'] },
  ];
  assert.deepEqual(
    (await throughCore(asking(two), { policy: createPolicy({ maxQuestions: 2, ask }) }).execute({}, ctx())).content,
    [{ type: 'text', text: 'read read' }],
  );
  const three = [...two, { subject: '/c', capabilities: ['read'] }];
  await assert.rejects(
    throughCore(asking(three), { policy: createPolicy({ maxQuestions: 2, ask }) }).execute({}, ctx()),
    {
      name: 'TooManyPermissionQuestionsError',
      message: 'tool "asker" needed more than 2 permission questions in one call',
    },
  );
});

test("every malformed requirePermission request is the tool's TypeError, naming the member", async () => {
  const policy = createPolicy({ rules: [{ effect: 'allow' }] });
  const cases: Array<[unknown, string]> = [
    [null, 'requirePermission: expected a request object { subject, capabilities, reason? }'],
    ['write /a', 'requirePermission: expected a request object { subject, capabilities, reason? }'],
    [{ subject: '', capabilities: ['x'] }, 'requirePermission: "subject" must be a non-empty string'],
    [
      { subject: '/a', capabilities: [] },
      'requirePermission: "capabilities" must be a non-empty array of capability names',
    ],
    [
      { subject: '/a', capabilities: [''] },
      'requirePermission: "capabilities" must be a non-empty array of capability names',
    ],
    [
      { subject: '/a', capabilities: 'read' },
      'requirePermission: "capabilities" must be a non-empty array of capability names',
    ],
    [{ subject: '/a', capabilities: ['read'], reason: 5 }, 'requirePermission: "reason" must be a string'],
    [
      { subject: '/a', capabilities: ['read'], subjects: 'b' },
      'requirePermission: "subjects" must be an array of { label, subject } with non-empty subjects',
    ],
    [
      { subject: '/a', capabilities: ['read'], subjects: [{ label: 'x' }] },
      'requirePermission: "subjects" must be an array of { label, subject } with non-empty subjects',
    ],
    [
      { subject: '/a', capabilities: ['read'], subjects: [{ label: 7, subject: '/b' }] },
      'requirePermission: "subjects" must be an array of { label, subject } with non-empty subjects',
    ],
  ];
  for (const [request, message] of cases) {
    await assert.rejects(
      throughCore(asking([request as PermissionRequest]), { policy }).execute({}, ctx()),
      { name: 'TypeError', message },
      JSON.stringify(request),
    );
  }
});

test('an empty label is no label: the question names the bare subject', async () => {
  const questions: unknown[] = [];
  const policy = createPolicy({
    ask: (q) => {
      questions.push(q);
      return { decision: 'allow_once' };
    },
  });
  await throughCore(asking([{ subject: '/a', capabilities: ['write'], subjects: [{ label: '', subject: '/b' }] }]), {
    policy,
  }).execute({}, ctx());
  assert.deepEqual(questions, [
    { tool: 'asker', subject: '/a', capabilities: ['write'] },
    { tool: 'asker', subject: '/b', capabilities: ['write'] },
  ]);
});

test('the decision recorded for a declined, cancelled or malformed answer, and for a failed ask', async () => {
  const request = [{ subject: '/a', capabilities: ['write'] }];
  const recorded = async (
    policyOptions: Parameters<typeof createPolicy>[0],
    elicit?: (q: unknown) => Promise<ElicitAnswer>,
  ) => {
    const error = await failure(
      throughCore(asking(request), { policy: createPolicy(policyOptions) }).execute({}, ctx(elicit)),
    );
    return { message: error.message, record: error.record };
  };
  const record = (decision: Record<string, unknown>) => ({
    ns: 'toolwright:permissions',
    data: {
      decisions: [{ subject: '/a', capabilities: ['write'], ...decision }],
      grants: [{ subjects: ['/a'], capabilities: ['write'], granted: [] }],
    },
  });
  assert.deepEqual(await recorded({}, async () => ({ action: 'decline' })), {
    message: 'permission denied: write on "/a"',
    record: record({ decision: 'deny_once' }),
  });
  assert.deepEqual(await recorded({}, async () => ({ action: 'cancel' })), {
    message: 'permission denied: write on "/a": the user did not answer',
    record: record({ decision: 'deny_once', reason: 'the user did not answer' }),
  });
  assert.deepEqual(await recorded({}, async () => ({ action: 'accept', content: { decision: 'maybe' } })), {
    message: 'permission denied: write on "/a": the user did not answer',
    record: record({ decision: 'deny_once', reason: 'the user did not answer' }),
  });
  assert.deepEqual(
    await recorded({
      ask: () => {
        throw new Error('no terminal');
      },
    }),
    {
      message: 'permission denied: write on "/a": the user could not be asked',
      record: record({ decision: 'deny_once', reason: 'the user could not be asked' }),
    },
  );
  assert.deepEqual(await recorded({ ask: () => ({ decision: 'deny_once', reason: '   ' }) }), {
    message: 'permission denied: write on "/a"',
    record: record({ decision: 'deny_once' }),
  });
  assert.deepEqual(await recorded({ ask: () => ({ decision: 'deny_once', reason: '  busy  ' }) }), {
    message: 'permission denied: write on "/a": busy',
    record: record({ decision: 'deny_once', reason: 'busy' }),
  });
});

test('the question text lists several capabilities, with the label and the reason', () => {
  assert.equal(
    questionText({ tool: 'move', subject: '/a', capabilities: ['write', 'delete'] }),
    'Allow the tool "move" to use write, delete on "/a"?',
  );
  assert.equal(
    questionText({
      tool: 'move',
      subject: '/a',
      label: 'source file',
      capabilities: ['read', 'delete'],
      reason: 'move it',
    }),
    'Allow the tool "move" to use read, delete on the source file "/a"?\nReason: move it',
  );
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPolicy, type PermissionPolicy, type PermissionQuestion } from '../src/runtime/index.js';
import { throughCore } from './support/core-tools.js';
import {
  PermissionDeniedError,
  type CallContext,
  type ContractTool,
  type ElicitAnswer,
  type Elicitation,
  type PermissionRequest,
} from '../src/index.js';
import { callTool } from './support/policy-tools.js';

const withPolicy = (tool: ContractTool, policy: PermissionPolicy): ContractTool =>
  ({ ...throughCore(tool, { policy }), description: tool.description }) as ContractTool;

/*
 * Behaviours that mutation testing found unpinned: each test here fails when the named line of
 * the permissions module is changed (a rule order, a `<=`, a dropped check or reason).
 */

/** A tool that asks for `request` once and returns the capabilities it was granted. */
function asking(request: PermissionRequest): ContractTool {
  return {
    name: 'asker',
    description: 'Asks for one permission',
    parameters: { type: 'object', properties: {}, additionalProperties: false },
    async execute(_args: unknown, ctx: CallContext) {
      return (await ctx.requirePermission(request)).join(',');
    },
  };
}

async function denialOf(promise: Promise<unknown>): Promise<PermissionDeniedError> {
  const error = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  assert.ok(error instanceof PermissionDeniedError, `expected a PermissionDeniedError, got ${String(error)}`);
  return error;
}

test('addRule with { first: true } puts the rule before the existing ones, so it decides', async () => {
  const policy = createPolicy({
    rules: [{ effect: 'deny', capabilities: ['write'], path: '/tmp/**', reason: 'older rule' }],
  });
  policy.addRule({ effect: 'allow', capabilities: ['write'], path: '/tmp/a' }, { first: true });
  policy.addRule({ effect: 'deny', capabilities: ['write'], path: '/tmp/a', reason: 'last rule' });
  assert.deepEqual(
    policy.rules.map((rule) => rule.reason ?? rule.effect),
    ['allow', 'older rule', 'last rule'],
  );
  assert.deepEqual(await callTool(withPolicy(asking({ subject: '/tmp/a', capabilities: ['write'] }), policy), {}), {
    content: [{ type: 'text', text: 'write' }],
    record: {
      ns: 'toolwright:permissions',
      data: { decisions: [], grants: [{ subjects: ['/tmp/a'], capabilities: ['write'], granted: ['write'] }] },
    },
  });
  assert.deepEqual(policy.check('asker', '/tmp/b', 'write'), { effect: 'deny', source: 'rule', reason: 'older rule' });
});

test('a call that needs exactly maxQuestions answers succeeds; one more question fails it', async () => {
  const subjects = ['/a', '/b', '/c'];
  const tool: ContractTool = {
    name: 'many',
    description: 'Asks once per subject',
    parameters: { type: 'object', properties: { count: { type: 'integer' } }, additionalProperties: false },
    async execute(args: unknown, ctx: CallContext) {
      const { count } = args as { count: number };
      for (const subject of subjects.slice(0, count)) await ctx.requirePermission({ subject, capabilities: ['read'] });
      return `read ${count}`;
    },
  };
  const elicit = async (): Promise<ElicitAnswer> => ({ action: 'accept', content: { decision: 'allow_once' } });
  const guarded = withPolicy(tool, createPolicy({ maxQuestions: 2 }));
  const two = await callTool(guarded, { count: 2 }, elicit);
  assert.deepEqual(two, {
    content: [{ type: 'text', text: 'read 2' }],
    record: {
      ns: 'toolwright:permissions',
      data: {
        decisions: [
          { subject: '/a', capabilities: ['read'], decision: 'allow_once' },
          { subject: '/b', capabilities: ['read'], decision: 'allow_once' },
        ],
        grants: [
          { subjects: ['/a'], capabilities: ['read'], granted: ['read'] },
          { subjects: ['/b'], capabilities: ['read'], granted: ['read'] },
        ],
      },
    },
  });
  await assert.rejects(callTool(guarded, { count: 3 }, elicit), {
    name: 'TooManyPermissionQuestionsError',
    message: 'tool "many" needed more than 2 permission questions in one call',
  });
});

test('every malformed requirePermission argument is a TypeError naming the member', async () => {
  const cases: readonly [unknown, string][] = [
    ['write', 'requirePermission: expected a request object { subject, capabilities, reason? }'],
    [null, 'requirePermission: expected a request object { subject, capabilities, reason? }'],
    [{ subject: '', capabilities: ['write'] }, 'requirePermission: "subject" must be a non-empty string'],
    [
      { subject: '/a', capabilities: [] },
      'requirePermission: "capabilities" must be a non-empty array of capability names',
    ],
    [
      { subject: '/a', capabilities: ['write', ''] },
      'requirePermission: "capabilities" must be a non-empty array of capability names',
    ],
    [
      { subject: '/a', capabilities: 'write' },
      'requirePermission: "capabilities" must be a non-empty array of capability names',
    ],
    [{ subject: '/a', capabilities: ['write'], reason: 5 }, 'requirePermission: "reason" must be a string'],
    [
      { subject: '/a', capabilities: ['write'], subjects: [{ subject: '' }] },
      'requirePermission: "subjects" must be an array of { label, subject } with non-empty subjects',
    ],
    [
      { subject: '/a', capabilities: ['write'], subjects: [{ subject: '/b', label: 3 }] },
      'requirePermission: "subjects" must be an array of { label, subject } with non-empty subjects',
    ],
    [
      { subject: '/a', capabilities: ['write'], subjects: 'b' },
      'requirePermission: "subjects" must be an array of { label, subject } with non-empty subjects',
    ],
  ];
  for (const [request, message] of cases) {
    await assert.rejects(
      callTool(withPolicy(asking(request as PermissionRequest), createPolicy()), {}),
      { name: 'TypeError', message },
      JSON.stringify(request),
    );
  }
});

test('an empty label is dropped from the question; several capabilities are listed in the question text', async () => {
  const asked: Elicitation[] = [];
  const elicit = async (question: Elicitation): Promise<ElicitAnswer> => {
    asked.push(question);
    return { action: 'accept', content: { decision: 'allow_once' } };
  };
  const tool = withPolicy(
    asking({ subject: '/a', capabilities: ['read', 'write'], subjects: [{ subject: '/a', label: '' }] }),
    createPolicy(),
  );
  await callTool(tool, {}, elicit);
  assert.deepEqual(
    asked.map((q) => q.message),
    ['Allow the tool "asker" to use read, write on "/a"?'],
  );
});

test('the recorded decision of a declined, cancelled or malformed answer and of a failed ask; a whitespace-only reason is dropped', async () => {
  const recordOf = async (reply: () => Promise<ElicitAnswer>, ask?: (q: PermissionQuestion) => unknown) => {
    const policy = createPolicy(ask === undefined ? {} : { ask: ask as never });
    const error = await denialOf(
      callTool(withPolicy(asking({ subject: '/a', capabilities: ['write'] }), policy), {}, reply),
    );
    return [error.message, (error.record!.data as { decisions: unknown[] }).decisions];
  };
  assert.deepEqual(await recordOf(async () => ({ action: 'decline' })), [
    'permission denied: write on "/a"',
    [{ subject: '/a', capabilities: ['write'], decision: 'deny_once' }],
  ]);
  assert.deepEqual(await recordOf(async () => ({ action: 'cancel' })), [
    'permission denied: write on "/a": the user did not answer',
    [{ subject: '/a', capabilities: ['write'], decision: 'deny_once', reason: 'the user did not answer' }],
  ]);
  assert.deepEqual(await recordOf(async () => ({ action: 'accept', content: { decision: 'maybe' } })), [
    'permission denied: write on "/a": the user did not answer',
    [{ subject: '/a', capabilities: ['write'], decision: 'deny_once', reason: 'the user did not answer' }],
  ]);
  assert.deepEqual(
    await recordOf(async () => {
      throw new Error('client gone');
    }),
    [
      'permission denied: write on "/a": the user could not be asked',
      [{ subject: '/a', capabilities: ['write'], decision: 'deny_once', reason: 'the user could not be asked' }],
    ],
  );
  assert.deepEqual(
    await recordOf(async () => ({ action: 'accept', content: { decision: 'deny_once', reason: '   ' } })),
    ['permission denied: write on "/a"', [{ subject: '/a', capabilities: ['write'], decision: 'deny_once' }]],
  );
  assert.deepEqual(
    await recordOf(
      async () => ({ action: 'cancel' }),
      () => ({ decision: 'deny_once', reason: ' \t' }),
    ),
    ['permission denied: write on "/a"', [{ subject: '/a', capabilities: ['write'], decision: 'deny_once' }]],
  );
  assert.deepEqual(
    await recordOf(
      async () => ({ action: 'cancel' }),
      () => 'yes',
    ),
    [
      'permission denied: write on "/a": the user did not answer',
      [{ subject: '/a', capabilities: ['write'], decision: 'deny_once', reason: 'the user did not answer' }],
    ],
  );
});

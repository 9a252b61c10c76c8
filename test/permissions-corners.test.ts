import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DecisionMap,
  PermissionNeeded,
  TooManyPermissionQuestionsError,
  answerOfElicitation,
  createPolicy,
  implicationsOf,
} from '../src/runtime/permissions/index.js';
import { runUnderPolicy } from '../src/runtime/permissions/apply.js';
import { contextWith } from '../src/runtime/permissions/context.js';
import { askQuestion } from '../src/runtime/permissions/ask.js';
import { targetsOf } from '../src/runtime/permissions/invocation.js';
import { createCallContext, type CallContext, type PermissionRequest } from '../src/contract/index.js';

/*
 * The mutants of the permissions module that survived the first full run of
 * `npm run mutate:permissions` and are not equivalent: each test names the line it pins. The
 * equivalent ones are listed with their reason in docs/mutation.md.
 */

const call = { id: 'c1', tool: 'tool', args: {} };

test('a capability name is a non-empty string: a list or an object with a length is not one', () => {
  assert.throws(() => implicationsOf({ write: [['read']] } as never), {
    name: 'TypeError',
    message: 'permissions: the implications of "write" must be an array of non-empty capability names',
  });
  assert.throws(() => createPolicy({ rules: [{ effect: 'allow', capabilities: [{ length: 1 }] as never }] }), {
    name: 'TypeError',
    message:
      'permissions: rule 1: "capabilities" must be a non-empty array of capability names (leave it out to cover every capability)',
  });
  assert.throws(() => targetsOf({ subject: '/a', capabilities: [['read']] as never }), {
    name: 'TypeError',
    message: 'requirePermission: "capabilities" must be a non-empty array of capability names',
  });
});

test('contextWith: an override of a member the context has as a getter replaces it, without reading the getter', () => {
  let reads = 0;
  const base: Record<string, unknown> = {};
  Object.defineProperty(base, 'signal', {
    enumerable: true,
    get: () => {
      reads += 1;
      return 'lazy';
    },
  });
  const copy = contextWith(base as unknown as CallContext, { signal: 'given' } as never) as unknown as Record<
    string,
    unknown
  >;
  assert.equal(copy.signal, 'given');
  assert.equal(reads, 0);
});

test('DecisionMap: a stored deny of a capability never answers the capabilities it implies', () => {
  const implications = implicationsOf({ write: ['read'] });
  const store = new DecisionMap();
  store.set('t', '/a', ['write'], 'deny');
  assert.equal(store.lookup('t', '/a', 'read', implications), undefined);
  assert.deepEqual(store.lookup('t', '/a', 'write', implications), {
    tool: 't',
    subject: '/a',
    capability: 'write',
    effect: 'deny',
  });
});

test('the reason of an unanswered question, word for word; a null answer is no answer, not a failure to ask', async () => {
  const question = { tool: 't', subject: '/a', capabilities: ['write'] };
  const ctx = createCallContext({ call });
  assert.deepEqual(await askQuestion(question, ctx, () => new Promise(() => undefined), 1), {
    decision: 'deny_once',
    reason: 'the user did not answer in time',
  });
  assert.deepEqual(await askQuestion(question, ctx, () => null as never), {
    decision: 'deny_once',
    reason: 'the user did not answer',
  });
  assert.deepEqual(answerOfElicitation({ action: 'accept', content: null } as never), {
    decision: 'deny_once',
    reason: 'the user did not answer',
  });
});

test('"always" answers of one principal, and of one session, accumulate: a second one keeps the first', () => {
  const policy = createPolicy();
  const alice = createCallContext({
    call,
    principal: { subject: 'alice', issuer: 'https://id', clientId: 'app', scopes: [], claims: {} },
  } as never);
  const session = createCallContext({ call, session: { id: 's1', transport: 'http' } });
  for (const ctx of [alice, session]) {
    void policy.remember('t', '/a', ['read'], 'allow', undefined, policy.ownerOf(ctx));
    void policy.remember('t', '/b', ['write'], 'deny', 'no', policy.ownerOf(ctx));
    assert.deepEqual(policy.remembered(ctx), [
      { tool: 't', subject: '/a', capability: 'read', effect: 'allow' },
      { tool: 't', subject: '/b', capability: 'write', effect: 'deny', reason: 'no' },
    ]);
  }
});

test('the codes of PermissionNeeded and TooManyPermissionQuestionsError', () => {
  assert.equal(new PermissionNeeded({ tool: 't', subject: '/a', capabilities: ['read'] }).code, 'permission-needed');
  assert.equal(new TooManyPermissionQuestionsError('t', 1).code, 'too-many-permission-questions');
});

test('requirePermission refuses a subject that is not a string, and "subjects" entries that are not { subject, label? } objects', () => {
  const subjectMessage = 'requirePermission: "subject" must be a non-empty string';
  const subjectsMessage =
    'requirePermission: "subjects" must be an array of { label, subject } with non-empty subjects';
  for (const subject of [5, undefined, ['/a']])
    assert.throws(
      () => targetsOf({ subject, capabilities: ['read'] } as never),
      { name: 'TypeError', message: subjectMessage },
      String(subject),
    );
  const functionWithSubject = Object.assign(() => undefined, { subject: '/b' });
  for (const entry of [null, '/b', functionWithSubject, { subject: 5 }]) {
    assert.throws(
      () => targetsOf({ subject: '/a', capabilities: ['read'], subjects: [entry] } as never),
      { name: 'TypeError', message: subjectsMessage },
      String(entry),
    );
  }
  assert.deepEqual(targetsOf({ subject: '/a', capabilities: ['read'], subjects: [{ subject: '/b' }] as never }), [
    { subject: '/a' },
    { subject: '/b' },
  ]);
});

test('a subject listed first without a label and then with one takes the label', () => {
  const request = {
    subject: '/a',
    capabilities: ['read'],
    subjects: [{ subject: '/b' }, { subject: '/b', label: 'target' }],
  } as unknown as PermissionRequest;
  assert.deepEqual(targetsOf(request), [{ subject: '/a' }, { subject: '/b', label: 'target' }]);
});

test('a denial without a reason has no "reason" member at all', async () => {
  const policy = createPolicy({
    rules: [
      { effect: 'deny', capabilities: ['write'] },
      { effect: 'deny', capabilities: ['exec'], reason: 'never' },
    ],
  });
  const denied = await runUnderPolicy(policy, 'tool', createCallContext({ call }), (runCtx) =>
    runCtx.requirePermission({ subject: '/a', capabilities: ['write', 'exec'] }),
  ).then(
    () => undefined,
    (err: unknown) => err,
  );
  assert.deepEqual((denied as { denials: unknown }).denials, [
    { subject: '/a', capabilities: ['write'] },
    { subject: '/a', capabilities: ['exec'], reason: 'never' },
  ]);
  assert.equal(Object.hasOwn((denied as { denials: object[] }).denials[0]!, 'reason'), false);
});

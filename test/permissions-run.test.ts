import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  PermissionDeniedError,
  createPolicy,
  decisionOwnerOf,
  principalIdOf,
  type PermissionAnswer,
  type PermissionPolicy,
  type PermissionQuestion,
} from '../src/runtime/permissions/index.js';
import { runUnderPolicy } from '../src/runtime/permissions/apply.js';
import { PermissionInvocation, targetsOf } from '../src/runtime/permissions/invocation.js';
import { createCallContext, type CallContext, type PermissionRequest, type Session } from '../src/contract/index.js';

/*
 * One call under a policy (`runUnderPolicy`, `PermissionInvocation`, `PermissionRun`) and the
 * owner of its "always" answers, driven directly (no host), as mutation testing
 * (`npm run mutate:permissions`) found them unpinned. See docs/mutation.md.
 */

const call = { id: 'c1', tool: 'tool', args: {} };

/** A policy whose `ask` answers from `answers` in turn and lists the questions it was asked. */
function answering(
  answers: PermissionAnswer[],
  options: Parameters<typeof createPolicy>[0] = {},
): { policy: PermissionPolicy; asked: PermissionQuestion[] } {
  const asked: PermissionQuestion[] = [];
  const policy = createPolicy({
    ...options,
    ask: (question) => {
      asked.push(question);
      return answers.shift();
    },
  });
  return { policy, asked };
}

/** Runs `requests` one after the other under `policy`, as one call; resolves the grants and the record. */
async function runChecks(
  policy: PermissionPolicy,
  requests: readonly PermissionRequest[],
  ctx: CallContext = createCallContext({ call }),
) {
  return runUnderPolicy(policy, 'tool', ctx, async (runCtx) => {
    const grants: (readonly string[])[] = [];
    for (const request of requests) grants.push(await runCtx.requirePermission(request));
    return grants;
  });
}

test('targetsOf: the main subject first, each subject once, a label from "subjects" kept (an empty one dropped)', () => {
  assert.deepEqual(targetsOf({ subject: '/a', capabilities: ['read'] }), [{ subject: '/a' }]);
  assert.deepEqual(
    targetsOf({
      subject: '/a',
      capabilities: ['read'],
      subjects: [
        { label: 'source', subject: '/a' },
        { label: 'target', subject: '/b' },
        { label: 'again', subject: '/b' },
      ],
    }),
    [
      { subject: '/a', label: 'source' },
      { subject: '/b', label: 'target' },
    ],
  );
  assert.deepEqual(
    targetsOf({
      subject: '/a',
      capabilities: ['read'],
      subjects: [{ label: '', subject: '/c' }, { subject: '/c', label: 'late' } as never],
    }),
    [{ subject: '/a' }, { subject: '/c', label: 'late' }],
  );
});

test('a partial grant resolves the capabilities allowed on every subject, in the order asked, each once; the record lists the check', async () => {
  const policy = createPolicy({
    rules: [
      { effect: 'allow', path: '/a', capabilities: ['read', 'write'] },
      { effect: 'allow', path: '/b', capabilities: ['read', 'exec'] },
      { effect: 'deny' },
    ],
  });
  const ran = await runChecks(policy, [
    { subject: '/a', subjects: [{ label: '', subject: '/b' }], capabilities: ['exec', 'read', 'write', 'read'] },
  ]);
  assert.deepEqual(ran.value, [['read']]);
  assert.equal(Object.isFrozen(ran.value[0]), true);
  assert.deepEqual(ran.record, {
    ns: 'toolwright:permissions',
    data: {
      decisions: [],
      grants: [{ subjects: ['/a', '/b'], capabilities: ['exec', 'read', 'write'], granted: ['read'] }],
    },
  });
  assert.equal(Object.isFrozen(ran.record), true);
});

test("a refusal lists the denied capabilities per subject, grouped by reason, and the denial carries the call's record", async () => {
  const policy = createPolicy({
    rules: [
      { effect: 'deny', path: '/a', capabilities: ['write'], reason: 'read-only' },
      { effect: 'deny', path: '/a', capabilities: ['exec'], reason: 'read-only' },
      { effect: 'deny', path: '/a', capabilities: ['delete'] },
      { effect: 'allow', path: '/a', capabilities: ['read'] },
      { effect: 'deny', path: '/b', reason: 'elsewhere' },
    ],
  });
  const denied = await runChecks(policy, [
    { subject: '/a', subjects: [{ label: '', subject: '/b' }], capabilities: ['write', 'delete', 'exec', 'read'] },
  ]).then(
    () => undefined,
    (err: unknown) => err,
  );
  assert.ok(denied instanceof PermissionDeniedError);
  assert.equal(
    denied.message,
    'permission denied: write, exec on "/a": read-only; delete on "/a"; write, delete, exec, read on "/b": elsewhere',
  );
  assert.deepEqual(denied.record, {
    ns: 'toolwright:permissions',
    data: {
      decisions: [],
      grants: [{ subjects: ['/a', '/b'], capabilities: ['write', 'delete', 'exec', 'read'], granted: [] }],
    },
  });
});

test('an error that is not a denial leaves the call unchanged, with no record attached', async () => {
  const policy = createPolicy({ rules: [{ effect: 'allow' }] });
  const failure = new RangeError('the tool failed');
  const thrown = await runUnderPolicy(policy, 'tool', createCallContext({ call }), async (runCtx) => {
    await runCtx.requirePermission({ subject: '/a', capabilities: ['read'] });
    throw failure;
  }).then(
    () => undefined,
    (err: unknown) => err,
  );
  assert.equal(thrown, failure);
  assert.equal(Object.hasOwn(failure, 'record'), false);
  const nothingChecked = await runUnderPolicy(policy, 'tool', createCallContext({ call }), async () => 'done');
  assert.deepEqual(nothingChecked, { value: 'done', record: undefined });
});

test('the declarative check needs every capability: a partial grant is refused, and is recorded as checked', async () => {
  const policy = createPolicy({
    rules: [
      { effect: 'allow', capabilities: ['read'] },
      { effect: 'deny', capabilities: ['write'] },
    ],
  });
  const ctx = createCallContext({ call });
  const denied = await runUnderPolicy(policy, 'tool', ctx, (_runCtx, requireEvery) =>
    requireEvery({ subject: '/a', capabilities: ['read', 'write'] }),
  ).then(
    () => undefined,
    (err: unknown) => err,
  );
  assert.ok(denied instanceof PermissionDeniedError);
  assert.equal(denied.message, 'permission denied: write on "/a"');
  assert.deepEqual((denied.record!.data as { grants: unknown }).grants, [
    { subjects: ['/a'], capabilities: ['read', 'write'], granted: ['read'] },
  ]);
  const granted = await runUnderPolicy(policy, 'tool', ctx, (_runCtx, requireEvery) =>
    requireEvery({ subject: '/a', capabilities: ['read'] }),
  );
  assert.deepEqual(granted.value, ['read']);
});

test('one question per undecided subject, naming only the undecided capabilities, its label and the reason; answers are recorded as given; the grant is what every subject allows', async () => {
  const { policy, asked } = answering([{ decision: 'allow_once' }, { decision: 'deny_once', reason: 'not there' }], {
    rules: [{ effect: 'allow', capabilities: ['read'] }],
  });
  const ran = await runChecks(policy, [
    { subject: '/a', subjects: [{ label: 'target', subject: '/b' }], capabilities: ['read', 'write'], reason: 'copy' },
  ]);
  assert.deepEqual(asked, [
    { tool: 'tool', subject: '/a', capabilities: ['write'], reason: 'copy' },
    { tool: 'tool', subject: '/b', label: 'target', capabilities: ['write'], reason: 'copy' },
  ]);
  assert.deepEqual(ran.value, [['read']]);
  assert.deepEqual(ran.record!.data, {
    decisions: [
      { subject: '/a', capabilities: ['write'], decision: 'allow_once' },
      { subject: '/b', label: 'target', capabilities: ['write'], decision: 'deny_once', reason: 'not there' },
    ],
    grants: [{ subjects: ['/a', '/b'], capabilities: ['read', 'write'], granted: ['read'] }],
  });
});

test('"once" answers hold for the call only; "always" answers are remembered for the owner; a stateless request keeps "always" as "once"', async () => {
  const { policy, asked } = answering([
    { decision: 'allow_once' },
    { decision: 'allow_always' },
    { decision: 'deny_always', reason: 'never' },
  ]);
  const twice = await runChecks(policy, [
    { subject: '/a', capabilities: ['read'] },
    { subject: '/a', capabilities: ['read'] },
  ]);
  assert.deepEqual(twice.value, [['read'], ['read']]);
  assert.equal(asked.length, 1);
  assert.deepEqual(policy.remembered(), []);
  await runChecks(policy, [{ subject: '/a', capabilities: ['read'] }]);
  assert.deepEqual(policy.remembered(), [{ tool: 'tool', subject: '/a', capability: 'read', effect: 'allow' }]);
  const stateless = createCallContext({ call, session: { id: '', transport: 'http' } });
  await assert.rejects(runChecks(policy, [{ subject: '/b', capabilities: ['read'] }], stateless), {
    message: 'permission denied: read on "/b": never',
  });
  assert.deepEqual(policy.remembered(), [{ tool: 'tool', subject: '/a', capability: 'read', effect: 'allow' }]);
  assert.equal(asked.length, 3);
});

test('maxQuestions bounds the questions of one call; the bound is checked before asking', async () => {
  const { policy, asked } = answering([{ decision: 'allow_once' }, { decision: 'allow_once' }], { maxQuestions: 1 });
  await assert.rejects(
    runChecks(policy, [
      { subject: '/a', capabilities: ['read'] },
      { subject: '/b', capabilities: ['read'] },
    ]),
    {
      name: 'TooManyPermissionQuestionsError',
      message: 'tool "tool" needed more than 1 permission questions in one call',
    },
  );
  assert.equal(asked.length, 1);
});

test('a cancelled call asks nothing more: the abort reason ends the check, before and after a question', async () => {
  const before = new AbortController();
  before.abort(new Error('cancelled by the client'));
  const { policy, asked } = answering([{ decision: 'allow_once' }]);
  await assert.rejects(
    runChecks(policy, [{ subject: '/a', capabilities: ['read'] }], createCallContext({ call, signal: before.signal })),
    { message: 'cancelled by the client' },
  );
  assert.equal(asked.length, 0);
  const during = new AbortController();
  const cancelling = createPolicy({
    ask: () => {
      during.abort(new Error('gone while asking'));
      return { decision: 'allow_once' };
    },
  });
  await assert.rejects(
    runChecks(
      cancelling,
      [{ subject: '/a', capabilities: ['read'] }],
      createCallContext({ call, signal: during.signal }),
    ),
    { message: 'gone while asking' },
  );
});

test('PermissionInvocation.apply: the record keeps label and reason; with no owner, "always" counts as "once"', async () => {
  const policy = createPolicy();
  const invocation = new PermissionInvocation(
    policy,
    'tool',
    createCallContext({ call, session: { id: '', transport: 'http' } }),
  );
  assert.deepEqual(invocation.owner, { kind: 'none' });
  await invocation.apply(
    { tool: 'tool', subject: '/a', label: 'file', capabilities: ['write'] },
    { decision: 'deny_always', reason: 'no' },
  );
  assert.deepEqual(invocation.decisions, [
    { subject: '/a', label: 'file', capabilities: ['write'], decision: 'deny_always', reason: 'no' },
  ]);
  assert.equal(Object.isFrozen(invocation.decisions[0]), true);
  assert.deepEqual(policy.remembered(), []);
  assert.deepEqual(invocation.once.list(), [
    { tool: 'tool', subject: '/a', capability: 'write', effect: 'deny', reason: 'no' },
  ]);
  const inProcess = new PermissionInvocation(policy, 'tool');
  assert.deepEqual(inProcess.owner, { kind: 'server' });
  await inProcess.apply({ tool: 'tool', subject: '/b', capabilities: ['read'] }, { decision: 'allow_always' });
  assert.deepEqual(policy.remembered(), [{ tool: 'tool', subject: '/b', capability: 'read', effect: 'allow' }]);
  assert.deepEqual(inProcess.once.list(), []);
  const run = inProcess.newRun(createCallContext({ call }));
  assert.deepEqual(inProcess.recordOf(run), {
    ns: 'toolwright:permissions',
    data: { decisions: [{ subject: '/b', capabilities: ['read'], decision: 'allow_always' }], grants: [] },
  });
  assert.equal(new PermissionInvocation(policy, 'tool').recordOf(run), undefined);
});

test('decisionOwnerOf: server scope is the policy-wide memory; a principal before a session unless the scope is "session"', () => {
  const session: Session = { id: 's1', transport: 'stdio' };
  const principal = { subject: 'alice', issuer: 'https://id', clientId: 'app', scopes: [], claims: {} };
  const both = createCallContext({ call, session, principal } as never);
  const statelessWithPrincipal = createCallContext({
    call,
    session: { id: '', transport: 'http' },
    principal,
  } as never);
  assert.equal(principalIdOf(both), '["https://id","alice"]');
  assert.equal(principalIdOf(createCallContext({ call })), undefined);
  assert.equal(principalIdOf(undefined), undefined);
  assert.deepEqual(decisionOwnerOf(both, undefined), { kind: 'principal', id: '["https://id","alice"]' });
  assert.deepEqual(decisionOwnerOf(both, 'principal'), { kind: 'principal', id: '["https://id","alice"]' });
  assert.deepEqual(decisionOwnerOf(both, 'session'), { kind: 'session', session });
  assert.deepEqual(decisionOwnerOf(both, 'server'), { kind: 'server' });
  assert.deepEqual(decisionOwnerOf(statelessWithPrincipal, 'session'), { kind: 'none' });
  assert.deepEqual(decisionOwnerOf(createCallContext({ call, session: { id: '', transport: 'stdio' } }), undefined), {
    kind: 'session',
    session: { id: '', transport: 'stdio' },
  });
  assert.deepEqual(decisionOwnerOf(createCallContext({ call, session: { id: 'x', transport: 'http' } }), undefined), {
    kind: 'session',
    session: { id: 'x', transport: 'http' },
  });
  assert.deepEqual(decisionOwnerOf(undefined, undefined), { kind: 'server' });
  assert.equal(Object.isFrozen(decisionOwnerOf(undefined, 'server')), true);
});

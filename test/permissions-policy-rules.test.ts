import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ASK_TIMED_OUT_REASON,
  DEFAULT_ASK_TIMEOUT_MS,
  DEFAULT_MAX_PERMISSION_QUESTIONS,
  DecisionMap,
  PermissionPolicy,
  MemoryDecisionStore,
  answerOfElicitation,
  createPolicy,
  questionText,
  type PermissionAnswer,
} from '../src/runtime/permissions/index.js';
import { askQuestion } from '../src/runtime/permissions/ask.js';
import { createCallContext, type Session } from '../src/contract/index.js';
import { ctxOf } from './support/text.js';

/*
 * The policy, its rules and its decision stores, as mutation testing (`npm run mutate:permissions`)
 * found them unpinned: every option and rule check with its exact message, every default, and the
 * stores per owner. See docs/mutation.md.
 */

const call = { id: 'c1', tool: 't', args: {} };

test('policy defaults: 16 questions, 60 s per question, no ask, no scope, no rules, nothing implied', () => {
  const policy = createPolicy();
  assert.equal(DEFAULT_MAX_PERMISSION_QUESTIONS, 16);
  assert.equal(DEFAULT_ASK_TIMEOUT_MS, 60_000);
  assert.equal(policy.maxQuestions, 16);
  assert.equal(policy.askTimeoutMs, 60_000);
  assert.equal(policy.ask, undefined);
  assert.equal(policy.decisionScope, undefined);
  assert.deepEqual(policy.rules, []);
  assert.deepEqual(policy.implications, new Map());
  assert.ok(policy instanceof PermissionPolicy);
  const ask = () => undefined;
  const set = createPolicy({ ask, maxQuestions: 1, askTimeoutMs: Infinity, decisionScope: 'session' });
  assert.deepEqual([set.ask, set.maxQuestions, set.askTimeoutMs, set.decisionScope], [ask, 1, Infinity, 'session']);
});

test('every bad policy option is a TypeError naming it', () => {
  const cases: readonly [unknown, string][] = [
    [null, 'permissions: options must be an object, got null'],
    [[], 'permissions: options must be an object, got an array'],
    ['rules', 'permissions: options must be an object, got a string'],
    [{ ask: 'yes' }, 'permissions: "ask" must be a function (question, ctx) => answer'],
    [{ maxQuestions: 1.5 }, 'permissions: "maxQuestions" must be a positive integer, got 1.5'],
    [{ maxQuestions: -1 }, 'permissions: "maxQuestions" must be a positive integer, got -1'],
    [{ rules: { effect: 'allow' } }, 'permissions: "rules" must be an array of rules'],
    [
      { decisionScope: 'everyone' },
      'permissions: "decisionScope" must be one of "session", "principal", "server", got "everyone"',
    ],
    [{ askTimeoutMs: 0 }, 'permissions: "askTimeoutMs" must be a positive number of milliseconds or Infinity, got 0'],
    [{ askTimeoutMs: -5 }, 'permissions: "askTimeoutMs" must be a positive number of milliseconds or Infinity, got -5'],
    [
      { askTimeoutMs: Number.NaN },
      'permissions: "askTimeoutMs" must be a positive number of milliseconds or Infinity, got NaN',
    ],
    [
      { askTimeoutMs: '100' },
      'permissions: "askTimeoutMs" must be a positive number of milliseconds or Infinity, got a string',
    ],
  ];
  for (const [options, message] of cases)
    assert.throws(() => new PermissionPolicy(options as never), { name: 'TypeError', message }, message);
});

test('every bad rule is a TypeError naming the rule by its place, also when added later', () => {
  const cases: readonly [unknown, string][] = [
    [null, "must be an object like { effect: 'allow', capabilities: ['read'] }"],
    [['allow'], "must be an object like { effect: 'allow', capabilities: ['read'] }"],
    ['allow', "must be an object like { effect: 'allow', capabilities: ['read'] }"],
    [{ effect: 'allow', reason: 3 }, '"reason" must be a string'],
    [
      { effect: 'allow', capabilities: 'read' },
      '"capabilities" must be a non-empty array of capability names (leave it out to cover every capability)',
    ],
    [
      { effect: 'allow', capabilities: ['read', ''] },
      '"capabilities" must be a non-empty array of capability names (leave it out to cover every capability)',
    ],
    [{ effect: 'allow', tool: 5 }, '"tool" must be a glob string or a RegExp, got a number'],
    [{ effect: 'allow', subject: '/a', path: '/a' }, 'give "subject" or "path", not both'],
    [
      { effect: 'allow', path: '/a', caseSensitive: 'yes' },
      '"caseSensitive" must be a boolean, and only goes with "path"',
    ],
    [{ effect: 'allow', caseSensitive: true }, '"caseSensitive" must be a boolean, and only goes with "path"'],
    [{ effect: 'deny', path: 'etc' }, '"path" must be an absolute path glob such as "/etc/**", got "etc"'],
    [{ effect: undefined }, '"effect" must be "allow" or "deny", got undefined'],
  ];
  for (const [rule, problem] of cases) {
    assert.throws(
      () => createPolicy({ rules: [{ effect: 'allow' }, rule as never] }),
      { name: 'TypeError', message: `permissions: rule 2: ${problem}` },
      problem,
    );
    const policy = createPolicy({ rules: [{ effect: 'allow' }, { effect: 'deny' }] });
    assert.throws(
      () => policy.addRule(rule as never),
      { name: 'TypeError', message: `permissions: rule 3: ${problem}` },
      problem,
    );
    assert.equal(policy.rules.length, 2);
  }
});

test('a rule is kept frozen, with a copy of its capabilities', () => {
  const capabilities = ['read'];
  const policy = createPolicy({ rules: [{ effect: 'allow', path: '/a', capabilities }, { effect: 'deny' }] });
  capabilities.push('write');
  assert.deepEqual(policy.rules, [{ effect: 'allow', path: '/a', capabilities: ['read'] }, { effect: 'deny' }]);
  assert.equal(Object.isFrozen(policy.rules[0]), true);
  assert.equal(Object.isFrozen(policy.rules[0]!.capabilities), true);
  assert.deepEqual(policy.check('t', '/a', 'write'), { effect: 'deny', source: 'rule' });
});

test('a path rule ignores case by default when it denies and respects it when it allows; caseSensitive overrides both', () => {
  const policy = createPolicy({
    rules: [
      { effect: 'deny', path: '/etc/**', capabilities: ['write'], reason: 'system' },
      { effect: 'allow', path: '/home/**', capabilities: ['write'] },
      { effect: 'deny', path: '/Srv/**', capabilities: ['exec'], caseSensitive: true },
      { effect: 'allow', path: '/Opt/**', capabilities: ['exec'], caseSensitive: false },
    ],
  });
  assert.deepEqual(policy.check('t', '/ETC/passwd', 'write'), { effect: 'deny', source: 'rule', reason: 'system' });
  assert.deepEqual(policy.check('t', '/home/a', 'write'), { effect: 'allow', source: 'rule' });
  assert.equal(policy.check('t', '/HOME/a', 'write'), undefined);
  assert.deepEqual(policy.check('t', '/Srv/x', 'exec'), { effect: 'deny', source: 'rule' });
  assert.equal(policy.check('t', '/srv/x', 'exec'), undefined);
  assert.deepEqual(policy.check('t', '/opt/x', 'exec'), { effect: 'allow', source: 'rule' });
  assert.equal(policy.check('t', 'etc/passwd', 'write'), undefined);
});

test('a rule decides only for its tool and subject; a deny of an implied capability covers what implies it, not the reverse', () => {
  const policy = createPolicy({
    implications: { admin: ['write'], write: ['read'] },
    rules: [
      { effect: 'deny', tool: 'rm', path: '/a', capabilities: ['write'] },
      { effect: 'allow', tool: 'cp', capabilities: ['write'] },
    ],
  });
  assert.deepEqual(policy.check('rm', '/a', 'admin'), { effect: 'deny', source: 'rule' });
  assert.deepEqual(policy.check('rm', '/a', 'write'), { effect: 'deny', source: 'rule' });
  assert.equal(policy.check('rm', '/a', 'read'), undefined);
  assert.equal(policy.check('rm', '/b', 'write'), undefined);
  assert.equal(policy.check('mv', '/a', 'write'), undefined);
  assert.deepEqual(policy.check('cp', '/z', 'read'), { effect: 'allow', source: 'rule' });
  assert.equal(policy.check('cp', '/z', 'admin'), undefined);
});

test('DecisionMap: a later decision replaces an earlier one; a deny reached through implications wins over an allow', () => {
  const store = new DecisionMap();
  const implications = createPolicy({ implications: { write: ['read'] } }).implications;
  store.set('t', '/a', ['read'], 'allow');
  store.set('t', '/a', ['read'], 'deny', 'changed my mind');
  assert.deepEqual(store.list(), [
    { tool: 't', subject: '/a', capability: 'read', effect: 'deny', reason: 'changed my mind' },
  ]);
  assert.equal(Object.isFrozen(store.list()[0]), true);
  store.set('t', '/b', ['write'], 'allow');
  store.set('t', '/b', ['read'], 'deny');
  assert.deepEqual(store.lookup('t', '/b', 'write', implications), {
    tool: 't',
    subject: '/b',
    capability: 'read',
    effect: 'deny',
  });
  assert.deepEqual(store.lookup('t', '/b', 'read', implications), {
    tool: 't',
    subject: '/b',
    capability: 'read',
    effect: 'deny',
  });
  store.set('u', '/c', ['write'], 'allow');
  assert.deepEqual(store.lookup('u', '/c', 'read', implications), {
    tool: 'u',
    subject: '/c',
    capability: 'write',
    effect: 'allow',
  });
  assert.equal(store.lookup('u', '/c', 'exec', implications), undefined);
  assert.equal(store.lookup('u', '/d', 'read', implications), undefined);
  assert.equal(store.lookup('v', '/c', 'read', implications), undefined);
  assert.deepEqual(
    store.list().map((d) => `${d.tool} ${d.subject} ${d.capability}`),
    ['t /a read', 't /b write', 't /b read', 'u /c write'],
  );
  store.clear();
  assert.deepEqual(store.list(), []);
});

test('MemoryDecisionStore: a store per owner, made only when asked to; clearing one owner keeps the others', () => {
  const decisions = new MemoryDecisionStore();
  const session: Session = { id: 's1', transport: 'http' };
  const alice = { kind: 'principal', id: 'alice' } as const;
  const bySession = { kind: 'session', session } as const;
  assert.equal(decisions.storeOf({ kind: 'none' }, true), undefined);
  assert.equal(decisions.storeOf(alice, false), undefined);
  assert.equal(decisions.storeOf(bySession, false), undefined);
  const server = decisions.storeOf({ kind: 'server' }, false)!;
  assert.ok(server instanceof DecisionMap);
  const aliceStore = decisions.storeOf(alice, true)!;
  const sessionStore = decisions.storeOf(bySession, true)!;
  assert.equal(decisions.storeOf(alice, false), aliceStore);
  assert.equal(decisions.storeOf(bySession, false), sessionStore);
  assert.notEqual(aliceStore, sessionStore);
  server.set('t', '/s', ['read'], 'allow');
  aliceStore.set('t', '/a', ['read'], 'allow');
  sessionStore.set('t', '/b', ['read'], 'allow');
  decisions.clear(alice);
  assert.equal(decisions.storeOf(alice, false), undefined);
  assert.equal(decisions.storeOf(bySession, false), sessionStore);
  decisions.clear(bySession);
  assert.equal(decisions.storeOf(bySession, false), undefined);
  assert.equal(server.list().length, 1);
  decisions.clear({ kind: 'none' });
  decisions.clear({ kind: 'server' });
  assert.deepEqual(server.list(), []);
  decisions.storeOf(alice, true)!.set('t', '/a', ['read'], 'allow');
  decisions.storeOf(bySession, true)!.set('t', '/b', ['read'], 'allow');
  server.set('t', '/s', ['read'], 'allow');
  decisions.clear();
  assert.deepEqual(
    [decisions.storeOf(alice, false), decisions.storeOf(bySession, false), server.list()],
    [undefined, undefined, []],
  );
});

test('remembered and forget are per owner: a principal, a session, and the policy-wide memory stay apart', () => {
  const policy = createPolicy();
  const session: Session = { id: 's1', transport: 'http' };
  const other: Session = { id: 's2', transport: 'http' };
  const inSession = ctxOf({ session });
  const asAlice = ctxOf({ session: other, principal: { subject: 'alice', issuer: 'https://id' } });
  void policy.remember('t', '/s', ['read'], 'allow', undefined, policy.ownerOf(inSession));
  void policy.remember('t', '/p', ['read'], 'deny', 'no', policy.ownerOf(asAlice));
  void policy.remember('t', '/w', ['read'], 'allow');
  void policy.remember('t', '/none', ['read'], 'allow', undefined, { kind: 'none' });
  assert.deepEqual(policy.remembered(inSession), [{ tool: 't', subject: '/s', capability: 'read', effect: 'allow' }]);
  assert.deepEqual(policy.remembered(asAlice), [
    { tool: 't', subject: '/p', capability: 'read', effect: 'deny', reason: 'no' },
  ]);
  assert.deepEqual(policy.remembered(), [{ tool: 't', subject: '/w', capability: 'read', effect: 'allow' }]);
  assert.deepEqual(policy.remembered(ctxOf({ session: other })), []);
  assert.deepEqual(policy.check('t', '/s', 'read', undefined, policy.ownerOf(inSession)), {
    effect: 'allow',
    source: 'remembered',
  });
  assert.equal(policy.check('t', '/s', 'read'), undefined);
  assert.equal(policy.check('t', '/none', 'read', undefined, { kind: 'none' }), undefined);
  void policy.forget(inSession);
  assert.deepEqual(policy.remembered(inSession), []);
  // The default store is synchronous: `remembered` answers an array, not a promise.
  assert.equal((policy.remembered(asAlice) as readonly unknown[]).length, 1);
  assert.equal((policy.remembered() as readonly unknown[]).length, 1);
  void policy.forget();
  assert.deepEqual([policy.remembered(asAlice), policy.remembered()], [[], []]);
});

test('questionText: the label before the subject, the reason on a second line, an empty label or reason left out', () => {
  assert.equal(
    questionText({ tool: 'cp', subject: '/b', capabilities: ['write'] }),
    'Allow the tool "cp" to use write on "/b"?',
  );
  assert.equal(
    questionText({
      tool: 'cp',
      subject: '/b',
      label: 'destination file',
      capabilities: ['write', 'read'],
      reason: 'copy',
    }),
    'Allow the tool "cp" to use write, read on the destination file "/b"?\nReason: copy',
  );
  assert.equal(
    questionText({ tool: 'cp', subject: '/b', label: '', capabilities: ['write'], reason: '' }),
    'Allow the tool "cp" to use write on "/b"?',
  );
});

test('answerOfElicitation: an accepted decision keeps its trimmed reason; a reason that is not a string is no answer', () => {
  assert.deepEqual(
    answerOfElicitation({ action: 'accept', content: { decision: 'allow_always', reason: '  fine  ' } }),
    { decision: 'allow_always', reason: 'fine' },
  );
  assert.deepEqual(answerOfElicitation({ action: 'accept', content: { decision: 'deny_always' } }), {
    decision: 'deny_always',
  });
  assert.deepEqual(answerOfElicitation({ action: 'accept', content: { decision: 'allow_once', reason: 3 } as never }), {
    decision: 'deny_once',
    reason: 'the user did not answer',
  });
  assert.deepEqual(answerOfElicitation({ action: 'accept' } as never), {
    decision: 'deny_once',
    reason: 'the user did not answer',
  });
  assert.deepEqual(answerOfElicitation({ action: 'decline', content: { decision: 'allow_once' } } as never), {
    decision: 'deny_once',
  });
});

test('askQuestion: a host ask wins over elicit; an answer that never comes is deny once after askTimeoutMs; Infinity waits', async () => {
  const question = { tool: 't', subject: '/a', capabilities: ['write'] };
  const elicited: string[] = [];
  const ctx = createCallContext({
    call,
    elicit: async (q) => {
      elicited.push(q.message);
      return { action: 'accept', content: { decision: 'allow_once' } };
    },
  });
  assert.deepEqual(await askQuestion(question, ctx, () => ({ decision: 'allow_always', reason: ' ok ' })), {
    decision: 'allow_always',
    reason: 'ok',
  });
  assert.deepEqual(elicited, []);
  assert.deepEqual(await askQuestion(question, ctx, undefined), { decision: 'allow_once' });
  assert.deepEqual(elicited, ['Allow the tool "t" to use write on "/a"?']);
  assert.deepEqual(await askQuestion(question, ctx, () => new Promise<PermissionAnswer>(() => undefined), 5), {
    decision: 'deny_once',
    reason: ASK_TIMED_OUT_REASON,
  });
  let answer!: (value: PermissionAnswer) => void;
  const waiting = askQuestion(
    question,
    ctx,
    () =>
      new Promise<PermissionAnswer>((resolve) => {
        answer = resolve;
      }),
    Infinity,
  );
  await new Promise((resolve) => setTimeout(resolve, 20));
  answer({ decision: 'deny_always' });
  assert.deepEqual(await waiting, { decision: 'deny_always' });
  assert.deepEqual(
    await askQuestion(question, ctx, () => {
      throw new Error('no terminal');
    }),
    { decision: 'deny_once', reason: 'the user could not be asked' },
  );
});

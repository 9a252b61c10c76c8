import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DecisionMap,
  MemoryDecisionStore,
  createPolicy,
  type DecisionOwner,
  type DecisionSelector,
  type PermissionAnswer,
  type PermissionEffect,
  type PermissionPolicy,
  type RememberedDecisionStore,
  type StoredDecision,
} from '../src/runtime/permissions/index.js';
import { runUnderPolicy } from '../src/runtime/permissions/apply.js';
import { decisionCovering, selects } from '../src/runtime/permissions/remembered.js';
import { implicationsOf } from '../src/runtime/permissions/capabilities.js';
import { type CallContext, type Session } from '../src/contract/index.js';
import { ctxOf as contextOf } from './support/text.js';

/*
 * Remembered decisions behind a pluggable store (`decisionStore`: any `RememberedDecisionStore`,
 * answering synchronously or with promises), as mutation testing (`npm run mutate:permissions`)
 * found them unpinned after the stores work. The stores here are in memory (a `MemoryDecisionStore`
 * behind another class, so the policy cannot read it directly); the Redis store has its own
 * suite (stores-decisions). See docs/mutation.md.
 */

const call = { id: 'c1', tool: 'tool', args: {} };
const ALICE: DecisionOwner = { kind: 'principal', id: 'alice' };
const NONE: DecisionOwner = { kind: 'none' };
const SERVER: DecisionOwner = { kind: 'server' };

/** The name of an owner in the call log. */
function nameOf(owner: DecisionOwner): string {
  return owner.kind === 'principal'
    ? `principal:${owner.id}`
    : owner.kind === 'session'
      ? `session:${owner.session.id}`
      : owner.kind;
}

/**
 * A store that is not a `MemoryDecisionStore` (so the policy goes through the interface), keeping its
 * decisions in one, logging each call, answering with promises when `async` (else at once), and
 * rejecting every call with `failure` when it is set.
 */
class LoggingStore implements RememberedDecisionStore {
  readonly calls: string[] = [];
  readonly inner = new MemoryDecisionStore();
  failure: Error | undefined;

  constructor(private readonly async: boolean) {}

  private answer<T>(value: () => T): T | Promise<T> {
    if (this.failure !== undefined) {
      const failure = this.failure;
      if (this.async) return Promise.reject(failure);
      throw failure;
    }
    return this.async ? Promise.resolve().then(value) : value();
  }

  decisionsOn(owner: DecisionOwner, tool: string, subject: string): StoredDecision[] | Promise<StoredDecision[]> {
    this.calls.push(`decisionsOn ${nameOf(owner)} ${tool} ${subject}`);
    return this.answer(() => this.inner.decisionsOn(owner, tool, subject));
  }

  remember(
    owner: DecisionOwner,
    tool: string,
    subject: string,
    capabilities: readonly string[],
    effect: PermissionEffect,
    reason?: string,
  ): void | Promise<void> {
    this.calls.push(
      `remember ${nameOf(owner)} ${tool} ${subject} ${capabilities.join(',')} ${effect}${reason === undefined ? '' : ` ${reason}`}`,
    );
    return this.answer(() => this.inner.remember(owner, tool, subject, capabilities, effect, reason));
  }

  list(owner: DecisionOwner): StoredDecision[] | Promise<StoredDecision[]> {
    this.calls.push(`list ${nameOf(owner)}`);
    return this.answer(() => this.inner.list(owner));
  }

  revoke(owner: DecisionOwner, selector?: DecisionSelector): number | Promise<number> {
    this.calls.push(`revoke ${nameOf(owner)} ${JSON.stringify(selector)}`);
    return this.answer(() => this.inner.revoke(owner, selector));
  }

  clear(): void | Promise<void> {
    this.calls.push('clear');
    return this.answer(() => this.inner.clear());
  }
}

const ctxOf = (extra: { session?: Session; principal?: { subject: string; issuer?: string } } = {}): CallContext =>
  contextOf(extra, call);

/** Runs one imperative check under `policy` as one call; resolves the grant and the record. */
async function check(policy: PermissionPolicy, subject: string, capabilities: string[], ctx: CallContext = ctxOf()) {
  return runUnderPolicy(policy, 'tool', ctx, async (runCtx) => runCtx.requirePermission({ subject, capabilities }));
}

test('a store that is not a MemoryDecisionStore is asked through its interface: synchronous answers stay synchronous', () => {
  const store = new LoggingStore(false);
  const policy = createPolicy({
    decisionStore: store,
    implications: { write: ['read'] },
    rules: [{ effect: 'deny', path: '/ruled' }],
  });
  assert.equal(policy.decisionStore, store);
  void policy.remember('t', '/a', ['write'], 'allow', 'ok', ALICE);
  void policy.remember('t', '/a', ['write'], 'allow', undefined, NONE);
  const verdicts = policy.verdictsOn('t', '/a', ['read', 'exec'], undefined, ALICE);
  assert.ok(verdicts instanceof Map);
  assert.deepEqual(
    [...verdicts],
    [
      ['read', { effect: 'allow', source: 'remembered', reason: 'ok' }],
      ['exec', undefined],
    ],
  );
  assert.deepEqual(policy.check('t', '/a', 'write', undefined, ALICE), {
    effect: 'allow',
    source: 'remembered',
    reason: 'ok',
  });
  // The rules decide without the store; the `none` owner never reaches it.
  assert.deepEqual(policy.check('t', '/ruled', 'read', undefined, ALICE), { effect: 'deny', source: 'rule' });
  assert.equal(policy.check('t', '/a', 'read', undefined, NONE), undefined);
  const listed = policy.remembered(ctxOf({ principal: { subject: 'alice' } }));
  assert.ok(Array.isArray(listed));
  assert.deepEqual(store.calls, [
    'remember principal:alice t /a write allow ok',
    'decisionsOn principal:alice t /a',
    'decisionsOn principal:alice t /a',
    `list ${nameOf(policy.ownerOf(ctxOf({ principal: { subject: 'alice' } })))}`,
  ]);
  assert.equal(policy.revoke({ tool: 't' }, ALICE), 1);
  assert.equal(policy.revoke(undefined, NONE), 0);
  assert.equal(policy.forget(ctxOf({ session: { id: '', transport: 'http' } })), undefined);
  assert.equal(policy.forget(ctxOf({ session: { id: 's1', transport: 'http' } })), undefined);
  assert.deepEqual(store.calls.slice(4), ['revoke principal:alice {"tool":"t"}', 'revoke session:s1 undefined']);
});

test('a store answering with promises: decide, verdictsOn, remember, remembered, revoke and forget resolve; check refuses only when it needs the store', async () => {
  const store = new LoggingStore(true);
  const policy = createPolicy({
    decisionStore: store,
    implications: { write: ['read'] },
    rules: [{ effect: 'allow', path: '/open' }],
  });
  const remembering = policy.remember('t', '/a', ['write'], 'deny', 'no', SERVER);
  assert.ok(remembering instanceof Promise);
  await remembering;
  assert.deepEqual(await policy.decide('t', '/a', 'write'), { effect: 'deny', source: 'remembered', reason: 'no' });
  assert.equal(await policy.decide('t', '/b', 'write'), undefined);
  const pending = policy.verdictsOn('t', '/a', ['write', 'exec'], undefined, SERVER);
  assert.ok(pending instanceof Promise);
  assert.deepEqual(
    [...(await pending)],
    [
      ['write', { effect: 'deny', source: 'remembered', reason: 'no' }],
      ['exec', undefined],
    ],
  );
  // The `none` owner: no store call, at once.
  const unowned = policy.verdictsOn('t', '/a', ['write'], undefined, NONE);
  assert.ok(unowned instanceof Map);
  assert.deepEqual([...unowned], [['write', undefined]]);
  // A call's "once" answers are consulted after the store's.
  const once = new DecisionMap();
  once.set('t', '/b', ['exec'], 'allow');
  assert.deepEqual(await policy.decide('t', '/b', 'exec', once), { effect: 'allow', source: 'once' });
  assert.deepEqual(policy.check('t', '/open', 'write'), { effect: 'allow', source: 'rule' });
  assert.throws(() => policy.check('t', '/a', 'write'), {
    name: 'TypeError',
    message:
      "permissions: check() answers synchronously, but this policy's decisionStore answers asynchronously: use await policy.decide(...)",
  });
  const listed = policy.remembered();
  assert.ok(listed instanceof Promise);
  assert.deepEqual(await listed, [{ tool: 't', subject: '/a', capability: 'write', effect: 'deny', reason: 'no' }]);
  assert.deepEqual(policy.remembered(ctxOf({ session: { id: '', transport: 'http' } })), []);
  const revoked = policy.revoke({ capability: 'read' });
  assert.ok(revoked instanceof Promise);
  assert.equal(await revoked, 0);
  const forgotten = policy.forget(ctxOf());
  assert.ok(forgotten instanceof Promise);
  assert.equal(await forgotten, undefined);
  assert.deepEqual(await policy.remembered(), []);
  await policy.remember('t', '/c', ['read'], 'allow');
  await policy.forget();
  assert.deepEqual(store.inner.list(SERVER), []);
  assert.deepEqual(store.calls, [
    'remember server t /a write deny no',
    'decisionsOn server t /a',
    'decisionsOn server t /b',
    'decisionsOn server t /a',
    'decisionsOn server t /b',
    'decisionsOn server t /a',
    'list server',
    'revoke server {"capability":"read"}',
    'revoke server undefined',
    'list server',
    'remember server t /c read allow',
    'clear',
  ]);
});

test('through a call: an "always" answer goes to the asynchronous store and answers the next call; a store that fails fails the check with its error', async () => {
  const store = new LoggingStore(true);
  const answers: PermissionAnswer[] = [{ decision: 'allow_always', reason: 'fine' }];
  const asked: string[] = [];
  const policy = createPolicy({
    decisionStore: store,
    decisionScope: 'server',
    ask: (question) => {
      asked.push(question.subject);
      return answers.shift();
    },
  });
  const first = await check(policy, '/a', ['read']);
  assert.deepEqual(first.value, ['read']);
  const second = await check(policy, '/a', ['read']);
  assert.deepEqual(second.value, ['read']);
  assert.deepEqual(second.record!.data, {
    decisions: [],
    grants: [{ subjects: ['/a'], capabilities: ['read'], granted: ['read'] }],
  });
  assert.deepEqual(asked, ['/a']);
  assert.deepEqual(store.calls, [
    'decisionsOn server tool /a',
    'remember server tool /a read allow fine',
    'decisionsOn server tool /a',
    'decisionsOn server tool /a',
  ]);
  store.failure = new Error('store down');
  await assert.rejects(check(policy, '/a', ['read']), { message: 'store down' });
  store.failure = undefined;
  answers.push({ decision: 'deny_always' });
  const failing = createPolicy({
    decisionStore: store,
    ask: () => {
      store.failure = new Error('cannot remember');
      return { decision: 'deny_always' };
    },
  });
  await assert.rejects(check(failing, '/z', ['read']), { message: 'cannot remember' });
});

test('decisionStore must have every method of a remembered-decision store', () => {
  const message = (got: string) =>
    `permissions: "decisionStore" must be a remembered-decision store with decisionsOn, remember, list, revoke, clear methods (a MemoryDecisionStore, a RedisDecisionStore), got ${got}`;
  assert.throws(() => createPolicy({ decisionStore: null as never }), { name: 'TypeError', message: message('null') });
  assert.throws(() => createPolicy({ decisionStore: 'redis' as never }), {
    name: 'TypeError',
    message: message('a string'),
  });
  const full = {
    decisionsOn: () => [],
    remember: () => undefined,
    list: () => [],
    revoke: () => 0,
    clear: () => undefined,
  };
  for (const missing of ['decisionsOn', 'remember', 'list', 'revoke', 'clear']) {
    const partial: Record<string, unknown> = { ...full, [missing]: 'not a function' };
    assert.throws(
      () => createPolicy({ decisionStore: partial as never }),
      { name: 'TypeError', message: message('an object') },
      missing,
    );
  }
  assert.equal(createPolicy({ decisionStore: full }).decisionStore, full);
});

test('decisionCovering: a deny of the capability or of what it implies wins, first in implication order; else an allow of what implies it, first as given', () => {
  const implications = implicationsOf({ admin: ['write'], write: ['read'] });
  const stored = (capability: string, effect: PermissionEffect): StoredDecision => ({
    tool: 't',
    subject: '/a',
    capability,
    effect,
  });
  const byCapability = (...decisions: StoredDecision[]) => new Map(decisions.map((d) => [d.capability, d]));
  assert.deepEqual(
    decisionCovering(byCapability(stored('admin', 'allow'), stored('read', 'deny')), 'write', implications),
    stored('read', 'deny'),
  );
  assert.deepEqual(
    decisionCovering(byCapability(stored('read', 'deny'), stored('write', 'deny')), 'admin', implications),
    stored('write', 'deny'),
  );
  assert.deepEqual(
    decisionCovering(byCapability(stored('write', 'allow'), stored('admin', 'allow')), 'read', implications),
    stored('write', 'allow'),
  );
  assert.deepEqual(
    decisionCovering(byCapability(stored('admin', 'allow'), stored('write', 'allow')), 'read', implications),
    stored('admin', 'allow'),
  );
  assert.equal(decisionCovering(byCapability(stored('read', 'allow')), 'write', implications), undefined);
  assert.equal(decisionCovering(byCapability(stored('admin', 'deny')), 'write', implications), undefined);
  assert.equal(decisionCovering(new Map(), 'read', implications), undefined);
});

test('selects: no selector selects everything; each member given must match', () => {
  const decision: StoredDecision = { tool: 't', subject: '/a', capability: 'read', effect: 'allow' };
  assert.equal(selects(undefined, decision), true);
  assert.equal(selects({}, decision), true);
  assert.equal(selects({ tool: 't', subject: '/a', capability: 'read' }, decision), true);
  assert.equal(selects({ tool: 'u' }, decision), false);
  assert.equal(selects({ subject: '/b' }, decision), false);
  assert.equal(selects({ capability: 'write' }, decision), false);
  assert.equal(selects({ tool: 't', subject: '/b' }, decision), false);
  assert.equal(selects({ tool: 't', capability: 'write' }, decision), false);
  assert.equal(selects({ subject: '/a', capability: 'write' }, decision), false);
});

test('DecisionMap.revoke: forgets what matches, answers how many, and drops emptied tools and subjects (a later decision is listed last)', () => {
  const store = new DecisionMap();
  store.set('t', '/a', ['read', 'write'], 'allow');
  store.set('t', '/b', ['read'], 'deny', 'no');
  store.set('u', '/a', ['read'], 'allow');
  assert.equal(store.revoke({ capability: 'exec' }), 0);
  assert.equal(store.revoke({ subject: '/a', capability: 'read' }), 2);
  assert.deepEqual(
    store.list().map((d) => `${d.tool} ${d.subject} ${d.capability}`),
    ['t /a write', 't /b read'],
  );
  assert.equal(store.revoke({ tool: 't', subject: '/a' }), 1);
  store.set('t', '/a', ['exec'], 'allow');
  store.set('u', '/a', ['exec'], 'allow');
  assert.deepEqual(
    store.list().map((d) => `${d.tool} ${d.subject} ${d.capability}`),
    ['t /b read', 't /a exec', 'u /a exec'],
  );
  assert.equal(store.revoke({ tool: 't' }), 2);
  store.set('t', '/c', ['read'], 'allow');
  assert.deepEqual(
    store.list().map((d) => `${d.tool} ${d.subject} ${d.capability}`),
    ['u /a exec', 't /c read'],
  );
  assert.deepEqual(store.on('t', '/b'), []);
  assert.equal(store.revoke(), 2);
  assert.deepEqual(store.list(), []);
});

test('MemoryDecisionStore through its interface: decisionsOn, list and revoke per owner; nothing kept for "none"; clear() forgets every owner', () => {
  const decisions = new MemoryDecisionStore();
  const session: Session = { id: 's1', transport: 'http' };
  const bySession: DecisionOwner = { kind: 'session', session };
  decisions.remember(ALICE, 't', '/a', ['read'], 'allow', 'yes');
  decisions.remember(bySession, 't', '/a', ['write'], 'deny');
  decisions.remember(SERVER, 't', '/a', ['exec'], 'allow');
  decisions.remember(NONE, 't', '/a', ['read'], 'allow');
  assert.deepEqual(decisions.decisionsOn(ALICE, 't', '/a'), [
    { tool: 't', subject: '/a', capability: 'read', effect: 'allow', reason: 'yes' },
  ]);
  assert.deepEqual(decisions.decisionsOn(bySession, 't', '/a'), [
    { tool: 't', subject: '/a', capability: 'write', effect: 'deny' },
  ]);
  assert.deepEqual(decisions.decisionsOn({ kind: 'principal', id: 'bob' }, 't', '/a'), []);
  assert.deepEqual(decisions.decisionsOn(NONE, 't', '/a'), []);
  assert.deepEqual(decisions.list(NONE), []);
  assert.deepEqual(decisions.list({ kind: 'principal', id: 'bob' }), []);
  assert.deepEqual(decisions.list(SERVER), [{ tool: 't', subject: '/a', capability: 'exec', effect: 'allow' }]);
  assert.equal(decisions.revoke(NONE), 0);
  assert.equal(decisions.revoke({ kind: 'principal', id: 'bob' }), 0);
  assert.equal(decisions.revoke(bySession, { capability: 'read' }), 0);
  assert.equal(decisions.revoke(bySession), 1);
  decisions.clear();
  assert.deepEqual([decisions.list(ALICE), decisions.list(SERVER)], [[], []]);
});

test('remembered answers a copy of what the store lists, synchronously or not; check leaves no unhandled rejection behind when an asynchronous store fails', async () => {
  const shared: readonly StoredDecision[] = Object.freeze([
    Object.freeze({ tool: 't', subject: '/a', capability: 'read', effect: 'allow' as const }),
  ]);
  const listing = (async: boolean): RememberedDecisionStore => ({
    decisionsOn: () => (async ? Promise.reject(new Error('store down')) : []),
    remember: () => undefined,
    list: () => (async ? Promise.resolve(shared) : shared),
    revoke: () => 0,
    clear: () => undefined,
  });
  const now = createPolicy({ decisionStore: listing(false) }).remembered() as StoredDecision[];
  const later = await createPolicy({ decisionStore: listing(true) }).remembered();
  for (const listed of [now, later]) {
    assert.notEqual(listed, shared);
    assert.deepEqual(listed, shared);
    listed.push(shared[0]!);
    assert.equal(shared.length, 1);
  }
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown): void => {
    unhandled.push(reason);
  };
  process.on('unhandledRejection', onUnhandled);
  try {
    const failing = createPolicy({ decisionStore: listing(true) });
    assert.throws(() => failing.check('t', '/a', 'read'), { name: 'TypeError' });
    for (let turn = 0; turn < 5; turn += 1) await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('unhandledRejection', onUnhandled);
  }
  assert.deepEqual(unhandled, []);
});

test('MemoryDecisionStore makes a store for an owner only to remember: looking up, listing, revoking and checking make none; forget drops it again', () => {
  const decisions = new MemoryDecisionStore();
  const bob: DecisionOwner = { kind: 'principal', id: 'bob' };
  const session: Session = { id: 's9', transport: 'http' };
  const bySession: DecisionOwner = { kind: 'session', session };
  for (const owner of [bob, bySession]) {
    assert.deepEqual(decisions.decisionsOn(owner, 't', '/a'), []);
    assert.deepEqual(decisions.list(owner), []);
    assert.equal(decisions.revoke(owner), 0);
    assert.equal(decisions.storeOf(owner, false), undefined);
  }
  const policy = createPolicy({ decisionStore: decisions });
  assert.equal(policy.check('t', '/a', 'read', undefined, bob), undefined);
  assert.equal(decisions.storeOf(bob, false), undefined);
  const asBob = ctxOf({ principal: { subject: 'bob' } });
  const owner = policy.ownerOf(asBob);
  void policy.remember('t', '/a', ['read'], 'allow', undefined, owner);
  assert.notEqual(decisions.storeOf(owner, false), undefined);
  void policy.forget(asBob);
  assert.equal(decisions.storeOf(owner, false), undefined);
});

test('decisionStore must be an object: a function carrying every method is refused', () => {
  const store = Object.assign(() => undefined, {
    decisionsOn: () => [],
    remember: () => undefined,
    list: () => [],
    revoke: () => 0,
    clear: () => undefined,
  });
  assert.throws(() => createPolicy({ decisionStore: store as never }), {
    name: 'TypeError',
    message:
      'permissions: "decisionStore" must be a remembered-decision store with decisionsOn, remember, list, revoke, clear methods (a MemoryDecisionStore, a RedisDecisionStore), got a function',
  });
});

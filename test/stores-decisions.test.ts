import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  createPolicy,
  principalKey,
  MemoryDecisionStore,
  type DecisionOwner,
  type PermissionDecision,
  type PermissionPolicy,
  type StateScope,
} from '../src/runtime/index.js';
import { serveHttp, type HttpHandle } from '../src/mcp/index.js';
import { connectRedis, RedisDecisionStore, type RedisConnection } from '../src/redis/index.js';
import { redisSkip, startRedisServer, type RedisServer } from './support/redis-server.js';
import { STORES_AUTH, writeTool } from './support/stores-tools.js';

/*
 * Remembered ("always") decisions shared through a real redis-server: the store itself, a
 * policy using it, and two toolwright servers (two "processes", each with its own connection,
 * store and policy) over real HTTP on 127.0.0.1, with principals from a host token verifier
 * (the token is the subject). Each process's policy asks through a host `ask` that records who
 * was asked where and answers as the test says.
 */

let redis: RedisServer | undefined;
const connections: RedisConnection[] = [];
const handles: HttpHandle[] = [];
const closers: (() => Promise<void>)[] = [];

before(async () => {
  if (redisSkip !== undefined) return;
  redis = await startRedisServer();
});

after(async () => {
  for (const close of closers) await close();
  for (const handle of handles) await handle.close();
  for (const connection of connections) await connection.close();
  await redis?.stop();
});

async function connection(): Promise<RedisConnection> {
  const made = await connectRedis({ url: redis!.url, commandTimeoutMs: 500 });
  connections.push(made);
  return made;
}

const SERVER: DecisionOwner = { kind: 'server' };
const ALICE: DecisionOwner = {
  kind: 'principal',
  id: principalKey({ issuer: 'https://as.example', subject: 'alice' }),
};
const BOB: DecisionOwner = { kind: 'principal', id: principalKey({ issuer: 'https://as.example', subject: 'bob' }) };

test(
  'RedisDecisionStore: what one connection remembers, another sees at once, per owner; list in order; revoke by selector; clear',
  { skip: redisSkip },
  async () => {
    const one = new RedisDecisionStore(await connection(), { namespace: 'unit' });
    const two = new RedisDecisionStore(await connection(), { namespace: 'unit' });
    const elsewhere = new RedisDecisionStore(await connection(), { namespace: 'other' });
    await one.remember(ALICE, 'write_file', '/tmp/a', ['write', 'read'], 'allow');
    await one.remember(ALICE, 'write_file', '/etc/x', ['write'], 'deny', 'system file');
    await one.remember(ALICE, 'rm', '/tmp/a', ['exec'], 'allow');
    await one.remember(BOB, 'write_file', '/tmp/a', ['write'], 'deny');
    await one.remember(SERVER, 'write_file', '/tmp/a', ['read'], 'allow');
    assert.deepEqual(await two.decisionsOn(ALICE, 'write_file', '/tmp/a'), [
      { tool: 'write_file', subject: '/tmp/a', capability: 'write', effect: 'allow' },
      { tool: 'write_file', subject: '/tmp/a', capability: 'read', effect: 'allow' },
    ]);
    assert.deepEqual(await two.decisionsOn(BOB, 'write_file', '/tmp/a'), [
      { tool: 'write_file', subject: '/tmp/a', capability: 'write', effect: 'deny' },
    ]);
    assert.deepEqual(await two.decisionsOn(SERVER, 'write_file', '/tmp/a'), [
      { tool: 'write_file', subject: '/tmp/a', capability: 'read', effect: 'allow' },
    ]);
    assert.deepEqual(await elsewhere.decisionsOn(ALICE, 'write_file', '/tmp/a'), []);
    // Remembering a capability again replaces it, and moves it to the end of the order.
    await two.remember(ALICE, 'write_file', '/tmp/a', ['write'], 'deny', 'changed my mind');
    assert.deepEqual(await one.list(ALICE), [
      { tool: 'write_file', subject: '/tmp/a', capability: 'read', effect: 'allow' },
      { tool: 'write_file', subject: '/etc/x', capability: 'write', effect: 'deny', reason: 'system file' },
      { tool: 'rm', subject: '/tmp/a', capability: 'exec', effect: 'allow' },
      { tool: 'write_file', subject: '/tmp/a', capability: 'write', effect: 'deny', reason: 'changed my mind' },
    ]);
    assert.equal(await two.revoke(ALICE, { tool: 'write_file', capability: 'write' }), 2);
    assert.equal(await two.revoke(ALICE, { subject: '/nowhere' }), 0);
    assert.deepEqual(await one.list(ALICE), [
      { tool: 'write_file', subject: '/tmp/a', capability: 'read', effect: 'allow' },
      { tool: 'rm', subject: '/tmp/a', capability: 'exec', effect: 'allow' },
    ]);
    assert.equal(await one.revoke(ALICE, { subject: '/tmp/a' }), 2);
    assert.deepEqual(await one.list(ALICE), []);
    assert.equal(await one.revoke(BOB), 1);
    // Nothing is kept for the "none" owner (a stateless request without a principal).
    await one.remember({ kind: 'none' }, 'write_file', '/tmp/a', ['write'], 'allow');
    assert.deepEqual(await one.list({ kind: 'none' }), []);
    await elsewhere.remember(SERVER, 't', 's', ['c'], 'allow');
    await one.clear();
    assert.deepEqual(await two.list(SERVER), []);
    assert.deepEqual(
      await elsewhere.list(SERVER),
      [{ tool: 't', subject: 's', capability: 'c', effect: 'allow' }],
      'clear() keeps to its namespace',
    );
  },
);

test(
  'RedisDecisionStore: a session with an id is kept in Redis with an expiry; one without an id stays in this process',
  { skip: redisSkip },
  async () => {
    const conn = await connection();
    const store = new RedisDecisionStore(conn, { namespace: 'sessions', sessionTtlMs: 60_000 });
    const other = new RedisDecisionStore(conn, { namespace: 'sessions' });
    const http: DecisionOwner = {
      kind: 'session',
      session: Object.freeze({ id: 'sess-1', transport: 'http' as const }),
    };
    const sameIdElsewhere: DecisionOwner = {
      kind: 'session',
      session: Object.freeze({ id: 'sess-1', transport: 'http' as const }),
    };
    const stdio: DecisionOwner = { kind: 'session', session: Object.freeze({ id: '', transport: 'stdio' as const }) };
    await store.remember(http, 'w', '/a', ['write'], 'allow');
    assert.deepEqual(await other.decisionsOn(sameIdElsewhere, 'w', '/a'), [
      { tool: 'w', subject: '/a', capability: 'write', effect: 'allow' },
    ]);
    const ttl = Number(await conn.command(['PTTL', 'toolwright:decisions:sessions:session:sess-1']));
    assert.ok(ttl > 0 && ttl <= 60_000, `PTTL ${ttl}`);
    await store.remember(stdio, 'w', '/a', ['write'], 'allow');
    assert.deepEqual(await store.decisionsOn(stdio, 'w', '/a'), [
      { tool: 'w', subject: '/a', capability: 'write', effect: 'allow' },
    ]);
    assert.deepEqual(await other.decisionsOn(stdio, 'w', '/a'), [], "an id-less session is one process's own");
  },
);

test(
  'a policy with a Redis store: decide/remembered/revoke answer as promises; the synchronous check refuses only when it needs the store',
  { skip: redisSkip },
  async () => {
    const store = new RedisDecisionStore(await connection(), { namespace: 'policy' });
    const policy = createPolicy({
      decisionStore: store,
      implications: { write: ['read'] },
      rules: [{ effect: 'deny', capabilities: ['exec'], reason: 'no exec' }],
    });
    assert.deepEqual(policy.check('t', '/a', 'exec'), { effect: 'deny', source: 'rule', reason: 'no exec' });
    assert.throws(() => policy.check('t', '/a', 'read'), {
      name: 'TypeError',
      message:
        "permissions: check() answers synchronously, but this policy's decisionStore answers asynchronously: use await policy.decide(...)",
    });
    assert.equal(await policy.decide('t', '/a', 'read'), undefined);
    await policy.remember('t', '/a', ['write'], 'allow');
    assert.deepEqual(await policy.decide('t', '/a', 'read'), { effect: 'allow', source: 'remembered' });
    assert.deepEqual(await policy.remembered(), [{ tool: 't', subject: '/a', capability: 'write', effect: 'allow' }]);
    // Another process's policy over the same Redis sees it, and its revocation holds here.
    const elsewhere = createPolicy({
      decisionStore: new RedisDecisionStore(await connection(), { namespace: 'policy' }),
      implications: { write: ['read'] },
    });
    assert.deepEqual(await elsewhere.decide('t', '/a', 'write'), { effect: 'allow', source: 'remembered' });
    assert.equal(await elsewhere.revoke({ tool: 't' }), 1);
    assert.equal(await policy.decide('t', '/a', 'read'), undefined);
    assert.throws(() => createPolicy({ decisionStore: {} as never }), {
      name: 'TypeError',
      message:
        'permissions: "decisionStore" must be a remembered-decision store with decisionsOn, remember, list, revoke, clear methods (a MemoryDecisionStore, a RedisDecisionStore), got an object',
    });
  },
);

test('the memory store answers the same interface synchronously: revoke by selector, list, forget', () => {
  const policy = createPolicy({ decisionStore: new MemoryDecisionStore() });
  void policy.remember('t', '/a', ['write', 'read'], 'allow', undefined, ALICE);
  void policy.remember('t', '/b', ['write'], 'deny', 'no', ALICE);
  assert.deepEqual(policy.check('t', '/a', 'write', undefined, ALICE), { effect: 'allow', source: 'remembered' });
  assert.equal(policy.revoke({ subject: '/a', capability: 'write' }, ALICE), 1);
  assert.equal(policy.check('t', '/a', 'write', undefined, ALICE), undefined);
  assert.deepEqual(policy.decisionStore.list(ALICE), [
    { tool: 't', subject: '/a', capability: 'read', effect: 'allow' },
    { tool: 't', subject: '/b', capability: 'write', effect: 'deny', reason: 'no' },
  ]);
  assert.equal(policy.revoke(undefined, ALICE), 2);
  assert.equal(policy.revoke(undefined, BOB), 0);
});

// ---- Over HTTP: two processes sharing one Redis ----

/** Who was asked, as `<process>:<principal or session>:<subject>`, in order. */
const asked: string[] = [];
/** What each principal (or `session`) answers when asked. */
const answers = new Map<string, PermissionDecision>();

/** One "process": its own Redis connection, decision store and policy, serving writeTool over HTTP. */
async function process(
  name: string,
  scope: StateScope,
  withAuth: boolean,
): Promise<{ handle: HttpHandle; policy: PermissionPolicy }> {
  const store = new RedisDecisionStore(await connection(), { namespace: `http-${scope}` });
  const policy = createPolicy({
    decisionStore: store,
    decisionScope: scope,
    ask: (question, ctx) => {
      const who = ctx.principal?.subject ?? `session`;
      asked.push(`${name}:${who}:${question.subject}`);
      return { decision: answers.get(who) ?? 'deny_once' };
    },
  });
  const handle = await serveHttp(
    { name, version: '1.0.0' },
    [writeTool],
    withAuth ? { policy, auth: STORES_AUTH } : { policy },
  );
  handles.push(handle);
  return { handle, policy };
}

async function client(url: string, token?: string): Promise<Client> {
  const made = new Client({ name: 'user', version: '1.0.0' });
  await made.connect(
    new StreamableHTTPClientTransport(
      new URL(url),
      token === undefined ? undefined : { requestInit: { headers: { authorization: `Bearer ${token}` } } },
    ),
  );
  closers.push(() => made.close());
  return made;
}

async function modern(url: string, token: string): Promise<{ callTool(params: object): Promise<unknown> }> {
  const { Client: V2Client, StreamableHTTPClientTransport: V2Transport } = await import('@modelcontextprotocol/client');
  const made = new V2Client(
    { name: 'modern', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await made.connect(new V2Transport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  closers.push(() => made.close());
  return made as never;
}

async function write(on: { callTool(params: object): Promise<unknown> }, path: string): Promise<unknown> {
  const result = (await on.callTool({ name: 'write_file', arguments: { path } })) as {
    content: unknown;
    isError?: boolean;
  };
  return result.isError === true ? { error: result.content } : result.content;
}

const wrote = (path: string) => [{ type: 'text', text: `wrote ${path}` }];

test(
  '"allow always" given through one process is honoured by another for the same principal, not for another principal; a revocation holds everywhere',
  { skip: redisSkip, timeout: 30_000 },
  async () => {
    const a = await process('A', 'principal', true);
    const b = await process('B', 'principal', true);
    asked.length = 0;
    answers.set('alice', 'allow_always');
    answers.set('bob', 'deny_once');
    const aliceOnA = await client(a.handle.url, 'alice');
    const aliceOnB = await modern(b.handle.url, 'alice');
    const bobOnB = await modern(b.handle.url, 'bob');
    assert.deepEqual(await write(aliceOnA, '/tmp/p1'), wrote('/tmp/p1'));
    assert.deepEqual(await write(aliceOnB, '/tmp/p1'), wrote('/tmp/p1'));
    assert.deepEqual(await write(bobOnB, '/tmp/p1'), {
      error: [{ type: 'text', text: 'permission denied: write on "/tmp/p1"' }],
    });
    assert.deepEqual(asked, ['A:alice:/tmp/p1', 'B:bob:/tmp/p1']);
    assert.deepEqual(await b.policy.decisionStore.list(ALICE), [
      { tool: 'write_file', subject: '/tmp/p1', capability: 'write', effect: 'allow' },
    ]);
    // B revokes alice's decision: A asks her again on its next check.
    assert.equal(await b.policy.revoke({ tool: 'write_file', subject: '/tmp/p1' }, ALICE), 1);
    answers.set('alice', 'deny_once');
    assert.deepEqual(await write(aliceOnA, '/tmp/p1'), {
      error: [{ type: 'text', text: 'permission denied: write on "/tmp/p1"' }],
    });
    assert.deepEqual(asked, ['A:alice:/tmp/p1', 'B:bob:/tmp/p1', 'A:alice:/tmp/p1']);
  },
);

test(
  'decisionScope "session": a session\'s "always" holds for that session only, never for another session on another process',
  { skip: redisSkip, timeout: 30_000 },
  async () => {
    const a = await process('A', 'session', false);
    const b = await process('B', 'session', false);
    asked.length = 0;
    answers.set('session', 'allow_always');
    const first = await client(a.handle.url);
    assert.deepEqual(await write(first, '/tmp/s1'), wrote('/tmp/s1'));
    assert.deepEqual(await write(first, '/tmp/s1'), wrote('/tmp/s1'));
    answers.set('session', 'deny_once');
    const second = await client(b.handle.url);
    assert.deepEqual(await write(second, '/tmp/s1'), {
      error: [{ type: 'text', text: 'permission denied: write on "/tmp/s1"' }],
    });
    assert.deepEqual(asked, ['A:session:/tmp/s1', 'B:session:/tmp/s1']);
  },
);

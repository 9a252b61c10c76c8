import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  createCallContext,
  createPolicy,
  decisionOwnerOf,
  normalisedPathSubject,
  type PermissionDecision,
  type PermissionPolicy,
} from '../src/runtime/index.js';
import { serveHttp, type HttpHandle, type StateScope } from '../src/index.js';
import { guardedShell, shellPolicy } from '../samples/shell/index.js';

type After = { after(fn: () => Promise<void>): void };

/** The shell sample as `npm start` serves it at `/shell/mcp`, over real HTTP on 127.0.0.1. */
async function serveShell(
  t: After,
  policy: PermissionPolicy,
  options: { stateless?: boolean } = {},
): Promise<HttpHandle> {
  const shell = guardedShell({ policy });
  const handle = await serveHttp({ name: 'shell', version: '1.0.0' }, shell.tools, {
    ...shell.options,
    path: '/shell/mcp',
    ...options,
  });
  t.after(() => handle.close());
  return handle;
}

/** A real SDK client that answers every permission question with `decision`, recording the questions. */
async function user(t: After, url: string, decision: PermissionDecision): Promise<{ client: Client; asked: string[] }> {
  const client = new Client({ name: `user-${decision}`, version: '1.0.0' }, { capabilities: { elicitation: {} } });
  const asked: string[] = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params.message);
    return { action: 'accept', content: { decision } };
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  t.after(() => client.close());
  return { client, asked };
}

const QUESTION = 'Allow the tool "write_file" to use write on the file "/tmp/a.txt"?\nReason: write the file';
const write = (client: Client) =>
  client.callTool({ name: 'write_file', arguments: { path: '/tmp/a.txt', text: 'hi' } });
const wrote = { content: [{ type: 'text', text: 'wrote 2 characters to /tmp/a.txt' }] };

test(
  'robust scope: session A\'s "allow always" never lets session B through (/shell/mcp write_file)',
  { timeout: 30_000 },
  async (t) => {
    const handle = await serveShell(t, shellPolicy());
    const a = await user(t, handle.url, 'allow_always');
    const b = await user(t, handle.url, 'deny_once');
    assert.deepEqual(stripMeta(await write(a.client)), wrote);
    assert.deepEqual(stripMeta(await write(a.client)), wrote);
    assert.deepEqual(a.asked, [QUESTION], 'A is asked once: its own "always" holds for A');
    assert.deepEqual(stripMeta(await write(b.client)), {
      content: [{ type: 'text', text: 'permission denied: write on "/tmp/a.txt"' }],
      isError: true,
    });
    assert.deepEqual(b.asked, [QUESTION], "B is asked: A's answer is not B's");
  },
);

test(
  'robust scope: decisionScope "server" shares one answer with every session (the old behaviour, now opt-in)',
  { timeout: 30_000 },
  async (t) => {
    const handle = await serveShell(t, shellPolicy({ decisionScope: 'server' }));
    const a = await user(t, handle.url, 'allow_always');
    const b = await user(t, handle.url, 'deny_once');
    assert.deepEqual(stripMeta(await write(a.client)), wrote);
    assert.deepEqual(stripMeta(await write(b.client)), wrote);
    assert.deepEqual(b.asked, []);
  },
);

test('robust scope: a stateless request with no principal keeps "always" as "once"', { timeout: 30_000 }, async (t) => {
  const asked: string[] = [];
  const policy = shellPolicy({
    ask: (question) => {
      asked.push(question.subject);
      return { decision: 'allow_always' };
    },
  });
  const handle = await serveShell(t, policy, { stateless: true });
  const client = new Client({ name: 'stateless', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(handle.url)));
  t.after(() => client.close());
  assert.deepEqual(stripMeta(await write(client)), wrote);
  assert.deepEqual(stripMeta(await write(client)), wrote);
  assert.deepEqual(asked, ['/tmp/a.txt', '/tmp/a.txt']);
  assert.deepEqual(policy.remembered(), []);
});

test('robust scope: who owns a decision, per scope', () => {
  const call = { id: '1', tool: 't', args: {} };
  const session = Object.freeze({ id: 'abc', transport: 'http' as const });
  const stateless = Object.freeze({ id: '', transport: 'http' as const });
  const plain = createCallContext({ call, session });
  const withPrincipal = {
    ...createCallContext({ call, session }),
    principal: { subject: 'alice', issuer: 'https://id.example', clientId: 'app', scopes: [], claims: {} },
  } as never;
  const statelessCtx = createCallContext({ call, session: stateless });
  const inProcess = createCallContext({ call });
  const owner = (ctx: never, scope?: StateScope) => decisionOwnerOf(ctx, scope);
  assert.deepEqual(owner(plain as never), { kind: 'session', session });
  assert.deepEqual(owner(withPrincipal), { kind: 'principal', id: '["https://id.example","alice"]' });
  assert.deepEqual(owner(withPrincipal, 'session'), { kind: 'session', session });
  assert.deepEqual(owner(withPrincipal, 'server'), { kind: 'server' });
  assert.deepEqual(owner(statelessCtx as never), { kind: 'none' });
  assert.deepEqual(
    owner({ ...statelessCtx, principal: { subject: 'bob', clientId: 'app', scopes: [], claims: {} } } as never),
    { kind: 'principal', id: '["","bob"]' },
  );
  assert.deepEqual(owner(inProcess as never), { kind: 'server' });
  assert.throws(() => shellPolicy({ decisionScope: 'global' } as never), {
    name: 'TypeError',
    message: 'permissions: "decisionScope" must be one of "session", "principal", "server", got "global"',
  });
});

/** The result without its `_meta` (the permission record, pinned by the permission suites). */
function stripMeta(result: unknown): unknown {
  const { _meta, ...rest } = result as Record<string, unknown>;
  return rest;
}

test('robust scope: path rules are checked when the policy is built', () => {
  assert.throws(() => createPolicy({ rules: [{ effect: 'deny', path: 'etc/**' }] }), {
    name: 'TypeError',
    message: 'permissions: rule 1: "path" must be an absolute path glob such as "/etc/**", got "etc/**"',
  });
  assert.throws(() => createPolicy({ rules: [{ effect: 'deny', path: '/etc/**', subject: '/etc/**' }] }), {
    name: 'TypeError',
    message: 'permissions: rule 1: give "subject" or "path", not both',
  });
  assert.throws(() => createPolicy({ rules: [{ effect: 'deny', subject: '/etc/**', caseSensitive: true }] }), {
    name: 'TypeError',
    message: 'permissions: rule 1: "caseSensitive" must be a boolean, and only goes with "path"',
  });
  assert.throws(() => createPolicy({ askTimeoutMs: 0 }), {
    name: 'TypeError',
    message: 'permissions: "askTimeoutMs" must be a positive number of milliseconds or Infinity, got 0',
  });
  assert.equal(normalisedPathSubject('/srv/../etc/passwd'), '/etc/passwd');
  assert.equal(normalisedPathSubject('//etc//passwd/'), '/etc/passwd');
  assert.equal(normalisedPathSubject('/../..'), '/');
  assert.equal(normalisedPathSubject('etc/passwd'), undefined);
  assert.equal(normalisedPathSubject('/etc/pass\u0000wd'), undefined);
});

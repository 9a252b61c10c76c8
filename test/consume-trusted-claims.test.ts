import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ContractTool } from '../src/contract/index.js';
import { Executor } from '../src/runtime/index.js';
import {
  connectServer,
  createProxy,
  serveHttp,
  type HttpHandle,
  type Proxy,
  type ServerConnection,
} from '../src/mcp/index.js';

/*
 * `trustClaims` against a real served toolwright server (streamable HTTP on 127.0.0.1): a trusted
 * server's listed scheduling claims are the consumed tools' claims, in place of the
 * permission-derived default (a write tool that claims `resource: "shell:session"` keeps it; one
 * that claims nothing runs with none); without trust, every tool that is not `read` is
 * sequential. The proxy trusts claims by default, so it lists its write tools as its upstream does.
 */

const tool = (name: string, claims: Partial<ContractTool>): ContractTool => ({
  name,
  description: `The ${name} tool`,
  async execute() {
    return name;
  },
  ...claims,
});

const served: ContractTool[] = [
  tool('shell', { resource: 'shell:session' }),
  tool('write_file', {}),
  tool('migrate', { sequential: true }),
  tool('deploy', { barrier: true }),
  tool('read_file', { annotations: { readOnly: true } }),
];

let upstream: HttpHandle;
let trusted: ServerConnection;
let untrusted: ServerConnection;
let proxy: Proxy;

before(async () => {
  upstream = await serveHttp({ name: 'claims', version: '1.0.0' }, served);
  trusted = await connectServer(
    { url: upstream.url },
    { trustClaims: true, trustServerAnnotations: true, policy: null },
  );
  untrusted = await connectServer({ url: upstream.url }, { trustServerAnnotations: true, policy: null });
  proxy = await createProxy([{ url: upstream.url }]);
});

after(async () => {
  await proxy.close();
  await trusted.close();
  await untrusted.close();
  await upstream.close();
});

const claims = (tools: readonly ContractTool[]) =>
  tools.map((t) => [t.name, t.sequential ?? false, t.barrier ?? false, t.resource ?? '']);

test('trusted claims: the server listed claims replace the permission default, a resource claim included', () => {
  assert.deepEqual(claims(trusted.tools), [
    ['shell', false, false, 'shell:session'],
    ['write_file', false, false, ''],
    ['migrate', true, false, ''],
    ['deploy', false, true, ''],
    ['read_file', false, false, ''],
  ]);
  const executor = new Executor({ tools: trusted.tools });
  const calls = ['shell', 'write_file', 'shell', 'write_file', 'read_file'].map((name, i) => ({
    id: `c${i}`,
    tool: name,
    args: {},
  }));
  // The two shell calls share one chain (their resource); the rest run beside it.
  assert.deepEqual(executor.chains(calls), [[0, 2], [1], [3], [4]]);
});

test('untrusted claims: every tool that is not read is sequential, and no resource applies', () => {
  assert.deepEqual(claims(untrusted.tools), [
    ['shell', true, false, ''],
    ['write_file', true, false, ''],
    ['migrate', true, false, ''],
    ['deploy', true, false, ''],
    ['read_file', false, false, ''],
  ]);
});

test('the proxy trusts claims by default: its write tools carry the upstream claims, and only those', () => {
  assert.deepEqual(claims(proxy.tools), [
    ['shell', false, false, 'shell:session'],
    ['write_file', false, false, ''],
    ['migrate', true, false, ''],
    ['deploy', false, true, ''],
    ['read_file', false, false, ''],
  ]);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { serveHttp } from '../src/mcp/transports/index.js';
import { StdioChild } from './support/transport-child.js';
import { POST_HEADERS, Signal, initSession, openRequest } from './support/transport-http-probe.js';
import { serveTools } from './support/transport-serve-tools.js';

const info = { name: 'serve-test', version: '1.0.0' };

test('serveHttp: contract tools through createServer see an http session carrying the session id', async (t) => {
  const handle = await serveHttp(
    info,
    serveTools(() => undefined),
  );
  t.after(() => handle.close());
  const transport = new StreamableHTTPClientTransport(new URL(handle.url));
  const client = new Client({ name: 'serve-test', version: '1.0.0' });
  await client.connect(transport);
  t.after(() => client.close());
  assert.deepEqual(
    (await client.listTools()).tools.map((tool) => tool.name),
    ['where', 'wait'],
  );
  const result = await client.callTool({ name: 'where', arguments: {} });
  assert.deepEqual(result.content, [{ type: 'text', text: `http ${JSON.stringify(transport.sessionId)}` }]);
});

test("serveHttp: a hang-up aborts a contract tool's ctx.signal", async (t) => {
  const probe = new Signal();
  const handle = await serveHttp(info, serveTools(probe.push));
  t.after(() => handle.close());
  const id = await initSession(handle.port);
  const call = openRequest(handle.port, {
    headers: { ...POST_HEADERS, 'mcp-session-id': id },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'wait', arguments: {} } }),
  });
  await call.response;
  await probe.waitFor('wait started');
  call.destroy();
  await probe.waitFor('wait aborted');
});

test('serveHttp: an invalid tool set rejects before listening', async () => {
  const [where] = serveTools(() => undefined);
  await assert.rejects(serveHttp(info, [where!, where!]), {
    name: 'Error',
    message: 'createServer: tool "where" is listed twice; tool names must be unique',
  });
});

test('serveStdio: contract tools over a child process; stdin EOF aborts a running call', async (t) => {
  const child = new StdioChild({}, 'transport-serve-fixture.js');
  t.after(() => child.kill());
  await child.initialize();
  assert.deepEqual(await child.request('tools/call', { name: 'where', arguments: {} }), {
    jsonrpc: '2.0',
    id: 2,
    result: { content: [{ type: 'text', text: 'stdio ""' }] },
  });
  child.send('tools/call', { name: 'wait', arguments: {} });
  await child.waitForStderr('probe: wait started');
  child.child.stdin.end();
  assert.deepEqual(await child.exit(), { code: 0, signal: null });
  assert.equal(child.stderr, 'probe: ready\nprobe: wait started\nprobe: wait aborted\n');
});

// The probes of conformance-notes.md §3 that transport-http-probes.test.ts does not pin: a second
// initialize on a session, a body between express.json's 100 kb and the 4 MiB limit, and the
// default bind address. docs/robustness.md lists every probe with the test that pins it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { listenHttp, type HttpHandle } from '../src/mcp/transports/index.js';
import { makeTestServer } from './support/transport-test-server.js';
import { INITIALIZE, POST_HEADERS, initSession, rawRequest, answerMessages } from './support/transport-http-probe.js';

async function start(t: { after(fn: () => Promise<void>): void }): Promise<HttpHandle> {
  const handle = await listenHttp(() => makeTestServer());
  t.after(() => handle.close());
  return handle;
}

test('http: a second initialize on a session gets 400 -32600 and the session lives on', async (t) => {
  const handle = await start(t);
  const id = await initSession(handle.port);
  const headers = { ...POST_HEADERS, 'mcp-session-id': id };
  const again = await rawRequest(handle.port, { headers, body: INITIALIZE });
  assert.deepEqual(
    { status: again.status, type: again.headers['content-type'], text: again.text },
    {
      status: 400,
      type: 'application/json',
      text: '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: Server already initialized"},"id":null}',
    },
  );
  const ping = await rawRequest(handle.port, {
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
  });
  assert.deepEqual(answerMessages(ping), [{ result: {}, jsonrpc: '2.0', id: 2 }]);
  assert.equal(handle.sessionCount, 1);
});

test("http: a 200 KB body (over express.json's 100 kb default) is served", async (t) => {
  const handle = await start(t);
  const id = await initSession(handle.port);
  const text = 'x'.repeat(200 * 1024);
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 2,
    method: 'tools/call',
    params: { name: 'echo', arguments: { text } },
  });
  const res = await rawRequest(handle.port, { headers: { ...POST_HEADERS, 'mcp-session-id': id }, body });
  assert.equal(res.status, 200);
  assert.deepEqual(answerMessages(res), [{ result: { content: [{ type: 'text', text }] }, jsonrpc: '2.0', id: 2 }]);
});

test('http: listenHttp binds 127.0.0.1 unless told otherwise', async (t) => {
  const handle = await start(t);
  assert.equal((handle.server.address() as AddressInfo).address, '127.0.0.1');
  assert.equal(handle.url, `http://127.0.0.1:${handle.port}/mcp`);
});

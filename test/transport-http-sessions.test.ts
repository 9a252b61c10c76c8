import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { listenHttp, type HttpHandle, type HttpOptions, type SessionCloseReason } from '../src/mcp/transports/index.js';
import { makeTestServer } from './support/transport-test-server.js';
import {
  POST_HEADERS,
  Signal,
  initSession,
  openRequest,
  rawRequest,
  readAll,
  answerMessages,
  sseMessages,
} from './support/transport-http-probe.js';

async function start(
  t: { after(fn: () => Promise<void>): void },
  probe: Signal,
  options: HttpOptions = {},
): Promise<HttpHandle> {
  const handle = await listenHttp(() => makeTestServer(probe.push), options);
  t.after(() => handle.close());
  return handle;
}

async function connect(
  t: { after(fn: () => Promise<void>): void },
  url: string,
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url));
  const client = new Client({ name: 'http-test', version: '1.0.0' });
  await client.connect(transport);
  t.after(() => client.close());
  return { client, transport };
}

const textResult = (text: string) => ({ content: [{ type: 'text', text }] });
const callBody = (id: number, name: string) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } });

test('http: the SDK client lists and calls tools; two concurrent sessions each see their own id', async (t) => {
  const handle = await start(t, new Signal());
  const a = await connect(t, handle.url);
  const b = await connect(t, handle.url);
  assert.equal(handle.sessionCount, 2);
  const list = await a.client.listTools();
  assert.deepEqual(
    list.tools.map((tool) => tool.name),
    ['echo', 'whoami', 'slow', 'noisy'],
  );
  const [echoA, echoB, whoA, whoB] = await Promise.all([
    a.client.callTool({ name: 'echo', arguments: { text: 'from a' } }),
    b.client.callTool({ name: 'echo', arguments: { text: 'from b' } }),
    a.client.callTool({ name: 'whoami', arguments: {} }),
    b.client.callTool({ name: 'whoami', arguments: {} }),
  ]);
  assert.deepEqual(echoA, textResult('from a'));
  assert.deepEqual(echoB, textResult('from b'));
  assert.deepEqual(whoA, textResult(a.transport.sessionId!));
  assert.deepEqual(whoB, textResult(b.transport.sessionId!));
  assert.notEqual(a.transport.sessionId, b.transport.sessionId);
  await a.transport.terminateSession();
  assert.equal(handle.sessionCount, 1);
});

test('http: a used session with no open request for sessionIdleMs is closed, then answers 404', async (t) => {
  const closed: Array<[string, SessionCloseReason]> = [];
  const ended = new Signal();
  // Long enough for the ping to reach the session before it could expire unused (as short).
  const handle = await start(t, new Signal(), {
    sessionIdleMs: 300,
    onSessionClosed: (id, reason) => {
      closed.push([id, reason]);
      ended.push('closed');
    },
  });
  const id = await initSession(handle.port);
  // A ping uses the session (an unused one would be closed as `unused`, see robust-http-sessions).
  const ping = await rawRequest(handle.port, {
    headers: { ...POST_HEADERS, 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
  });
  assert.equal(ping.status, 200);
  await ended.waitFor('closed');
  assert.deepEqual(closed, [[id, 'idle']]);
  const res = await rawRequest(handle.port, {
    headers: { ...POST_HEADERS, 'mcp-session-id': id },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
  });
  assert.deepEqual(
    { status: res.status, text: res.text },
    {
      status: 404,
      text: '{"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":null}',
    },
  );
});

test("http: DELETE reports reason deleted and aborts the session's in-flight call", async (t) => {
  const probe = new Signal();
  const closed: SessionCloseReason[] = [];
  const handle = await start(t, probe, { onSessionClosed: (_id, reason) => closed.push(reason) });
  const id = await initSession(handle.port);
  const call = openRequest(handle.port, {
    headers: { ...POST_HEADERS, 'mcp-session-id': id },
    body: callBody(5, 'slow'),
  });
  await probe.waitFor('slow started');
  const deleted = await rawRequest(handle.port, { method: 'DELETE', headers: { 'mcp-session-id': id } });
  assert.deepEqual({ status: deleted.status, text: deleted.text }, { status: 200, text: '' });
  await probe.waitFor('slow aborted');
  assert.equal(handle.sessionCount, 0);
  assert.deepEqual(closed, ['deleted']);
  assert.equal(await readAll(await call.response), '');
});

test('http: notifications/cancelled aborts the call and closes its SSE stream with no response', async (t) => {
  const probe = new Signal();
  const handle = await start(t, probe);
  const id = await initSession(handle.port);
  const headers = { ...POST_HEADERS, 'mcp-session-id': id };
  const call = openRequest(handle.port, { headers, body: callBody(5, 'slow') });
  const response = await call.response;
  assert.equal(response.headers['content-type'], 'text/event-stream');
  const streamed = readAll(response);
  await probe.waitFor('slow started');
  const cancel = await rawRequest(handle.port, {
    headers,
    body: JSON.stringify({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 5, reason: 'test' },
    }),
  });
  assert.deepEqual({ status: cancel.status, text: cancel.text }, { status: 202, text: '' });
  await probe.waitFor('slow aborted');
  assert.deepEqual(sseMessages(await streamed), []);
  const after = await rawRequest(handle.port, {
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'ping' }),
  });
  assert.deepEqual(answerMessages(after), [{ result: {}, jsonrpc: '2.0', id: 6 }]);
});

test('http: in a batch, the stream closes once the other request is answered after a cancel', async (t) => {
  const probe = new Signal();
  const handle = await start(t, probe);
  const id = await initSession(handle.port);
  const headers = { ...POST_HEADERS, 'mcp-session-id': id };
  const batch = `[${callBody(7, 'slow')},${JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'ping' })}]`;
  const answered = rawRequest(handle.port, { headers, body: batch });
  await probe.waitFor('slow started');
  await rawRequest(handle.port, {
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } }),
  });
  assert.deepEqual(answerMessages(await answered), [{ result: {}, jsonrpc: '2.0', id: 8 }]);
});

test('http: a client hanging up mid-call aborts the call; the session lives on', async (t) => {
  const probe = new Signal();
  const handle = await start(t, probe);
  const id = await initSession(handle.port);
  const headers = { ...POST_HEADERS, 'mcp-session-id': id };
  const call = openRequest(handle.port, { headers, body: callBody(9, 'slow') });
  await call.response;
  await probe.waitFor('slow started');
  call.destroy();
  await probe.waitFor('slow aborted');
  const after = await rawRequest(handle.port, {
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id: 10, method: 'ping' }),
  });
  assert.deepEqual(answerMessages(after), [{ result: {}, jsonrpc: '2.0', id: 10 }]);
  assert.equal(handle.sessionCount, 1);
});

test('http: close() aborts in-flight calls, ends sessions as closed and frees the port', async (t) => {
  const probe = new Signal();
  const closed: SessionCloseReason[] = [];
  const handle = await listenHttp(() => makeTestServer(probe.push), {
    onSessionClosed: (_id, reason) => closed.push(reason),
  });
  t.after(() => handle.close());
  const id = await initSession(handle.port);
  const call = openRequest(handle.port, {
    headers: { ...POST_HEADERS, 'mcp-session-id': id },
    body: callBody(5, 'slow'),
  });
  const streamed = call.response.then(readAll, () => 'connection closed');
  await probe.waitFor('slow started');
  await handle.close();
  await probe.waitFor('slow aborted');
  assert.deepEqual(closed, ['closed']);
  assert.equal(handle.server.listening, false);
  // The open stream ends with no message for the aborted call: cleanly ('') when the session's
  // close ends it, or cut off when closeAllConnections gets there first.
  const text = await streamed;
  assert.ok(
    text === '' || text === 'connection closed',
    `expected no message for the call, got ${JSON.stringify(text)}`,
  );
});

test('http stateless: the SDK client calls tools; no session id; GET is 405', async (t) => {
  const probe = new Signal();
  const handle = await start(t, probe, { stateless: true });
  const { client, transport } = await connect(t, handle.url);
  assert.equal(transport.sessionId, undefined);
  assert.deepEqual(await client.callTool({ name: 'echo', arguments: { text: 'stateless' } }), textResult('stateless'));
  assert.deepEqual(await client.callTool({ name: 'whoami', arguments: {} }), textResult('(none)'));
  assert.equal(handle.sessionCount, 0);
  const get = await rawRequest(handle.port, { method: 'GET', headers: { accept: 'text/event-stream' } });
  assert.deepEqual(
    { status: get.status, allow: get.headers['allow'], text: get.text },
    {
      status: 405,
      allow: 'POST',
      text: '{"jsonrpc":"2.0","error":{"code":-32000,"message":"Method not allowed."},"id":null}',
    },
  );
});

test('http stateless: a client hanging up aborts its call', async (t) => {
  const probe = new Signal();
  const handle = await start(t, probe, { stateless: true });
  const call = openRequest(handle.port, { headers: POST_HEADERS, body: callBody(3, 'slow') });
  await call.response;
  await probe.waitFor('slow started');
  call.destroy();
  await probe.waitFor('slow aborted');
});

test('createHttpHandler mounted in a plain node server: any path, a body parsed beforehand is used as is', async (t) => {
  const { createServer } = await import('node:http');
  const { createHttpHandler } = await import('../src/mcp/transports/index.js');
  const handler = createHttpHandler(() => makeTestServer());
  let preParsed = 0;
  const server = createServer((req, res) => {
    if (req.method !== 'POST') return handler(req, res);
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => {
      (req as typeof req & { body?: unknown }).body = JSON.parse(text);
      preParsed++;
      handler(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(async () => {
    await handler.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const port = (server.address() as { port: number }).port;
  const { client } = await connect(t, `http://127.0.0.1:${port}/custom/endpoint`);
  assert.deepEqual(await client.callTool({ name: 'echo', arguments: { text: 'mounted' } }), textResult('mounted'));
  assert.equal(handler.sessionCount, 1);
  assert.equal(preParsed, 3);
});

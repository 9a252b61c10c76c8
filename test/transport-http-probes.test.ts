import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { listenHttp, type HttpHandle, type HttpOptions } from '../src/mcp/transports/index.js';
import { createHostOriginGuard } from '../src/mcp/transports/http/host-origin-guard.js';
import { makeTestServer } from './support/transport-test-server.js';
import {
  INITIALIZE,
  POST_HEADERS,
  initSession,
  rawRequest,
  answerMessages,
  type RawResponse,
} from './support/transport-http-probe.js';

async function start(t: { after(fn: () => Promise<void>): void }, options: HttpOptions = {}): Promise<HttpHandle> {
  const handle = await listenHttp(() => makeTestServer(), options);
  t.after(() => handle.close());
  return handle;
}

const error = (code: number, message: string): string =>
  JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });

function assertJsonError(res: RawResponse, status: number, code: number, message: string): void {
  assert.deepEqual(
    { status: res.status, type: res.headers['content-type'], text: res.text },
    { status, type: 'application/json', text: error(code, message) },
  );
}

const TOOLS_LIST = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });

test('http: a foreign Host gets 403 before anything else', async (t) => {
  const { port } = await start(t);
  const res = await rawRequest(port, { headers: { ...POST_HEADERS, host: 'evil.example.com' }, body: INITIALIZE });
  assertJsonError(res, 403, -32000, 'Forbidden: invalid Host header: evil.example.com');
  const garbage = await rawRequest(port, {
    headers: { ...POST_HEADERS, host: 'localhost@evil.example.com' },
    body: INITIALIZE,
  });
  assertJsonError(garbage, 403, -32000, 'Forbidden: invalid Host header: localhost@evil.example.com');
});

test('http: the Host/Origin guard gives the same verdict for a value it remembers, past its memory bound too', () => {
  const guard = createHostOriginGuard({ allowedOrigins: ['https://app.example.test'] });
  const verdicts = (): Array<string | undefined> => [
    guard('localhost:3000', undefined),
    guard('evil.example.com', undefined),
    guard('localhost:3000', 'http://evil.example.com'),
    guard('localhost:3000', 'https://app.example.test'),
    guard('localhost:3000', 'http://localhost:5173'),
  ];
  const expected = [
    undefined,
    'Forbidden: invalid Host header: evil.example.com',
    'Forbidden: invalid Origin header: http://evil.example.com',
    undefined,
    undefined,
  ];
  assert.deepEqual(verdicts(), expected);
  assert.deepEqual(verdicts(), expected);
  // More distinct values than the guard remembers: it starts over and still answers the same.
  for (let i = 0; i < 300; i++) guard(`host-${i}.example.com`, `http://origin-${i}.example.com`);
  assert.deepEqual(verdicts(), expected);
});

test('http: loopback Host names pass with any port; allowedHosts extends them', async (t) => {
  const { port } = await start(t, { allowedHosts: ['mcp.example.test', 'pinned.example.test:8080'] });
  for (const host of [
    'localhost:1',
    '127.0.0.1',
    `[::1]:${port}`,
    'mcp.example.test:3000',
    'pinned.example.test:8080',
  ]) {
    assert.match(await initSession(port, { host }), /^[A-Za-z0-9_-]{43}$/, host);
  }
  const wrongPort = await rawRequest(port, {
    headers: { ...POST_HEADERS, host: 'pinned.example.test:8081' },
    body: INITIALIZE,
  });
  assertJsonError(wrongPort, 403, -32000, 'Forbidden: invalid Host header: pinned.example.test:8081');
});

test('http: a foreign Origin gets 403 (the DNS-rebinding probe of the conformance suite)', async (t) => {
  const { port } = await start(t);
  const res = await rawRequest(port, {
    headers: { ...POST_HEADERS, origin: 'http://evil.example.com' },
    body: INITIALIZE,
  });
  assertJsonError(res, 403, -32000, 'Forbidden: invalid Origin header: http://evil.example.com');
  const opaque = await rawRequest(port, { headers: { ...POST_HEADERS, origin: 'null' }, body: INITIALIZE });
  assertJsonError(opaque, 403, -32000, 'Forbidden: invalid Origin header: null');
  const scheme = await rawRequest(port, { headers: { ...POST_HEADERS, origin: 'file://localhost' }, body: INITIALIZE });
  assertJsonError(scheme, 403, -32000, 'Forbidden: invalid Origin header: file://localhost');
});

test('http: a loopback Origin (any port) or a listed allowedOrigins entry is accepted', async (t) => {
  const { port } = await start(t, { allowedOrigins: ['https://app.example.com'] });
  for (const origin of [
    'http://localhost:5173',
    `http://127.0.0.1:${port}`,
    'https://[::1]',
    'https://app.example.com',
  ]) {
    assert.match(await initSession(port, { origin }), /^[A-Za-z0-9_-]{43}$/, origin);
  }
  const other = await rawRequest(port, {
    headers: { ...POST_HEADERS, origin: 'http://app.example.com' },
    body: INITIALIZE,
  });
  assertJsonError(other, 403, -32000, 'Forbidden: invalid Origin header: http://app.example.com');
});

test('http: bad guard configuration fails at build time', async () => {
  await assert.rejects(
    listenHttp(() => makeTestServer(), { allowedHosts: ['http://x'] }),
    {
      name: 'TypeError',
      message: 'allowedHosts: "http://x" is not a host name or host:port',
    },
  );
  await assert.rejects(
    listenHttp(() => makeTestServer(), { allowedOrigins: ['app.example.com'] }),
    {
      name: 'TypeError',
      message: 'allowedOrigins: "app.example.com" is not an http(s) origin',
    },
  );
});

test('http: session ids are 43 base64url characters, visible ASCII, and unique', async (t) => {
  const { port } = await start(t);
  const ids = await Promise.all([1, 2, 3, 4].map(() => initSession(port)));
  for (const id of ids) assert.match(id, /^[A-Za-z0-9_-]{43}$/);
  assert.equal(new Set(ids).size, 4);
});

test('http: session errors: none 400, unknown 404, after DELETE 404', async (t) => {
  const handle = await start(t);
  const { port } = handle;
  assertJsonError(
    await rawRequest(port, { headers: POST_HEADERS, body: TOOLS_LIST }),
    400,
    -32000,
    'Bad Request: Mcp-Session-Id header is required',
  );
  assertJsonError(
    await rawRequest(port, { method: 'GET', headers: { accept: 'text/event-stream' } }),
    400,
    -32000,
    'Bad Request: Mcp-Session-Id header is required',
  );
  assertJsonError(
    await rawRequest(port, { headers: { ...POST_HEADERS, 'mcp-session-id': 'no-such-session' }, body: TOOLS_LIST }),
    404,
    -32001,
    'Session not found',
  );
  const id = await initSession(port);
  assert.equal(handle.sessionCount, 1);
  const list = await rawRequest(port, { headers: { ...POST_HEADERS, 'mcp-session-id': id }, body: TOOLS_LIST });
  assert.deepEqual(
    {
      status: list.status,
      tools: answerMessages(list).map((m) =>
        (m as { result: { tools: Array<{ name: string }> } }).result.tools.map((tool) => tool.name),
      ),
    },
    {
      status: 200,
      tools: [['echo', 'whoami', 'slow', 'noisy']],
    },
  );
  const deleted = await rawRequest(port, { method: 'DELETE', headers: { 'mcp-session-id': id } });
  assert.deepEqual({ status: deleted.status, text: deleted.text }, { status: 200, text: '' });
  assert.equal(handle.sessionCount, 0);
  assertJsonError(
    await rawRequest(port, { headers: { ...POST_HEADERS, 'mcp-session-id': id }, body: TOOLS_LIST }),
    404,
    -32001,
    'Session not found',
  );
});

test('http: an unsupported MCP-Protocol-Version gets 400', async (t) => {
  const { port } = await start(t);
  const id = await initSession(port);
  const res = await rawRequest(port, {
    headers: { ...POST_HEADERS, 'mcp-session-id': id, 'mcp-protocol-version': '1999-01-01' },
    body: TOOLS_LIST,
  });
  assertJsonError(
    res,
    400,
    -32000,
    `Bad Request: Unsupported protocol version: 1999-01-01 (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
  );
});

test('http: Accept without text/event-stream gets 406, a non-JSON Content-Type 415', async (t) => {
  const { port } = await start(t);
  assertJsonError(
    await rawRequest(port, { headers: { ...POST_HEADERS, accept: 'application/json' }, body: INITIALIZE }),
    406,
    -32000,
    'Not Acceptable: Client must accept both application/json and text/event-stream',
  );
  assertJsonError(
    await rawRequest(port, { headers: { ...POST_HEADERS, 'content-type': 'text/plain' }, body: '{bad' }),
    415,
    -32000,
    'Unsupported Media Type: Content-Type must be application/json',
  );
});

test('http: malformed JSON gets 400 -32700, JSON that is not JSON-RPC too', async (t) => {
  const { port } = await start(t);
  assertJsonError(
    await rawRequest(port, { headers: POST_HEADERS, body: '{"jsonrpc":' }),
    400,
    -32700,
    'Parse error: Invalid JSON',
  );
  assertJsonError(
    await rawRequest(port, { headers: POST_HEADERS, body: '{"foo":1}' }),
    400,
    -32700,
    'Parse error: Invalid JSON-RPC message',
  );
  const id = await initSession(port);
  assertJsonError(
    await rawRequest(port, { headers: { ...POST_HEADERS, 'mcp-session-id': id }, body: '{"foo":1}' }),
    400,
    -32700,
    'Parse error: Invalid JSON-RPC message',
  );
});

test('http: a 5 MiB body gets 413 as JSON, declared or streamed; maxBodyBytes lowers the limit', async (t) => {
  const { port } = await start(t);
  const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(5 * 1024 * 1024) } });
  assertJsonError(
    await rawRequest(port, { headers: POST_HEADERS, body: big }),
    413,
    -32000,
    'Payload Too Large: Request body must not exceed 4194304 bytes',
  );
  const small = await start(t, { maxBodyBytes: 100 });
  const chunked = await rawRequest(small.port, {
    headers: { ...POST_HEADERS, 'transfer-encoding': 'chunked' },
    body: 'x'.repeat(101),
  });
  assertJsonError(chunked, 413, -32000, 'Payload Too Large: Request body must not exceed 100 bytes');
  assert.equal(chunked.headers['connection'], 'close');
});

test('http: PUT gets 405 with Allow, another path 404, both JSON', async (t) => {
  const { port } = await start(t);
  const put = await rawRequest(port, { method: 'PUT', headers: POST_HEADERS, body: INITIALIZE });
  assertJsonError(put, 405, -32000, 'Method not allowed.');
  assert.equal(put.headers['allow'], 'GET, POST, DELETE');
  assertJsonError(
    await rawRequest(port, { method: 'GET', path: '/' }),
    404,
    -32000,
    'Not Found: the MCP endpoint is /mcp',
  );
  assertJsonError(
    await rawRequest(port, { path: '/mcp/extra', headers: POST_HEADERS, body: INITIALIZE }),
    404,
    -32000,
    'Not Found: the MCP endpoint is /mcp',
  );
  const query = await rawRequest(port, { path: '/mcp?x=1', headers: POST_HEADERS, body: INITIALIZE });
  assert.deepEqual(
    { status: query.status, initialized: answerMessages(query).map((m) => (m as { id: unknown }).id) },
    { status: 200, initialized: [1] },
  );
  assert.match(String(query.headers['mcp-session-id']), /^[A-Za-z0-9_-]{43}$/);
});

test('http: a factory that throws gives 500 -32603 Internal error, without details', async (t) => {
  const errors: string[] = [];
  const handle = await listenHttp(
    () => {
      throw new Error('secret detail');
    },
    { onError: (e) => errors.push(e.message) },
  );
  t.after(() => handle.close());
  assertJsonError(
    await rawRequest(handle.port, { headers: POST_HEADERS, body: INITIALIZE }),
    500,
    -32603,
    'Internal error',
  );
  assert.deepEqual(errors, ['secret detail']);
});

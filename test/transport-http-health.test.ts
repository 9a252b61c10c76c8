import { test } from 'node:test';
import assert from 'node:assert/strict';
import { listenHttp, type HttpHandle, type HttpOptions } from '../src/mcp/transports/index.js';
import { makeTestServer, type ExtraTool } from './support/transport-test-server.js';
import {
  INITIALIZE,
  POST_HEADERS,
  initSession,
  rawRequest,
  answerMessages,
  Signal,
  type RawResponse,
} from './support/transport-http-probe.js';

/*
 * The liveness and readiness endpoints of the HTTP edge (health.ts), the drain and the graceful
 * shutdown (drain.ts), and session ids that carry the node id. Real servers on 127.0.0.1, raw
 * HTTP requests; a few short servers, well under a second in all.
 */

async function start(
  t: { after(fn: () => Promise<void>): void },
  options: HttpOptions = {},
  extra: readonly ExtraTool[] = [],
): Promise<HttpHandle> {
  const handle = await listenHttp(() => makeTestServer(() => undefined, extra), options);
  t.after(() => handle.close());
  return handle;
}

function health(res: RawResponse): { status: number; type: unknown; cache: unknown; body: unknown } {
  return {
    status: res.status,
    type: res.headers['content-type'],
    cache: res.headers['cache-control'],
    body: res.text === '' ? '' : (JSON.parse(res.text) as unknown),
  };
}

const get = (port: number, path: string, headers: Record<string, string> = {}): Promise<RawResponse> =>
  rawRequest(port, { method: 'GET', path, headers });

/**
 * A tool that reports `gated started` and answers `done` once `open()` is called (or rejects
 * when its signal aborts).
 */
function gatedTool(signal: Signal): { tool: ExtraTool; open(): void } {
  let release!: () => void;
  const opened = new Promise<void>((resolve) => (release = resolve));
  return {
    tool: {
      name: 'gated',
      run: async (abort) => {
        signal.push('gated started');
        await new Promise<void>((resolve, reject) => {
          abort.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
          void opened.then(resolve);
        });
        return 'done';
      },
    },
    open: () => release(),
  };
}

const CALL_GATED = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'gated' } });

test('health: /healthz and /readyz answer JSON, no-store, before the Host check and auth; HEAD has no body; other methods 405', async (t) => {
  const { port } = await start(t, {
    auth: {
      issuer: 'http://127.0.0.1/issuer',
      resource: 'http://127.0.0.1/mcp',
      verifier: async () => {
        throw new Error('no token is good here');
      },
    },
  });
  const ok = { status: 200, type: 'application/json', cache: 'no-store' };
  assert.deepEqual(health(await get(port, '/healthz')), { ...ok, body: { status: 'ok' } });
  assert.deepEqual(health(await get(port, '/readyz')), { ...ok, body: { status: 'ready' } });
  // A balancer's probe names no allowed host and carries no token.
  assert.deepEqual(health(await get(port, '/readyz?full=1', { host: '10.0.0.9:8080' })), {
    ...ok,
    body: { status: 'ready' },
  });
  assert.deepEqual(health(await rawRequest(port, { method: 'HEAD', path: '/healthz' })), { ...ok, body: '' });
  const post = await rawRequest(port, { method: 'POST', path: '/readyz', body: '{}' });
  assert.deepEqual({ status: post.status, allow: post.headers['allow'] }, { status: 405, allow: 'GET, HEAD' });
  // The MCP endpoint itself is still behind auth.
  const mcp = await rawRequest(port, { headers: POST_HEADERS, body: INITIALIZE });
  assert.equal(mcp.status, 401);
});

test('health: readiness reports each check (ok, failing, throwing, slow) and stays 200 while a shared service is away', async (t) => {
  const { port } = await start(t, {
    health: {
      readyPath: '/ready',
      livePath: '/live',
      checkTimeoutMs: 50,
      checks: {
        redis: () => ({ ok: false, detail: 'Redis at redis://127.0.0.1:1 cannot be reached' }),
        cache: () => ({ ok: true, detail: 'ignored when ok' }),
        broken: () => {
          throw new Error('the check itself broke');
        },
        stuck: () => new Promise(() => undefined),
      },
    },
  });
  assert.deepEqual(health(await get(port, '/ready')), {
    status: 200,
    type: 'application/json',
    cache: 'no-store',
    body: {
      status: 'ready',
      checks: {
        redis: { ok: false, detail: 'Redis at redis://127.0.0.1:1 cannot be reached' },
        cache: { ok: true },
        broken: { ok: false, detail: 'the check itself broke' },
        stuck: { ok: false, detail: 'no answer within 50 ms' },
      },
    },
  });
  assert.equal((await get(port, '/live')).status, 200);
  // The default paths are then MCP paths like any other: 404 outside the endpoint.
  assert.equal((await get(port, '/readyz')).status, 404);
});

test('health: false serves no health endpoint; bad health options are refused naming the member', async (t) => {
  const { port } = await start(t, { health: false });
  assert.equal((await get(port, '/healthz')).status, 404);
  await assert.rejects(
    listenHttp(() => makeTestServer(), { health: { readyPath: 'readyz' } }),
    {
      name: 'TypeError',
      message: 'createHttpHandler: "health.readyPath" must be a path beginning with "/", got "readyz"',
    },
  );
  await assert.rejects(
    listenHttp(() => makeTestServer(), { health: { checkTimeoutMs: 0 } }),
    {
      name: 'TypeError',
      message: 'createHttpHandler: "health.checkTimeoutMs" must be a positive whole number of milliseconds, got 0',
    },
  );
  await assert.rejects(
    listenHttp(() => makeTestServer(), { health: { checks: { redis: 'up' } } } as never),
    {
      name: 'TypeError',
      message: 'createHttpHandler: "health.checks.redis" must be a function, got a string',
    },
  );
  await assert.rejects(
    listenHttp(() => makeTestServer(), { health: { live: '/l' } } as never),
    {
      name: 'TypeError',
    },
  );
});

test('shutdown: readiness answers 503 draining at once, liveness stays 200, the call in flight is answered, then the server closes', async (t) => {
  const events = new Signal();
  const gated = gatedTool(events);
  const handle = await start(t, {}, [gated.tool]);
  const { port } = handle;
  const session = await initSession(port);
  const call = rawRequest(port, {
    headers: { ...POST_HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' },
    body: CALL_GATED,
  });
  await events.waitFor('gated started');
  let stopped = false;
  const stopping = handle.shutdown(15_000).then(() => (stopped = true));
  assert.deepEqual(health(await get(port, '/readyz')), {
    status: 503,
    type: 'application/json',
    cache: 'no-store',
    body: { status: 'draining' },
  });
  assert.deepEqual(health(await get(port, '/healthz')).body, { status: 'ok' });
  // Still served while draining: a balancer may send a request before it saw the 503.
  const echo = await rawRequest(port, {
    headers: { ...POST_HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: 'hi' } },
    }),
  });
  assert.equal(echo.status, 200);
  assert.equal(stopped, false);
  gated.open();
  const answered = await call;
  assert.deepEqual(answerMessages(answered), [
    { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'done' }] } },
  ]);
  await stopping;
  // Closed: a kept-alive socket is reset, a new connection refused.
  await assert.rejects(get(port, '/healthz'), (error: NodeJS.ErrnoException) =>
    ['ECONNREFUSED', 'ECONNRESET'].includes(error.code ?? ''),
  );
});

test('shutdown: a call that outlives the drain timeout is aborted by the close that follows; shutdown still resolves', async (t) => {
  const events = new Signal();
  const gated = gatedTool(events);
  const handle = await start(t, {}, [gated.tool]);
  const session = await initSession(handle.port);
  const call = rawRequest(handle.port, {
    headers: { ...POST_HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' },
    body: CALL_GATED,
  }).catch((error: unknown) => error);
  await events.waitFor('gated started');
  await handle.shutdown(100);
  const outcome = await call;
  // The connection was closed under the call, or the call was answered with the abort: never 'done'.
  assert.ok(
    outcome instanceof Error || !(outcome as RawResponse).text.includes('"done"'),
    `the call must not have finished: ${JSON.stringify(outcome)}`,
  );
});

test('nodeId: session ids start with <nodeId>. so a balancer routes them without a table; a bad node id is refused', async (t) => {
  const { port } = await start(t, { nodeId: 'node-7' });
  assert.match(await initSession(port), /^node-7\.[A-Za-z0-9_-]{43}$/);
  await assert.rejects(
    listenHttp(() => makeTestServer(), { nodeId: 'a.b' }),
    {
      name: 'TypeError',
      message: 'createHttpHandler: "nodeId" must be 1 to 64 of A-Za-z0-9_-, got "a.b"',
    },
  );
});

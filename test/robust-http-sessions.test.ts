import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  DEFAULT_MAX_SESSIONS,
  createHttpHandler,
  listenHttp,
  type HttpHandle,
  type HttpOptions,
} from '../src/mcp/transports/index.js';
import { makeTestServer } from './support/transport-test-server.js';
import { POST_HEADERS, INITIALIZE, initSession, rawRequest } from './support/transport-http-probe.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

async function start(
  t: { after(fn: () => Promise<void>): void },
  options: HttpOptions,
  watch?: GcWatch,
): Promise<HttpHandle> {
  const handle = await listenHttp(() => {
    const server = makeTestServer();
    watch?.add(server);
    return server;
  }, options);
  t.after(() => handle.close());
  return handle;
}

/** Counts watched objects not yet collected (a `FinalizationRegistry`: watching never keeps them alive). */
class GcWatch {
  live = 0;
  created = 0;
  private readonly registry = new FinalizationRegistry<void>(() => void this.live--);
  add(value: object): void {
    this.live++;
    this.created++;
    this.registry.register(value);
  }
}

/** Collects garbage until nothing watched is left, at most `rounds` times; returns how many still live. */
async function liveAfterGc(watch: GcWatch, rounds = 20): Promise<number> {
  for (let round = 0; round < rounds && watch.live > 0; round++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return watch.live;
}

test(
  'robust http: a session ended by DELETE is freed (no idle timer re-armed after it)',
  { timeout: 60_000 },
  async (t) => {
    const watch = new GcWatch();
    const handle = await start(t, { sessionIdleMs: 60 * 60 * 1000 }, watch);
    for (let i = 0; i < 5; i++) {
      const transport = new StreamableHTTPClientTransport(new URL(handle.url));
      const client = new Client({ name: 'leak-probe', version: '1.0.0' });
      await client.connect(transport);
      for (let call = 0; call < 3; call++) {
        assert.deepEqual(await client.callTool({ name: 'echo', arguments: { text: `call ${call}` } }), {
          content: [{ type: 'text', text: `call ${call}` }],
        });
      }
      await transport.terminateSession();
      await client.close();
    }
    assert.equal(handle.sessionCount, 0);
    assert.equal(watch.created, 5);
    assert.equal(await liveAfterGc(watch), 0);
  },
);

test(
  'robust http: maxSessions refuses a new session with 503 and a JSON-RPC error; a freed slot is reused',
  { timeout: 30_000 },
  async (t) => {
    const handle = await start(t, { maxSessions: 2 });
    const first = await initSession(handle.port);
    await initSession(handle.port);
    const refused = await rawRequest(handle.port, { headers: POST_HEADERS, body: INITIALIZE });
    assert.equal(refused.status, 503);
    assert.equal(refused.headers['retry-after'], '1');
    assert.equal(refused.headers['content-type'], 'application/json');
    assert.equal(refused.headers['mcp-session-id'], undefined);
    assert.deepEqual(JSON.parse(refused.text), {
      jsonrpc: '2.0',
      error: {
        code: -32000,
        message:
          'Service Unavailable: too many open sessions on this server (maxSessions 2); end one with DELETE or retry later',
      },
      id: null,
    });
    assert.equal(handle.sessionCount, 2);
    const deleted = await rawRequest(handle.port, {
      method: 'DELETE',
      headers: { 'mcp-session-id': first, 'mcp-protocol-version': '2025-06-18' },
    });
    assert.equal(deleted.status, 200);
    assert.equal(handle.sessionCount, 1);
    await initSession(handle.port);
    assert.equal(handle.sessionCount, 2);
  },
);

test('robust http: the SDK client sees the session cap as an error at connect', { timeout: 30_000 }, async (t) => {
  const handle = await start(t, { maxSessions: 1 });
  const a = new Client({ name: 'a', version: '1.0.0' });
  await a.connect(new StreamableHTTPClientTransport(new URL(handle.url)));
  t.after(() => a.close());
  const b = new Client({ name: 'b', version: '1.0.0' });
  await assert.rejects(b.connect(new StreamableHTTPClientTransport(new URL(handle.url))), (error: Error) => {
    assert.equal(
      error.message,
      'Streamable HTTP error: Error POSTing to endpoint: {"jsonrpc":"2.0","error":{"code":-32000,"message":"Service Unavailable: too many open sessions on this server (maxSessions 1); end one with DELETE or retry later"},"id":null}',
    );
    return true;
  });
});

test('robust http: maxSessions is checked when the handler is built', () => {
  assert.equal(DEFAULT_MAX_SESSIONS, 1000);
  for (const bad of [0, -1, 1.5, Number.NaN]) {
    assert.throws(() => createHttpHandler(() => makeTestServer(), { maxSessions: bad }), {
      name: 'TypeError',
      message: `createHttpHandler: "maxSessions" must be a positive integer or Infinity, got ${String(bad)}`,
    });
  }
});

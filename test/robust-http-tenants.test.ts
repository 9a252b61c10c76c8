import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport } from '@modelcontextprotocol/client';
import type { ContractTool } from '../src/contract/index.js';
import {
  DEFAULT_MAX_PARKED_PER_CLIENT,
  DEFAULT_MAX_SESSIONS_PER_ADDRESS,
  DEFAULT_MAX_SESSIONS_PER_PRINCIPAL,
  DEFAULT_UNUSED_SESSION_IDLE_MS,
  ParkedRunLimitError,
  STALE_STATE_TEXT,
  connectStdio,
  createHttpHandler,
  serveHttp,
  tooManyParkedMessage,
  tooManySessionsMessage,
  type HttpHandle,
  type ServeHttpOptions,
  type SessionCloseReason,
} from '../src/mcp/index.js';
import { serverFor } from '../src/mcp/server/create-server.js';
import {
  addressKey,
  clientAddressOf,
  resolveForwarded,
  type AddressRule,
} from '../src/mcp/transports/http/client-address.js';
import { ParkedRuns } from '../src/mcp/server/input-rounds/parked-runs.js';
import { LiveSet } from '../src/mcp/server/live-set.js';
import { devAuth, devBearer } from './support/dev-auth.js';
import { fetchFrom } from './support/fetch-from.js';
import { haproxySkipReason, startForwardingHaproxy } from './support/haproxy.js';
import { makeTestServer } from './support/transport-test-server.js';
import { MODERN, envelope, withoutServerInfo } from './support/modern-http.js';
import { until } from './support/server-harness.js';
import {
  INITIALIZE,
  POST_HEADERS,
  Signal,
  rawRequest,
  sseMessages,
  type RawResponse,
} from './support/transport-http-probe.js';

/*
 * One client must not be able to take every HTTP session (issue 20, item 2). Each test starts
 * its own small server on 127.0.0.1 with small limits, and talks to it as clients do: the SDK
 * 1.x client, the SDK 2.x client (2025-11-25 era, the one with sessions) and raw HTTP. A second
 * client address is a second loopback address (127.0.0.2, ...), bound with `fetchFrom` or
 * `localAddress`.
 */

const INFO = { name: 'tenants', version: '1.0.0' };
const echo: ContractTool = {
  name: 'echo',
  description: 'Answers its text',
  parameters: { type: 'object', properties: { text: { type: 'string' } } },
  execute: async (args) => String((args as { text?: unknown }).text),
};

/** Asks one question (a 2026-07-28 call parks on it) and says how it went, or why it could not ask. */
const ask: ContractTool = {
  name: 'ask',
  description: 'Asks whether to go on',
  async execute(_args, ctx) {
    try {
      return `answered ${(await ctx.elicit({ message: 'Go on?' })).action}`;
    } catch (error) {
      return `not asked: ${(error as Error).message}`;
    }
  },
};

async function serve(t: { after(fn: () => Promise<void>): void }, options: ServeHttpOptions): Promise<HttpHandle> {
  const handle = await serveHttp(INFO, [echo, ask], options);
  t.after(() => handle.close());
  return handle;
}

/** What an SDK client of either line needs to connect: extra headers, and where its connections leave from. */
interface ClientSpec {
  readonly headers?: Record<string, string>;
  readonly from?: string;
}

type AnyClient = { close(): Promise<void> };

/** Connects an SDK client of `line` (2.x in the 2025-11-25 era); rejects as its `connect` does. */
async function sdkClient(
  line: 'v1' | 'v2',
  t: { after(fn: () => Promise<void>): void },
  url: string,
  spec: ClientSpec,
): Promise<AnyClient> {
  const options = {
    requestInit: { headers: spec.headers ?? {} },
    ...(spec.from === undefined ? {} : { fetch: fetchFrom(spec.from) }),
  };
  const info = { name: `tenant-${line}`, version: '1.0.0' };
  const client = line === 'v1' ? new V1Client(info) : new V2Client(info);
  const transport =
    line === 'v1' ? new V1HttpTransport(new URL(url), options) : new V2HttpTransport(new URL(url), options);
  await client.connect(transport as never);
  t.after(() => client.close());
  return client;
}

const v1 = (t: { after(fn: () => Promise<void>): void }, url: string, spec: ClientSpec = {}) =>
  sdkClient('v1', t, url, spec);
const v2 = (t: { after(fn: () => Promise<void>): void }, url: string, spec: ClientSpec = {}) =>
  sdkClient('v2', t, url, spec);

/** A raw `initialize` POST, from `localAddress` when given. */
function rawInitialize(
  port: number,
  headers: Record<string, string> = {},
  localAddress?: string,
): Promise<RawResponse> {
  return rawRequest(port, {
    headers: { ...POST_HEADERS, ...headers },
    body: INITIALIZE,
    ...(localAddress ? { localAddress } : {}),
  });
}

/** Asserts the exact 503 of a refused session: JSON-RPC body naming the limit, `Retry-After: 1`, no session. */
function assertRefused(res: RawResponse, message: string): void {
  assert.equal(res.status, 503, res.text);
  assert.equal(res.headers['retry-after'], '1');
  assert.equal(res.headers['content-type'], 'application/json');
  assert.equal(res.headers['mcp-session-id'], undefined);
  assert.deepEqual(JSON.parse(res.text), { jsonrpc: '2.0', error: { code: -32000, message }, id: null });
}

/** The error text an SDK client's `connect` rejects with for a refused `initialize`. */
const V1_REFUSAL = (message: string) =>
  `Streamable HTTP error: Error POSTing to endpoint: ${JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null })}`;

const V2_REFUSAL = (message: string) =>
  `Error POSTing to endpoint: ${JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null })}`;

/** The refusal past `maxSessionsPerAddress: 1` for `address`. */
const perAddress = (address: string) => tooManySessionsMessage(1, 'maxSessionsPerAddress', address);

const PER_PRINCIPAL_2 = tooManySessionsMessage(2, 'maxSessionsPerPrincipal');

test(
  'tenants: a principal at maxSessionsPerPrincipal gets 503 naming that limit; another principal still gets sessions',
  { timeout: 30_000 },
  async (t) => {
    const handle = await serve(t, { auth: devAuth(), maxSessionsPerPrincipal: 2 });
    // Alice opens her cap with two clients of two SDK lines, with two different tokens.
    await v1(t, handle.url, { headers: devBearer('alice.1') });
    await v2(t, handle.url, { headers: devBearer('alice.2') });
    assert.equal(handle.sessionCount, 2);
    // A third session of hers is refused, whatever client or fresh token she uses.
    assertRefused(await rawInitialize(handle.port, devBearer('alice.3')), PER_PRINCIPAL_2);
    await assert.rejects(v1(t, handle.url, { headers: devBearer('alice.4') }), {
      message: V1_REFUSAL(PER_PRINCIPAL_2),
    });
    await assert.rejects(v2(t, handle.url, { headers: devBearer('alice') }), {
      name: 'SdkHttpError',
      status: 503,
      message: V2_REFUSAL(PER_PRINCIPAL_2),
    });
    // Bob, a user of the same OAuth client, is another principal: his sessions open.
    await v1(t, handle.url, { headers: devBearer('bob') });
    await v2(t, handle.url, { headers: devBearer('bob.2') });
    assert.equal(handle.sessionCount, 4);
  },
);

test(
  'tenants: a principal that ends a session with DELETE may open another; the server-wide cap is named as such',
  { timeout: 30_000 },
  async (t) => {
    const handle = await serve(t, { auth: devAuth(), maxSessionsPerPrincipal: 2, maxSessions: 3 });
    const first = (await rawInitialize(handle.port, devBearer('alice'))).headers['mcp-session-id'] as string;
    await rawInitialize(handle.port, devBearer('alice'));
    assertRefused(await rawInitialize(handle.port, devBearer('alice')), PER_PRINCIPAL_2);
    const deleted = await rawRequest(handle.port, {
      method: 'DELETE',
      headers: { ...devBearer('alice'), 'mcp-session-id': first, 'mcp-protocol-version': '2025-06-18' },
    });
    assert.equal(deleted.status, 200);
    assert.equal((await rawInitialize(handle.port, devBearer('alice'))).status, 200);
    // Bob is under his own limit, but the server holds maxSessions (3): that limit is named.
    assert.equal((await rawInitialize(handle.port, devBearer('bob'))).status, 200);
    assertRefused(await rawInitialize(handle.port, devBearer('bob')), tooManySessionsMessage(3, 'maxSessions'));
  },
);

test(
  'tenants: without auth, an address at maxSessionsPerAddress gets 503 naming it; another address still gets sessions; a spoofed X-Forwarded-For gives no fresh quota',
  { timeout: 30_000 },
  async (t) => {
    const handle = await serve(t, { maxSessionsPerAddress: 2 });
    const full = tooManySessionsMessage(2, 'maxSessionsPerAddress', '127.0.0.1');
    await v1(t, handle.url);
    await v2(t, handle.url);
    assertRefused(await rawInitialize(handle.port), full);
    await assert.rejects(v1(t, handle.url), { message: V1_REFUSAL(full) });
    await assert.rejects(v2(t, handle.url), { status: 503, message: V2_REFUSAL(full) });
    // No proxy is trusted: what the client says of its address is not believed.
    assertRefused(await rawInitialize(handle.port, { 'x-forwarded-for': '203.0.113.7' }), full);
    assertRefused(await rawInitialize(handle.port, { forwarded: 'for=203.0.113.7' }), full);
    // A client from another address opens its own sessions, with either SDK line.
    await v1(t, handle.url, { from: '127.0.0.2' });
    await v2(t, handle.url, { from: '127.0.0.2' });
    assertRefused(
      await rawInitialize(handle.port, {}, '127.0.0.2'),
      tooManySessionsMessage(2, 'maxSessionsPerAddress', '127.0.0.2'),
    );
    assert.equal(handle.sessionCount, 4);
  },
);

test(
  'tenants: a forwarded address counts only from a trusted proxy, read from the right; the SDK clients through it get their own quota',
  { timeout: 30_000 },
  async (t) => {
    // 127.0.0.2 plays the balancer (10.x the balancers behind it); 127.0.0.1 is a client reaching the server directly.
    const handle = await serve(t, {
      maxSessionsPerAddress: 1,
      forwarded: { trustedProxies: ['127.0.0.2', '10.0.0.0/8'] },
    });
    const viaProxy = (xff: string) => rawInitialize(handle.port, { 'x-forwarded-for': xff }, '127.0.0.2');

    // The direct client: its own address, whatever it forwards.
    assert.equal((await rawInitialize(handle.port)).status, 200);
    assertRefused(await rawInitialize(handle.port, { 'x-forwarded-for': '203.0.113.9' }), perAddress('127.0.0.1'));

    // Through the proxy: the address it appended (the right-most) is the client.
    assert.equal((await viaProxy('203.0.113.9')).status, 200);
    assertRefused(await viaProxy('203.0.113.9'), perAddress('203.0.113.9'));
    // What the client wrote itself, left of the proxy's entry, is never read.
    assertRefused(await viaProxy('198.51.100.1, 203.0.113.9'), perAddress('203.0.113.9'));
    assert.equal((await viaProxy('203.0.113.10')).status, 200);
    // Through two trusted hops, the first untrusted entry from the right; all trusted: the left-most.
    assert.equal((await viaProxy('203.0.113.11, 10.1.2.3')).status, 200);
    assertRefused(await viaProxy('203.0.113.11, 10.1.2.3'), perAddress('203.0.113.11'));
    assert.equal((await viaProxy('10.0.0.5, 10.0.0.6')).status, 200);
    assertRefused(await viaProxy('10.0.0.5, 10.0.0.6'), perAddress('10.0.0.5'));
    // An IPv6 client counts by its /64.
    assert.equal((await viaProxy('2001:db8:1:2::1')).status, 200);
    assertRefused(await viaProxy('2001:db8:1:2:ffff::9'), perAddress('2001:db8:1:2::/64'));
    // The proxy itself, forwarding nothing (a health check), is the client.
    assert.equal((await rawInitialize(handle.port, {}, '127.0.0.2')).status, 200);
    assertRefused(await rawInitialize(handle.port, {}, '127.0.0.2'), perAddress('127.0.0.2'));

    // SDK clients behind the proxy: each forwarded address gets its own session.
    const behind = (address: string): ClientSpec => ({ from: '127.0.0.2', headers: { 'x-forwarded-for': address } });
    await v1(t, handle.url, behind('192.0.2.1'));
    await v2(t, handle.url, behind('192.0.2.2'));
    await assert.rejects(v1(t, handle.url, behind('192.0.2.1')), { message: V1_REFUSAL(perAddress('192.0.2.1')) });
  },
);

test(
  'tenants: behind a real HAProxy (option forwardfor), each client address gets its own quota; a client spoofing X-Forwarded-For through it does not',
  { timeout: 30_000, skip: haproxySkipReason() },
  async (t) => {
    const handle = await serve(t, { maxSessionsPerAddress: 1, forwarded: { trustedProxies: ['127.0.0.2'] } });
    const balancer = await startForwardingHaproxy(handle.port, '127.0.0.2');
    t.after(() => balancer.stop());
    await v1(t, balancer.url, { from: '127.0.0.3' });
    await assert.rejects(v2(t, balancer.url, { from: '127.0.0.3' }), {
      status: 503,
      message: V2_REFUSAL(perAddress('127.0.0.3')),
    });
    // HAProxy appends the real address after what the client wrote: the spoof is never read.
    await assert.rejects(v1(t, balancer.url, { from: '127.0.0.3', headers: { 'x-forwarded-for': '198.51.100.77' } }), {
      message: V1_REFUSAL(perAddress('127.0.0.3')),
    });
    await v2(t, balancer.url, { from: '127.0.0.4' });
    assert.equal(handle.sessionCount, 2);
  },
);

test(
  'tenants: with forwarded.header "forwarded", the RFC 7239 for= of a trusted proxy counts and X-Forwarded-For is not read',
  { timeout: 30_000 },
  async (t) => {
    const handle = await serve(t, {
      maxSessionsPerAddress: 1,
      forwarded: { trustedProxies: ['127.0.0.0/30'], header: 'forwarded' },
    });
    const viaProxy = (headers: Record<string, string>) => rawInitialize(handle.port, headers, '127.0.0.2');
    assert.equal((await viaProxy({ forwarded: 'for=192.0.2.60;proto=http;by=127.0.0.2' })).status, 200);
    assertRefused(await viaProxy({ forwarded: 'for="192.0.2.60:4711"' }), perAddress('192.0.2.60'));
    assert.equal((await viaProxy({ forwarded: 'for="[2001:db8:cafe::17]:4711"' })).status, 200);
    // An X-Forwarded-For the proxy passed on untouched is the client's own: not read.
    assert.equal((await viaProxy({})).status, 200);
    assertRefused(await viaProxy({ 'x-forwarded-for': '192.0.2.61' }), perAddress('127.0.0.2'));
    // An obfuscated name ends the walk at the proxy that wrote it (127.0.0.3, itself trusted).
    assert.equal((await viaProxy({ forwarded: 'for=_hidden, for=127.0.0.3' })).status, 200);
    assertRefused(await viaProxy({ forwarded: 'for=unknown, for=127.0.0.3' }), perAddress('127.0.0.3'));
  },
);

test(
  'tenants: a session unused since initialize is closed after unusedSessionIdleMs; used ones (SDK clients, a ping) live on',
  { timeout: 30_000 },
  async (t) => {
    const closed = new Map<string, SessionCloseReason>();
    const events = new Signal();
    const handle = await serve(t, {
      sessionIdleMs: 60_000,
      unusedSessionIdleMs: 150,
      onSessionClosed: (id, reason) => {
        closed.set(id, reason);
        events.push(`closed ${id}`);
      },
    });
    const session = async (): Promise<string> => (await rawInitialize(handle.port)).headers['mcp-session-id'] as string;
    const post = (id: string, body: object) =>
      rawRequest(handle.port, {
        headers: { ...POST_HEADERS, 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' },
        body: JSON.stringify(body),
      });
    const idle = await session();
    // Notifications do not use a session (nor move its deadline).
    assert.equal((await post(idle, { jsonrpc: '2.0', method: 'notifications/initialized' })).status, 202);
    const pinged = await session();
    assert.equal((await post(pinged, { jsonrpc: '2.0', id: 2, method: 'ping' })).status, 200);
    const a = await v1(t, handle.url);
    const b = await v2(t, handle.url);
    await events.waitFor(`closed ${idle}`, 10_000);
    assert.deepEqual([...closed], [[idle, 'unused']]);
    // The used sessions are still open and answer.
    assert.equal((await post(pinged, { jsonrpc: '2.0', id: 3, method: 'ping' })).status, 200);
    assert.equal(handle.sessionCount, 3);
    assert.deepEqual(await (a as V1Client).callTool({ name: 'echo', arguments: { text: 'still here' } }), {
      content: [{ type: 'text', text: 'still here' }],
    });
    assert.deepEqual((await (b as V2Client).callTool({ name: 'echo', arguments: { text: 'me too' } })).content, [
      { type: 'text', text: 'me too' },
    ]);
  },
);

test('tenants: the session options are checked when the handler is built, naming the option', () => {
  assert.equal(DEFAULT_MAX_SESSIONS_PER_PRINCIPAL, 100);
  assert.equal(DEFAULT_MAX_SESSIONS_PER_ADDRESS, 100);
  assert.equal(DEFAULT_UNUSED_SESSION_IDLE_MS, 60_000);
  const build = (options: object) => () => createHttpHandler(() => makeTestServer(), options);
  for (const name of ['maxSessionsPerPrincipal', 'maxSessionsPerAddress']) {
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      assert.throws(build({ [name]: bad }), {
        name: 'TypeError',
        message: `createHttpHandler: "${name}" must be a positive integer or Infinity, got ${String(bad)}`,
      });
    }
  }
  assert.throws(build({ unusedSessionIdleMs: 0 }), {
    name: 'TypeError',
    message: 'createHttpHandler: "unusedSessionIdleMs" must be a positive number of milliseconds, got 0',
  });
  assert.throws(build({ sessionIdleMs: 60_000, unusedSessionIdleMs: 120_000 }), {
    name: 'TypeError',
    message: 'createHttpHandler: "unusedSessionIdleMs" must be at most sessionIdleMs (60000), got 120000',
  });
  const refusals: Array<[unknown, string]> = [
    ['10.0.0.1', 'forwarded must be an object { trustedProxies, header? }, got a string'],
    [
      { trustedProxies: ['10.0.0.1'], proxies: [] },
      'forwarded: unknown option "proxies" (known options: trustedProxies, header)',
    ],
    [{}, 'forwarded.trustedProxies must be a non-empty array of IP addresses or CIDR ranges'],
    [{ trustedProxies: [] }, 'forwarded.trustedProxies must be a non-empty array of IP addresses or CIDR ranges'],
    [
      { trustedProxies: ['10.0.0.1', 'balancer'] },
      'forwarded.trustedProxies[1] must be an IP address or a CIDR range such as 10.0.0.0/8, got "balancer"',
    ],
    [
      { trustedProxies: ['10.0.0.0/33'] },
      'forwarded.trustedProxies[0] must be an IP address or a CIDR range such as 10.0.0.0/8, got "10.0.0.0/33"',
    ],
    [
      { trustedProxies: ['::1'], header: 'x-real-ip' },
      'forwarded.header must be "x-forwarded-for" or "forwarded", got "x-real-ip"',
    ],
  ];
  for (const [forwarded, message] of refusals) assert.throws(build({ forwarded }), { name: 'TypeError', message });
  // A short sessionIdleMs shortens the unused default with it; Infinity switches the unused one off.
  build({ sessionIdleMs: 1000 })();
  build({ unusedSessionIdleMs: Infinity, sessionIdleMs: Infinity })();
});

/*
 * Parked 2026-07-28-era calls (a call waiting for the client's answers) are bounded per client as
 * sessions are: `inputRounds.maxParkedPerClient`.
 */

const ELICIT_CAPS = { elicitation: { form: {} } };
const askCall = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  method: 'tools/call',
  params: { name: 'ask', arguments: {}, ...extra },
});

/** A raw 2026-07-28 `tools/call` of `ask`, with `headers`, from `localAddress` when given. */
async function modernAsk(
  port: number,
  id: number,
  headers: Record<string, string> = {},
  extra: Record<string, unknown> = {},
  localAddress?: string,
): Promise<RawResponse> {
  const request = askCall(id, extra);
  return rawRequest(port, {
    headers: {
      ...POST_HEADERS,
      'mcp-protocol-version': MODERN,
      'mcp-method': 'tools/call',
      'mcp-name': 'ask',
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      ...request,
      params: { ...request.params, _meta: envelope(ELICIT_CAPS) },
    }),
    ...(localAddress === undefined ? {} : { localAddress }),
  });
}

/** The result of a raw 2026-07-28 answer (JSON or SSE). */
function modernResult(res: RawResponse): Record<string, unknown> {
  assert.equal(res.status, 200, res.text);
  const messages = res.headers['content-type']?.startsWith('text/event-stream')
    ? sseMessages(res.text)
    : [JSON.parse(res.text) as unknown];
  return withoutServerInfo((messages.at(-1) as { result: Record<string, unknown> }).result);
}

/** Asserts the exact 503 of a refused new call: the JSON-RPC error with the request's id, `Retry-After: 1`. */
function assertParkedRefused(res: RawResponse, id: number, message: string): void {
  assert.equal(res.status, 503, res.text);
  assert.equal(res.headers['retry-after'], '1');
  assert.equal(res.headers['content-type'], 'application/json');
  assert.deepEqual(JSON.parse(res.text), { jsonrpc: '2.0', id, error: { code: -32000, message } });
}

/**
 * An SDK 2.x client pinned to 2026-07-28 whose elicitations wait until `release()` (its calls stay
 * parked meanwhile).
 */
async function modernClient(
  t: { after(fn: () => Promise<void>): void },
  url: string,
  headers: Record<string, string>,
  hold: boolean,
): Promise<{ client: V2Client; asked: () => number; release: () => void }> {
  const waiting: Array<() => void> = [];
  let asked = 0;
  let released = !hold;
  const client = new V2Client(
    { name: 'tenant-modern', version: '1.0.0' },
    { capabilities: ELICIT_CAPS, versionNegotiation: { mode: { pin: MODERN } } },
  );
  client.setRequestHandler('elicitation/create', async () => {
    asked++;
    if (!released) await new Promise<void>((resolve) => waiting.push(resolve));
    return { action: 'accept', content: {} } as never;
  });
  await client.connect(new V2HttpTransport(new URL(url), { requestInit: { headers } }));
  t.after(() => client.close());
  return {
    client,
    asked: () => asked,
    release: () => {
      released = true;
      for (const resolve of waiting.splice(0)) resolve();
    },
  };
}

test(
  'tenants: a principal with maxParkedPerClient calls parked gets 503 naming that limit for a new call; its retries and another principal still go on',
  { timeout: 30_000 },
  async (t) => {
    const handle = await serve(t, { auth: devAuth(), inputRounds: { maxParkedPerClient: 2 } });
    const full = tooManyParkedMessage(2, { kind: 'principal', address: '' });
    // Alice parks two calls with the 2.x client (its elicitation handler holds them open).
    const alice = await modernClient(t, handle.url, devBearer('alice'), true);
    const calls = [1, 2].map(() => alice.client.callTool({ name: 'ask', arguments: {} }));
    await until(() => alice.asked() === 2);
    // Her third call is refused, from the same client, raw, or with another token of hers.
    await assert.rejects(
      alice.client.callTool({ name: 'ask', arguments: {} }),
      (error: Error & { status?: number }) => {
        assert.equal(error.name, 'SdkHttpError');
        assert.equal(error.status, 503);
        const prefix = 'Error POSTing to endpoint: ';
        assert.ok(error.message.startsWith(prefix), error.message);
        const body = JSON.parse(error.message.slice(prefix.length)) as { id: unknown };
        assert.deepEqual(body, { jsonrpc: '2.0', id: body.id, error: { code: -32000, message: full } });
        return true;
      },
    );
    assertParkedRefused(await modernAsk(handle.port, 7, devBearer('alice.2')), 7, full);
    // Bob's calls park and resume as ever.
    const bob = await modernClient(t, handle.url, devBearer('bob'), false);
    assert.deepEqual((await bob.client.callTool({ name: 'ask', arguments: {} })).content, [
      { type: 'text', text: 'answered accept' },
    ]);
    const bobParked = modernResult(await modernAsk(handle.port, 8, devBearer('bob')));
    assert.equal(bobParked.resultType, 'input_required');
    // Alice's answers resume her calls; then she may park again.
    alice.release();
    for (const result of await Promise.all(calls))
      assert.deepEqual(result.content, [{ type: 'text', text: 'answered accept' }]);
    const again = modernResult(await modernAsk(handle.port, 9, devBearer('alice')));
    assert.equal(again.resultType, 'input_required');
    // A retry is never refused, even at the bound: it takes its call back.
    assert.equal(modernResult(await modernAsk(handle.port, 10, devBearer('alice'))).resultType, 'input_required');
    assertParkedRefused(await modernAsk(handle.port, 11, devBearer('alice')), 11, full);
    const retried = modernResult(
      await modernAsk(handle.port, 12, devBearer('alice'), {
        requestState: again.requestState,
        inputResponses: { elicit_1: { action: 'decline' } },
      }),
    );
    assert.deepEqual(retried, { content: [{ type: 'text', text: 'answered decline' }], resultType: 'complete' });
  },
);

test(
  'tenants: a parked call belongs to its principal, not to its OAuth client: another user of the same client cannot resume it',
  { timeout: 30_000 },
  async (t) => {
    const handle = await serve(t, { auth: devAuth() });
    const parked = modernResult(await modernAsk(handle.port, 1, devBearer('alice')));
    const retry = (who: string, id: number) =>
      modernAsk(handle.port, id, devBearer(who), {
        requestState: parked.requestState,
        inputResponses: { elicit_1: { action: 'accept', content: {} } },
      });
    assert.deepEqual(modernResult(await retry('bob', 2)), {
      content: [{ type: 'text', text: STALE_STATE_TEXT }],
      isError: true,
      resultType: 'complete',
    });
    assert.deepEqual(modernResult(await retry('alice', 3)), {
      content: [{ type: 'text', text: 'answered accept' }],
      resultType: 'complete',
    });
  },
);

test(
  'tenants: without auth, parked calls are bounded per address; another address still parks',
  { timeout: 30_000 },
  async (t) => {
    const handle = await serve(t, { inputRounds: { maxParkedPerClient: 1 } });
    assert.equal(modernResult(await modernAsk(handle.port, 1)).resultType, 'input_required');
    assertParkedRefused(
      await modernAsk(handle.port, 2, { 'x-forwarded-for': '203.0.113.5' }),
      2,
      tooManyParkedMessage(1, { kind: 'address', address: '127.0.0.1' }),
    );
    assert.equal(modernResult(await modernAsk(handle.port, 3, {}, {}, '127.0.0.2')).resultType, 'input_required');
    assertParkedRefused(
      await modernAsk(handle.port, 4, {}, {}, '127.0.0.2'),
      4,
      tooManyParkedMessage(1, { kind: 'address', address: '127.0.0.2' }),
    );
  },
);

test(
  'tenants: a round that would park one call too many (two calls at once on one stdio connection) fails its question with ParkedRunLimitError; the call goes on',
  { timeout: 20_000 },
  async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const lines: Array<{ id: number; result: Record<string, unknown> }> = [];
    let buffered = '';
    stdout.setEncoding('utf8').on('data', (chunk: string) => {
      buffered += chunk;
      for (let index = buffered.indexOf('\n'); index !== -1; index = buffered.indexOf('\n')) {
        lines.push(JSON.parse(buffered.slice(0, index)) as (typeof lines)[number]);
        buffered = buffered.slice(index + 1);
      }
    });
    const runs = new ParkedRuns({ maxParkedPerClient: 1 });
    const prepared = new LiveSet({ where: 'createServer', tools: [ask], options: {} });
    const served = await connectStdio(() => serverFor(INFO, prepared, { transport: 'stdio' }, runs), {
      stdin,
      stdout,
      log: () => undefined,
    });
    const request = (id: number) =>
      JSON.stringify({
        jsonrpc: '2.0',
        ...askCall(id),
        params: { ...askCall(id).params, _meta: envelope(ELICIT_CAPS) },
      });
    stdin.write(`${request(1)}\n${request(2)}\n`);
    await until(() => lines.length === 2, 2000);
    const byId = new Map(lines.map((line) => [line.id, withoutServerInfo(line.result)]));
    assert.equal(byId.get(1)!.resultType, 'input_required');
    assert.deepEqual(byId.get(2), {
      content: [{ type: 'text', text: `not asked: ${new ParkedRunLimitError(1, 'Go on?').message}` }],
      resultType: 'complete',
    });
    assert.equal(
      new ParkedRunLimitError(1, 'Go on?').message,
      'too many calls of this client wait for input (inputRounds.maxParkedPerClient 1); the question "Go on?" cannot be asked now',
    );
    assert.equal(runs.size, 1);
    stdin.end();
    await served.closed;
    assert.equal(runs.size, 0);
  },
);

test('tenants: inputRounds.maxParkedPerClient is checked, and unknown input-round options are refused', () => {
  assert.equal(DEFAULT_MAX_PARKED_PER_CLIENT, 100);
  for (const bad of [0, -1, 1.5, Number.NaN]) {
    assert.throws(() => new ParkedRuns({ maxParkedPerClient: bad }), {
      name: 'TypeError',
      message: `inputRounds.maxParkedPerClient must be a positive integer or Infinity, got ${String(bad)}`,
    });
  }
  assert.throws(() => new ParkedRuns({ maxParked: 5 } as never), {
    name: 'TypeError',
    message:
      'inputRounds: unknown option "maxParked" (known options: maxRequests, abandonAfterMs, nodeId, relay, relayTimeoutMs, maxParkedPerClient)',
  });
  assert.equal(new ParkedRuns({ maxParkedPerClient: Infinity }).options.maxParkedPerClient, Infinity);
});

test('tenants: how a client address is read, for the spellings no loopback test can produce', () => {
  // A dual-stack listener (on `::`, not loopback-only) sees IPv4 clients as IPv4-mapped IPv6.
  const request = (remoteAddress: string, headers: Record<string, string> = {}) =>
    ({ socket: { remoteAddress }, headers }) as unknown as IncomingMessage;
  const none = resolveForwarded(undefined);
  const proxied = resolveForwarded({ trustedProxies: ['10.0.0.0/8', 'fd00::/8'] });
  const cases: Array<[IncomingMessage, AddressRule, string]> = [
    [request('::ffff:192.0.2.1'), none, '192.0.2.1'],
    [request('::FFFF:c000:0201'), none, '192.0.2.1'],
    [request('fe80::1%eth0'), none, 'fe80::1'],
    [request('::ffff:10.0.0.1', { 'x-forwarded-for': '::ffff:198.51.100.4' }), proxied, '198.51.100.4'],
    [request('fd00::5', { 'x-forwarded-for': '[2001:DB8::7]:443, fd00::6' }), proxied, '2001:db8::7'],
    [request('10.0.0.1', { 'x-forwarded-for': 'not-an-address, 10.0.0.2' }), proxied, '10.0.0.2'],
    [request('10.0.0.1', { 'x-forwarded-for': '' }), proxied, '10.0.0.1'],
  ];
  for (const [req, rule, expected] of cases) assert.equal(clientAddressOf(req, rule), expected, JSON.stringify(req));
  assert.equal(addressKey('::1'), '::/64');
  assert.equal(addressKey('2001:db8:0:1:2:3:4:5'), '2001:db8:0:1::/64');
  assert.equal(addressKey('192.0.2.1'), '192.0.2.1');
});

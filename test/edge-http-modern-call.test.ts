import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Server } from '@modelcontextprotocol/server';
import type { ContractTool } from '../src/contract/index.js';
import { createServer, listenHttp, serveHttp, type HttpHandle } from '../src/mcp/index.js';
import { MODERN, envelope, modernPost, type RawAnswer } from './support/modern-http.js';
import { objectSchema } from './support/schema-helpers.js';

/*
 * serveHttp answers a plain 2026-07-28 tools/call (no input-round retry, no progress token, no
 * log level, no task tools in the set) with no SDK Server built for it (see
 * `serveToolCallDirectly`): the answers are byte for byte those of the SDK's own path (a factory
 * serveHttp did not make), and everything else still gets a server of its own.
 */

const INFO = { name: 'modern-call', version: '1.0.0' };
const ELICIT_CAPS = { elicitation: { form: {} } };
const sessions = new Set<object>();
const aborted: string[] = [];
let hanging: (() => void) | undefined;

const tools: ContractTool[] = [
  {
    name: 'echo',
    description: 'Echoes its text',
    parameters: objectSchema({ text: { type: 'string' } }),
    execute: async (args, ctx) => {
      sessions.add(ctx.session!);
      return `echo: ${(args as { text: string }).text}`;
    },
  },
  {
    name: 'fails',
    description: 'Always fails',
    execute: async () => {
      throw new Error('broken on purpose');
    },
  },
  {
    name: 'ask',
    description: 'Asks for a name',
    execute: async (_args, ctx) => {
      const answer = await ctx.elicit({ message: 'Name?' });
      return `hello ${JSON.stringify(answer)}`;
    },
  },
  {
    name: 'hang',
    description: 'Waits until aborted, then says why',
    execute: (_args, ctx) =>
      new Promise<string>((resolve) => {
        hanging?.();
        ctx.signal.addEventListener('abort', () => {
          aborted.push(String((ctx.signal.reason as Error | undefined)?.message));
          resolve('aborted');
        });
      }),
  },
  {
    name: 'sample',
    description: 'Asks the client model',
    execute: async (_args, ctx) =>
      JSON.stringify(
        await ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 }),
      ),
  },
  {
    name: 'structured',
    description: 'Returns structured content',
    execute: async () => ({ content: [{ type: 'text', text: '{"a":1}' }], structuredContent: { a: 1 } }),
  },
];

let direct: HttpHandle;
let viaSdk: HttpHandle;
let connects = 0;
const originalConnect = Server.prototype.connect;

before(async () => {
  direct = await serveHttp(INFO, tools);
  // A factory serveHttp did not make: every request is the SDK entry's, with a server of its own.
  viaSdk = await listenHttp(() => createServer(INFO, tools, { transport: 'http' }));
  Server.prototype.connect = function (this: Server, ...args: Parameters<Server['connect']>) {
    connects++;
    return originalConnect.apply(this, args);
  };
});

after(async () => {
  Server.prototype.connect = originalConnect;
  await Promise.all([direct.close(), viaSdk.close()]);
});

/** Posts the same request to both endpoints; answers both raw answers and how many servers each connected. */
async function both(
  request: { id: number; method: string; params: Record<string, unknown> },
  meta: Record<string, unknown> = envelope({}),
): Promise<{ direct: RawAnswer; sdk: RawAnswer; directConnects: number }> {
  const start = connects;
  const directAnswer = await modernPost(direct.url, request, meta);
  const directConnects = connects - start;
  const sdk = await modernPost(viaSdk.url, request, meta);
  return { direct: directAnswer, sdk, directConnects };
}

/** The raw status, type and text of one answer to `body` (a `tools/call` of `name`, or a `tools/list`). */
async function raw(url: string, body: { method: string }, name?: string) {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-protocol-version': MODERN,
      'mcp-method': body.method,
      ...(name === undefined ? {} : { 'mcp-name': name }),
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

test('modern call: a plain tools/call builds no server, and its bytes are those of the SDK path', async () => {
  for (const [name, args] of [
    ['echo', { text: 'hi' }],
    ['echo', { text: 42 }],
    ['fails', {}],
    ['structured', {}],
    ['missing', {}],
    ['ask', {}],
    // Samples a client whose capabilities offer no sampling: -32021 with data, answered 400.
    ['sample', {}],
  ] as const) {
    const body = {
      jsonrpc: '2.0',
      id: `req-${name}`,
      method: 'tools/call',
      params: { name, arguments: args, _meta: { ...envelope({}), 'example.com/trace': 'x' } },
    };
    const start = connects;
    const fromDirect = await raw(direct.url, body, name);
    assert.equal(connects - start, 0, `${name}: no server connected`);
    const fromSdk = await raw(viaSdk.url, body, name);
    if (name === 'sample') assert.equal(fromDirect.status, 400, 'the -32021 answer is HTTP 400');
    assert.deepEqual(fromDirect, fromSdk, `${name}: same status, type and body`);
  }
});

test('modern call: each request gets a session object of its own', async () => {
  sessions.clear();
  await modernPost(
    direct.url,
    { id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'a' } } },
    envelope({}),
  );
  await modernPost(
    direct.url,
    { id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'b' } } },
    envelope({}),
  );
  assert.equal(sessions.size, 2);
});

test('modern call: a call that asks is answered input_required as on the SDK path, and its retry resumes it', async () => {
  const request = { id: 7, method: 'tools/call', params: { name: 'ask', arguments: {} } };
  const { direct: first, sdk, directConnects } = await both(request, envelope(ELICIT_CAPS));
  assert.equal(directConnects, 0);
  const mask = (answer: RawAnswer) =>
    JSON.stringify(answer).replace(/"requestState":"[^"]*"/, '"requestState":"<state>"');
  assert.equal(mask(first), mask(sdk));
  const state = (first.messages[0] as { result: { requestState: string } }).result.requestState;
  const start = connects;
  const retry = await modernPost(
    direct.url,
    {
      id: 8,
      method: 'tools/call',
      params: {
        name: 'ask',
        arguments: {},
        requestState: state,
        inputResponses: { elicit_1: { action: 'accept', content: { name: 'Ada' } } },
      },
    },
    envelope(ELICIT_CAPS),
  );
  assert.equal(connects - start, 1, 'a retry is served by a server of its own');
  assert.equal(
    (retry.messages[0] as { result: { content: Array<{ text: string }> } }).result.content[0]!.text,
    'hello {"action":"accept","content":{"name":"Ada"}}',
  );
});

test('modern call: a progress token, a log level or a refused envelope keep the path with a server', async () => {
  const call = { id: 9, method: 'tools/call', params: { name: 'echo', arguments: { text: 'p' } } };
  for (const meta of [
    { ...envelope({}), progressToken: 'p1' },
    envelope({}, 'debug'),
    { ...envelope({}), 'io.modelcontextprotocol/clientCapabilities': 'none' },
  ]) {
    const { direct: answer, sdk, directConnects } = await both(call, meta);
    assert.ok(directConnects >= 1, `served with a server: ${JSON.stringify(meta)}`);
    assert.deepEqual(answer, sdk);
  }
});

test('modern call: a set with a task tool keeps the path with a server', async () => {
  const withTask = await serveHttp(INFO, [
    ...tools,
    { name: 'long', description: 'A task', task: { support: 'optional' }, execute: async () => 'done' } as ContractTool,
  ]);
  try {
    const start = connects;
    const answer = await modernPost(
      withTask.url,
      { id: 10, method: 'tools/call', params: { name: 'echo', arguments: { text: 't' } } },
      envelope({}),
    );
    assert.equal(connects - start, 1);
    assert.equal(
      (answer.messages[0] as { result: { content: Array<{ text: string }> } }).result.content[0]!.text,
      'echo: t',
    );
  } finally {
    await withTask.close();
  }
});

test('modern call: tools/list builds no server, and its bytes (a refused cursor too) are those of the SDK path', async () => {
  for (const params of [{}, { cursor: 5 }]) {
    const body = { jsonrpc: '2.0', id: 11, method: 'tools/list', params: { ...params, _meta: envelope({}) } };
    const start = connects;
    const fromDirect = await raw(direct.url, body);
    assert.equal(connects - start, 0, `${JSON.stringify(params)}: no server connected`);
    assert.deepEqual(fromDirect, await raw(viaSdk.url, body));
  }
});

test('modern call: a "__proto__" key in params or _meta keeps the path with a server, with the same answer', async () => {
  const body = JSON.parse(
    `{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"},"_meta":${JSON.stringify(
      envelope({}),
    ).replace(/^\{/, '{"__proto__":{"a":1},')}}}`,
  ) as { method: string };
  const start = connects;
  const fromDirect = await raw(direct.url, body, 'echo');
  assert.ok(connects - start >= 1);
  assert.deepEqual(fromDirect, await raw(viaSdk.url, body, 'echo'));
});

test("modern call: the verified principal reaches each call, one token never sees another's, and tools/list hides per token", async () => {
  let url = '';
  const seen: string[] = [];
  const guarded = await serveHttp(
    INFO,
    [
      {
        name: 'whoami',
        description: 'Says who calls',
        execute: async (_args, ctx) => {
          seen.push(ctx.principal?.subject ?? 'nobody');
          return ctx.principal?.subject ?? 'nobody';
        },
      },
      { name: 'admin', description: 'Needs admin', scopes: ['admin'], execute: async () => 'ok' },
    ],
    {
      hideForbiddenTools: true,
      auth: {
        issuer: 'https://as.example',
        verifier: async (token) => ({
          subject: token,
          clientId: `${token}-client`,
          scopes: token === 'alice' ? ['admin'] : [],
          expiresAt: Math.floor(Date.now() / 1000) + 600,
          audience: [url],
          issuer: 'https://as.example',
          claims: { sub: token },
        }),
      },
    },
  );
  url = guarded.url;
  try {
    const start = connects;
    const as = (token: string) => ({ authorization: `Bearer ${token}` });
    const call = { id: 13, method: 'tools/call', params: { name: 'whoami', arguments: {} } };
    const [alice, bob] = await Promise.all([
      modernPost(url, call, envelope({}), undefined, as('alice')),
      modernPost(url, call, envelope({}), undefined, as('bob')),
    ]);
    const text = (answer: RawAnswer) =>
      (answer.messages[0] as { result: { content: Array<{ text: string }> } }).result.content[0]!.text;
    assert.deepEqual([text(alice), text(bob)], ['alice', 'bob']);
    const list = { id: 14, method: 'tools/list', params: {} };
    const names = (answer: RawAnswer) =>
      (answer.messages[0] as { result: { tools: Array<{ name: string }> } }).result.tools.map((t) => t.name);
    assert.deepEqual(names(await modernPost(url, list, envelope({}), undefined, as('alice'))), ['whoami', 'admin']);
    assert.deepEqual(names(await modernPost(url, list, envelope({}), undefined, as('bob'))), ['whoami']);
    assert.equal(connects - start, 0, 'no server connected');
    assert.deepEqual(seen.sort(), ['alice', 'bob']);
  } finally {
    await guarded.close();
  }
});

test('modern call: a hang-up aborts the call, and closing the endpoint answers a call in flight 499, with no server', async () => {
  const closing = await serveHttp(INFO, tools);
  const start = connects;
  const call = { id: 15, method: 'tools/call', params: { name: 'hang', arguments: {} } };
  const controller = new AbortController();
  let started = new Promise<void>((resolve) => (hanging = resolve));
  const hungUp = modernPost(closing.url, call, envelope({}), controller.signal).catch(
    (e: unknown) => (e as Error).name,
  );
  await started;
  controller.abort();
  assert.equal(await hungUp, 'AbortError');
  for (let i = 0; i < 100 && aborted.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(aborted.length, 1, 'the call was aborted');
  started = new Promise<void>((resolve) => (hanging = resolve));
  const answer = modernPost(closing.url, { ...call, id: 16 }, envelope({}));
  await started;
  await closing.close();
  assert.deepEqual(await answer, { status: 499, type: null, messages: [] });
  assert.equal(connects - start, 0, 'no server connected');
});

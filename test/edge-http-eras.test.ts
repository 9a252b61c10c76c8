import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ContractTool } from '../src/contract/index.js';
import { FACTS_CAPABILITY, serveHttp, type HttpHandle } from '../src/mcp/index.js';
import { MODERN, envelope, modernPost, resultOf, withoutServerInfo } from './support/modern-http.js';

/*
 * The 2026-07-28 era on toolwright's HTTP endpoint, next to the 2025 era: server/discover, the
 * revision's header checks and error codes, per-request log level and client capabilities,
 * stateless requests, and the Mcp-Param headers of parameters marked x-mcp-header (SEP-2243).
 * Raw requests, exact answers; one endpoint (and one stateless one) for the file.
 */

const tools: ContractTool[] = [
  {
    name: 'chatty',
    description: 'Logs at three levels',
    execute: async (_args, ctx) => {
      ctx.log('debug', 'd');
      ctx.log('warning', 'w');
      ctx.log('error', 'e');
      return 'chatted';
    },
  },
  {
    name: 'ask',
    description: 'Asks the user with a form',
    execute: async (_args, ctx) => `answer: ${(await ctx.elicit({ message: 'Sure?' })).action}`,
  },
  {
    name: 'regional',
    description: 'A parameter mirrored in a header',
    parameters: {
      type: 'object',
      properties: { region: { type: 'string', 'x-mcp-header': 'Region' } },
      additionalProperties: false,
    },
    execute: async (args) => `region ${String((args as { region?: string }).region)}`,
  },
];

let handle: HttpHandle;
let stateless: HttpHandle;

before(async () => {
  handle = await serveHttp({ name: 'eras', version: '1.0.0' }, tools);
  stateless = await serveHttp({ name: 'eras-stateless', version: '1.0.0' }, tools, { stateless: true });
});

after(async () => {
  await handle.close();
  await stateless.close();
});

async function rawPost(
  url: string,
  body: unknown,
  headers: Record<string, string>,
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? null : (JSON.parse(text) as unknown) };
}

test('eras: server/discover advertises the same capabilities as initialize, the facts capability included', async () => {
  const answer = await modernPost(handle.url, { id: 1, method: 'server/discover' }, envelope({}));
  assert.deepEqual(withoutServerInfo(resultOf(answer)), {
    supportedVersions: [MODERN],
    capabilities: { tools: { listChanged: true }, logging: {}, experimental: { [FACTS_CAPABILITY]: {} } },
    resultType: 'complete',
    ttlMs: 0,
    cacheScope: 'private',
  });
});

test('eras: a 2026-07-28 request needs no session, also on a stateless endpoint', async () => {
  for (const url of [handle.url, stateless.url]) {
    const answer = await modernPost(
      url,
      { id: 7, method: 'tools/call', params: { name: 'regional', arguments: {} } },
      envelope({}),
    );
    assert.deepEqual(withoutServerInfo(resultOf(answer)), {
      content: [{ type: 'text', text: 'region undefined' }],
      resultType: 'complete',
    });
  }
});

test("eras: the revision's errors: an unknown method is 404 -32601, a missing Mcp-Method header 400 -32020, an unserved version 400 -32022", async () => {
  const unknown = await modernPost(handle.url, { id: 2, method: 'nothing/here' }, envelope({}));
  assert.deepEqual(
    { status: unknown.status, messages: unknown.messages },
    { status: 404, messages: [{ jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'Method not found' } }] },
  );
  const meta = envelope({});
  const noHeader = await rawPost(
    handle.url,
    { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: meta } },
    { 'mcp-protocol-version': MODERN },
  );
  assert.equal(noHeader.status, 400);
  assert.equal((noHeader.body as { error: { code: number } }).error.code, -32020);
  const future = await rawPost(
    handle.url,
    {
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/list',
      params: { _meta: { ...meta, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } },
    },
    { 'mcp-protocol-version': '2099-01-01', 'mcp-method': 'tools/list' },
  );
  assert.equal(future.status, 400);
  assert.equal((future.body as { error: { code: number } }).error.code, -32022);
});

test("eras: logs follow the request's own log level, and none are sent without one", async () => {
  const notifications = (answer: { messages: unknown[] }) =>
    answer.messages
      .filter((m) => (m as { method?: string }).method === 'notifications/message')
      .map((m) => (m as { params: unknown }).params);
  const warned = await modernPost(
    handle.url,
    { id: 5, method: 'tools/call', params: { name: 'chatty', arguments: {} } },
    envelope({}, 'warning'),
  );
  assert.deepEqual(notifications(warned), [
    { level: 'warning', data: 'w' },
    { level: 'error', data: 'e' },
  ]);
  const silent = await modernPost(
    handle.url,
    { id: 6, method: 'tools/call', params: { name: 'chatty', arguments: {} } },
    envelope({}),
  );
  assert.deepEqual(notifications(silent), []);
  assert.deepEqual(withoutServerInfo(resultOf(silent)), {
    content: [{ type: 'text', text: 'chatted' }],
    resultType: 'complete',
  });
});

test("eras: the client capabilities are the request's own: a request that offers no elicitation is never asked", async () => {
  const answer = await modernPost(
    handle.url,
    { id: 8, method: 'tools/call', params: { name: 'ask', arguments: {} } },
    envelope({}),
  );
  assert.deepEqual(withoutServerInfo(resultOf(answer)), {
    content: [{ type: 'text', text: 'answer: cancel' }],
    resultType: 'complete',
  });
});

test('eras: Mcp-Param headers of x-mcp-header parameters are checked against the body (SEP-2243)', async () => {
  const call = (id: number, region: string | undefined, header: string | undefined) =>
    rawPost(
      handle.url,
      {
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'regional', arguments: region === undefined ? {} : { region }, _meta: envelope({}) },
      },
      {
        'mcp-protocol-version': MODERN,
        'mcp-method': 'tools/call',
        'mcp-name': 'regional',
        ...(header === undefined ? {} : { 'mcp-param-region': header }),
      },
    );
  const refusal = (id: number, problem: string) => ({
    status: 400,
    body: {
      jsonrpc: '2.0',
      id,
      error: { code: -32020, message: `Bad Request: the request headers and body disagree: ${problem}` },
    },
  });
  assert.deepEqual(
    await call(1, 'eu', undefined),
    refusal(1, 'the Mcp-Param-Region header is missing but the body has "region"'),
  );
  assert.deepEqual(
    await call(2, 'eu', 'us'),
    refusal(2, 'the Mcp-Param-Region header does not match the body\'s "region"'),
  );
  assert.deepEqual(
    await call(3, 'Hello', '=?base64?SGVsbG8?='),
    refusal(3, 'the Mcp-Param-Region header is not valid Base64'),
  );
  assert.deepEqual(
    await call(4, undefined, 'eu'),
    refusal(4, 'the Mcp-Param-Region header is given but the body has no "region"'),
  );
  const accepted = await call(5, 'Hello', ` =?base64?${Buffer.from('Hello').toString('base64')}?= `);
  assert.equal(accepted.status, 200);
  assert.deepEqual(withoutServerInfo((accepted.body as { result: Record<string, unknown> }).result), {
    content: [{ type: 'text', text: 'region Hello' }],
    resultType: 'complete',
  });
});

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ContractTool } from '../src/contract/index.js';
import { serveHttp, type HttpHandle } from '../src/mcp/index.js';
import { MODERN, envelope, modernPost } from './support/modern-http.js';

/*
 * serveHttp answers a 2026-07-28 request on node:http itself (see `serveModernDirectly`): the
 * result as one JSON body written straight to the response, a hang-up closing the request's
 * server (which aborts the call), and a Base64 Mcp-Name header left to the SDK's own check.
 */

const events: string[] = [];
let released: (() => void) | undefined;

const tools: ContractTool[] = [
  {
    name: 'echo',
    description: 'Echoes',
    execute: async () => {
      events.push('echo ran');
      return 'echoed';
    },
  },
  {
    name: 'slow',
    description: 'Waits until aborted',
    execute: (_args, ctx) =>
      new Promise<string>((resolve) => {
        events.push('slow started');
        released?.();
        ctx.signal.addEventListener('abort', () => {
          events.push('slow aborted');
          released?.();
          resolve('aborted');
        });
      }),
  },
];

let handle: HttpHandle;

before(async () => {
  handle = await serveHttp({ name: 'direct', version: '1.0.0' }, tools);
});

after(async () => {
  await handle.close();
});

/** Resolves once `events` holds `event`, or fails after 5 s saying what did not happen. */
async function eventSeen(event: string): Promise<void> {
  for (let i = 0; i < 100 && !events.includes(event); i++)
    await new Promise<void>((resolve) => {
      released = resolve;
      setTimeout(resolve, 50);
    });
  assert.ok(events.includes(event), `"${event}" did not happen within 5 s (saw ${JSON.stringify(events)})`);
}

test('direct: a 2026-07-28 tools/call result is one JSON body with its Content-Length', async () => {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'echo', arguments: {}, _meta: envelope({}) },
  });
  const res = await fetch(handle.url, {
    method: 'POST',
    headers: {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-protocol-version': MODERN,
      'mcp-method': 'tools/call',
      'mcp-name': 'echo',
    },
    body,
  });
  const text = await res.text();
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'application/json');
  assert.equal(res.headers.get('content-length'), String(Buffer.byteLength(text)));
  assert.deepEqual(JSON.parse(text), {
    jsonrpc: '2.0',
    id: 1,
    result: {
      content: [{ type: 'text', text: 'echoed' }],
      resultType: 'complete',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'direct', version: '1.0.0' } },
    },
  });
});

test('direct: a 2026-07-28 client hanging up mid-call aborts the call', async () => {
  events.length = 0;
  const controller = new AbortController();
  const answer = modernPost(
    handle.url,
    { id: 2, method: 'tools/call', params: { name: 'slow', arguments: {} } },
    envelope({}),
    controller.signal,
  ).catch((error: unknown) => (error as Error).name);
  await eventSeen('slow started');
  controller.abort();
  assert.equal(await answer, 'AbortError');
  await eventSeen('slow aborted');
});

test('direct: an Mcp-Name header in Base64 is checked by the SDK, and a wrong one refused', async () => {
  const base64 = (text: string) => `=?base64?${Buffer.from(text).toString('base64')}?=`;
  const right = await modernPost(
    handle.url,
    { id: 3, method: 'tools/call', params: { name: 'echo', arguments: {} } },
    envelope({}),
    undefined,
    { 'mcp-name': base64('echo') },
  );
  assert.equal(right.status, 200);
  const wrong = await modernPost(
    handle.url,
    { id: 4, method: 'tools/call', params: { name: 'echo', arguments: {} } },
    envelope({}),
    undefined,
    { 'mcp-name': base64('other') },
  );
  assert.deepEqual(
    { status: wrong.status, code: (wrong.messages[0] as { error?: { code?: number } }).error?.code },
    { status: 400, code: -32020 },
  );
});

test('direct: closing the endpoint mid-call answers the call 499 with no body, as the SDK entry does', async () => {
  const closing = await serveHttp({ name: 'direct-closing', version: '1.0.0' }, tools);
  events.length = 0;
  const answer = modernPost(
    closing.url,
    { id: 5, method: 'tools/call', params: { name: 'slow', arguments: {} } },
    envelope({}),
  );
  await eventSeen('slow started');
  await closing.close();
  const { status, messages } = await answer;
  assert.deepEqual({ status, messages }, { status: 499, messages: [] });
});

test('direct: an envelope the SDK schema refuses gets the SDK entry answer, and the tool never runs', async () => {
  events.length = 0;
  const refused = await modernPost(
    handle.url,
    { id: 6, method: 'tools/call', params: { name: 'echo', arguments: {} } },
    { ...envelope({}), 'io.modelcontextprotocol/clientCapabilities': 'none' },
  );
  const error = (refused.messages[0] as { id?: unknown; error?: { code?: number; message?: string } }).error;
  assert.deepEqual(
    { status: refused.status, id: (refused.messages[0] as { id?: unknown }).id, code: error?.code },
    { status: 400, id: 6, code: -32602 },
  );
  assert.match(
    error?.message ?? '',
    /^Invalid _meta envelope for protocol revision 2026-07-28: io\.modelcontextprotocol\/clientCapabilities: /,
  );
  assert.deepEqual(events, []);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport } from '@modelcontextprotocol/client';
import { compile, type CallContext, type ContractTool } from '../src/index.js';
import { serveHttp, type HttpHandle } from '../src/mcp/index.js';
import { JSON_ANSWER_WINDOW_MS } from '../src/mcp/transports/http/node-http-transport.js';
import {
  INITIALIZE,
  POST_HEADERS,
  Signal,
  answerMessages,
  initSession,
  openRequest,
  rawRequest,
  readAll,
  sseMessages,
} from './support/transport-http-probe.js';

// How a 2025-era POST is answered (issue 28): one JSON body when the call sends nothing before its
// result and is done within JSON_ANSWER_WINDOW_MS, else an event stream. Both are what the
// streamable HTTP transport allows; both SDK client lines read both.

const gate = new Signal();
const objectSchema = { type: 'object' as const, properties: {}, additionalProperties: false };
const tools: ContractTool[] = [
  {
    name: 'echo',
    description: 'Echoes its text',
    parameters: {
      type: 'object',
      properties: { text: { type: 'string' } },
      required: ['text'],
      additionalProperties: false,
    },
    execute: async (args) => String((args as { text: string }).text),
  },
  {
    name: 'steps',
    description: 'Reports one progress step, then answers',
    parameters: objectSchema,
    execute: async (_args: unknown, ctx: CallContext) => {
      ctx.progress({ progress: 1, total: 2, message: 'halfway' });
      await new Promise((resolve) => setTimeout(resolve, 10));
      return 'stepped';
    },
  },
  {
    name: 'held',
    description: 'Answers once the test opens the gate',
    parameters: objectSchema,
    execute: async () => {
      gate.push('held started');
      await gate.waitFor('open');
      return 'released';
    },
  },
];

async function serve(t: { after(fn: () => Promise<void>): void }, stateless = false): Promise<HttpHandle> {
  const handle = await serveHttp({ name: 'answers', version: '1.0.0' }, compile(tools), { stateless });
  t.after(() => handle.close());
  return handle;
}

const callBody = (id: number, name: string, args: Record<string, unknown> = {}, meta?: Record<string, unknown>) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name, arguments: args, ...(meta === undefined ? {} : { _meta: meta }) },
  });

test('http answers: a call that sends nothing before its result gets one JSON body with its length', async (t) => {
  const handle = await serve(t);
  const init = await rawRequest(handle.port, { headers: POST_HEADERS, body: INITIALIZE });
  assert.equal(init.headers['content-type'], 'application/json');
  const id = await initSession(handle.port);
  const res = await rawRequest(handle.port, {
    headers: { ...POST_HEADERS, 'mcp-session-id': id },
    body: callBody(2, 'echo', { text: 'hi' }),
  });
  const text = '{"result":{"content":[{"type":"text","text":"hi"}]},"jsonrpc":"2.0","id":2}';
  assert.deepEqual(
    {
      status: res.status,
      type: res.headers['content-type'],
      length: res.headers['content-length'],
      session: res.headers['mcp-session-id'],
      text: res.text,
    },
    { status: 200, type: 'application/json', length: String(text.length), session: id, text },
  );
});

test('http answers: a batch of requests gets one JSON array of their answers', async (t) => {
  const handle = await serve(t);
  const id = await initSession(handle.port);
  const res = await rawRequest(handle.port, {
    headers: { ...POST_HEADERS, 'mcp-session-id': id },
    body: `[${callBody(3, 'echo', { text: 'a' })},${JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'ping' })}]`,
  });
  assert.equal(res.headers['content-type'], 'application/json');
  const answers = JSON.parse(res.text) as Array<{ id: number }>;
  assert.deepEqual(
    answers.sort((a, b) => a.id - b.id),
    [
      { result: { content: [{ type: 'text', text: 'a' }] }, jsonrpc: '2.0', id: 3 },
      { result: {}, jsonrpc: '2.0', id: 4 },
    ],
  );
});

test('http answers: a call that reports progress first is answered as an event stream', async (t) => {
  const handle = await serve(t);
  const id = await initSession(handle.port);
  const res = await rawRequest(handle.port, {
    headers: { ...POST_HEADERS, 'mcp-session-id': id },
    body: callBody(5, 'steps', {}, { progressToken: 'p1' }),
  });
  assert.equal(res.headers['content-type'], 'text/event-stream');
  assert.equal(res.headers['content-length'], undefined);
  assert.deepEqual(sseMessages(res.text), [
    {
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 'p1', progress: 1, total: 2, message: 'halfway' },
    },
    { result: { content: [{ type: 'text', text: 'stepped' }] }, jsonrpc: '2.0', id: 5 },
  ]);
});

test('http answers: a call still running after the JSON window gets its event stream at once', async (t) => {
  const handle = await serve(t);
  const id = await initSession(handle.port);
  const call = openRequest(handle.port, {
    headers: { ...POST_HEADERS, 'mcp-session-id': id },
    body: callBody(6, 'held'),
  });
  await gate.waitFor('held started');
  // The head arrives while the tool is still waiting for the gate.
  const response = await call.response;
  assert.ok(!gate.events.includes('open'));
  assert.equal(response.headers['content-type'], 'text/event-stream');
  gate.push('open');
  assert.deepEqual(sseMessages(await readAll(response)), [
    { result: { content: [{ type: 'text', text: 'released' }] }, jsonrpc: '2.0', id: 6 },
  ]);
  gate.events.length = 0;
});

test('http answers: without sessions, a quick call gets one JSON body too', async (t) => {
  const handle = await serve(t, true);
  const res = await rawRequest(handle.port, { headers: POST_HEADERS, body: callBody(7, 'echo', { text: 'solo' }) });
  assert.deepEqual(
    { type: res.headers['content-type'], session: res.headers['mcp-session-id'], messages: answerMessages(res) },
    {
      type: 'application/json',
      session: undefined,
      messages: [{ result: { content: [{ type: 'text', text: 'solo' }] }, jsonrpc: '2.0', id: 7 }],
    },
  );
});

/** One SDK client line's way to call a tool (with progress reported to `onprogress`). */
type Caller = (name: string, args: Record<string, unknown>, onprogress?: (p: unknown) => void) => Promise<unknown>;

async function callers(t: { after(fn: () => Promise<void>): void }, url: string): Promise<Record<string, Caller>> {
  const v1 = new V1Client({ name: 'answers-v1', version: '1.0.0' });
  await v1.connect(new V1HttpTransport(new URL(url)));
  t.after(() => v1.close());
  const v2 = new V2Client({ name: 'answers-v2', version: '1.0.0' });
  await v2.connect(new V2HttpTransport(new URL(url)));
  t.after(() => v2.close());
  return {
    'sdk 1.x': (name, args, onprogress) =>
      v1.callTool({ name, arguments: args }, undefined, onprogress === undefined ? {} : { onprogress }),
    'sdk 2.x': (name, args, onprogress) =>
      v2.callTool({ name, arguments: args }, onprogress === undefined ? {} : { onprogress }),
  };
}

for (const stateless of [false, true]) {
  test(`http answers: both SDK client lines read JSON answers and event streams alike${stateless ? ', stateless' : ''}`, async (t) => {
    const handle = await serve(t, stateless);
    for (const [line, call] of Object.entries(await callers(t, handle.url))) {
      const progress: unknown[] = [];
      const [echo, stepped] = await Promise.all([
        call('echo', { text: 'both' }),
        call('steps', {}, (p) => void progress.push(p)),
      ]);
      assert.deepEqual(
        { line, echo, stepped, progress },
        {
          line,
          echo: { content: [{ type: 'text', text: 'both' }] },
          stepped: { content: [{ type: 'text', text: 'stepped' }] },
          progress: [{ progress: 1, total: 2, message: 'halfway' }],
        },
      );
      const held = call('held', {});
      await gate.waitFor('held started');
      // Past the JSON window: the answer comes on an event stream.
      await new Promise((resolve) => setTimeout(resolve, 2 * JSON_ANSWER_WINDOW_MS));
      gate.push('open');
      assert.deepEqual(await held, { content: [{ type: 'text', text: 'released' }] });
      gate.events.length = 0;
    }
  });
}

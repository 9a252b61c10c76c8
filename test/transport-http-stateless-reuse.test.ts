import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveHttp, type ServeHttpHandle } from '../src/mcp/transports/index.js';
import type { CallContext, ContractTool, Session } from '../src/contract/index.js';
import { compilePrompts } from '../src/index.js';
import { POST_HEADERS, rawRequest } from './support/transport-http-probe.js';
import { prompts } from './support/features-fixture.js';

/**
 * Stateless HTTP hands a server from one POST to the next (see `createStatelessLeg`): these pin
 * that nothing of one client reaches another through it, whatever the order of the POSTs.
 */

/** What the `remember` tool stored on each session object it saw. */
const storedBySession = new WeakMap<Session, string[]>();

function rememberTool(): ContractTool {
  return {
    name: 'remember',
    description: 'Stores its text on the call session and answers everything stored there',
    parameters: {
      type: 'object',
      properties: { text: { type: 'string' } },
      required: ['text'],
      additionalProperties: false,
    },
    execute: async (args: unknown, ctx: CallContext) => {
      const session = ctx.session!;
      const stored = storedBySession.get(session) ?? [];
      stored.push((args as { text: string }).text);
      storedBySession.set(session, stored);
      return stored.join(',');
    },
  };
}

function noisyTool(): ContractTool {
  return {
    name: 'noisy',
    description: 'Logs one info line, then answers',
    parameters: { type: 'object', properties: {}, additionalProperties: false },
    execute: async (_args: unknown, ctx: CallContext) => {
      ctx.log('info', 'said at info');
      return 'done';
    },
  };
}

async function start(t: { after(fn: () => Promise<void>): void }): Promise<ServeHttpHandle> {
  const handle = await serveHttp({ name: 'reuse', version: '1.0.0' }, [rememberTool(), noisyTool()], {
    port: 0,
    stateless: true,
  });
  t.after(() => handle.close());
  return handle;
}

const post = (port: number, message: object) =>
  rawRequest(port, { headers: POST_HEADERS, body: JSON.stringify({ jsonrpc: '2.0', ...message }) });

const callBody = (id: number, name: string, args: object) => ({
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

test('http stateless: a later POST never sees what a tool stored on an earlier POST session', async (t) => {
  const handle = await start(t);
  // One after another: each POST gets the server the last one left, if it is handed on at all.
  for (let i = 1; i <= 5; i++) {
    const res = await post(handle.port, callBody(i, 'remember', { text: `client ${i}` }));
    assert.equal(res.status, 200);
    assert.deepEqual(JSON.parse(res.text), {
      jsonrpc: '2.0',
      id: i,
      result: { content: [{ type: 'text', text: `client ${i}` }] },
    });
  }
});

test('http stateless: one POST log level never applies to a later POST', async (t) => {
  const handle = await start(t);
  const quiet = await post(handle.port, { id: 1, method: 'logging/setLevel', params: { level: 'emergency' } });
  assert.deepEqual(
    { status: quiet.status, text: quiet.text },
    { status: 200, text: '{"result":{},"jsonrpc":"2.0","id":1}' },
  );
  for (let id = 2; id <= 4; id++) {
    const res = await post(handle.port, callBody(id, 'noisy', {}));
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'text/event-stream');
    assert.equal(
      res.text,
      'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/message",' +
        '"params":{"level":"info","data":"said at info"}}\n\n' +
        `event: message\ndata: {"result":{"content":[{"type":"text","text":"done"}]},"jsonrpc":"2.0","id":${id}}\n\n`,
    );
  }
});

test('http stateless: concurrent POSTs with the same request id each get their own answer', async (t) => {
  const handle = await start(t);
  const rounds = await Promise.all(
    Array.from({ length: 8 }, (_, i) => post(handle.port, callBody(7, 'remember', { text: `parallel ${i}` }))),
  );
  assert.deepEqual(
    rounds.map((res) => JSON.parse(res.text) as unknown),
    Array.from({ length: 8 }, (_, i) => ({
      jsonrpc: '2.0',
      id: 7,
      result: { content: [{ type: 'text', text: `parallel ${i}` }] },
    })),
  );
  // And again, now that servers that answered id 7 are idle: still one fresh session each.
  const again = await post(handle.port, callBody(7, 'remember', { text: 'after' }));
  assert.equal(JSON.parse(again.text).result.content[0].text, 'after');
});

test('http stateless: once the served set changes, no server built for the old set answers again', async (t) => {
  const handle = await start(t);
  // Servers built now serve no prompts: each POST leaves one idle for the next.
  for (let id = 1; id <= 3; id++) assert.equal((await post(handle.port, callBody(id, 'noisy', {}))).status, 200);
  handle.addPrompts([compilePrompts(prompts)[0]!]);
  const listed = await post(handle.port, { id: 10, method: 'prompts/list' });
  assert.equal(listed.status, 200);
  assert.deepEqual(
    (JSON.parse(listed.text) as { result: { prompts: { name: string }[] } }).result.prompts.map((p) => p.name),
    [compilePrompts(prompts)[0]!.name],
  );
});

/**
 * Direct dispatch over stdio (issue 7, speed): once a 2025-era server is connected, the hardened
 * stdio transport hands each message straight to the SDK `Protocol`'s `_onrequest`,
 * `_onnotification` or `_onresponse` by its kind, skipping the zod classification of
 * `Protocol.connect`'s message handler (two failing `safeParse`s per request). These tests pin
 * the routing, its guards, and that a whole session (initialize, calls, errors, progress, a
 * cancelled call, a cancel for an unknown id, elicitation answered and failed, ping) is answered
 * byte for byte as through the SDK's own handler. toolwright's own `tools/call` requests are answered
 * without `_onrequest` (see `toolCallAnswererOf`), and what it does not take still goes through
 * it. In process, about 1 second.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { Server, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/server';
import { HardenedStdioTransport } from '../src/mcp/transports/stdio/stdio-transport.js';
import { connectStdio } from '../src/mcp/transports/stdio/connect-stdio.js';
import { addTools, createServer } from '../src/mcp/server/index.js';
import { connectsAsTheSdk } from '../src/mcp/transports/direct-dispatch.js';
import { toolCallAnswererOf } from '../src/mcp/transports/direct-tool-call.js';
import type { ContractTool } from '../src/index.js';
import { untilAborted } from './support/text.js';
import { LineStdout } from './support/line-stdout.js';

const request = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x' } } as JSONRPCMessage;
const notification = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } } as JSONRPCMessage;
const response = { jsonrpc: '2.0', id: 0, result: { action: 'cancel' } } as JSONRPCMessage;
const errorResponse = { jsonrpc: '2.0', id: 4, error: { code: -1, message: 'no' } } as JSONRPCMessage;

function startedTransport(stdin: PassThrough): HardenedStdioTransport {
  return new HardenedStdioTransport({
    stdin,
    stdout: new LineStdout(),
    maxLineBytes: 1024 * 1024,
    log: () => undefined,
  });
}

/** A stand-in for the SDK `Protocol`'s three dispatch methods, recording what each received. */
function recordingProtocol(seen: string[]): {
  _onrequest(m: JSONRPCMessage): void;
  _onnotification(m: JSONRPCMessage): void;
  _onresponse(m: JSONRPCMessage): void;
} {
  return {
    _onrequest: (m) => void seen.push(`request ${JSON.stringify(m)}`),
    _onnotification: (m) => void seen.push(`notification ${JSON.stringify(m)}`),
    _onresponse: (m) => void seen.push(`response ${JSON.stringify(m)}`),
  };
}

const lineOf = (message: JSONRPCMessage): string => `${JSON.stringify(message)}\n`;
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

test('a connected protocol gets each message by its kind, not through onmessage', async () => {
  const stdin = new PassThrough();
  const transport = startedTransport(stdin);
  const seen: string[] = [];
  transport.onmessage = (m) => void seen.push(`onmessage ${JSON.stringify(m)}`);
  assert.equal(transport.dispatchesDirectly, false);
  transport.dispatchDirectlyTo(recordingProtocol(seen));
  assert.equal(transport.dispatchesDirectly, true);
  await transport.start();
  stdin.write(lineOf(request) + lineOf(notification) + lineOf(response) + lineOf(errorResponse));
  await nextTurn();
  assert.deepEqual(seen, [
    `request ${JSON.stringify(request)}`,
    `notification ${JSON.stringify(notification)}`,
    `response ${JSON.stringify(response)}`,
    `response ${JSON.stringify(errorResponse)}`,
  ]);
  // Whoever replaces onmessage afterwards gets the messages again.
  seen.length = 0;
  transport.onmessage = (m) => void seen.push(`replaced ${JSON.stringify(m)}`);
  assert.equal(transport.dispatchesDirectly, false);
  stdin.write(lineOf(request));
  await nextTurn();
  assert.deepEqual(seen, [`replaced ${JSON.stringify(request)}`]);
  await transport.close();
});

test('direct dispatch is left off for a protocol without the three methods, or with no onmessage set', async () => {
  const stdin = new PassThrough();
  const transport = startedTransport(stdin);
  const seen: string[] = [];
  const { _onresponse: _dropped, ...partial } = recordingProtocol(seen);
  transport.dispatchDirectlyTo(recordingProtocol(seen));
  transport.onmessage = (m) => void seen.push(`onmessage ${JSON.stringify(m)}`);
  transport.dispatchDirectlyTo(partial);
  assert.equal(transport.dispatchesDirectly, false);
  await transport.start();
  stdin.write(lineOf(request));
  await nextTurn();
  assert.deepEqual(seen, [`onmessage ${JSON.stringify(request)}`]);
  await transport.close();
});

/** Tools whose answers show each path: a plain answer, progress then a wait for cancel, an elicitation. */
function sessionTools(events: string[]): ContractTool[] {
  return [
    {
      name: 'echo',
      description: 'Echoes text',
      parameters: {
        type: 'object',
        properties: { text: { type: 'string' } },
        required: ['text'],
        additionalProperties: false,
      },
      execute: async (args) => String((args as { text: unknown }).text),
    },
    {
      name: 'wait',
      description: 'Reports progress, then waits to be cancelled',
      parameters: { type: 'object', properties: {} },
      execute: async (_args, ctx) => {
        ctx.progress({ progress: 1, total: 2, message: 'half' });
        await untilAborted(ctx.signal);
        events.push(`wait aborted: ${String((ctx.signal.reason as Error | undefined)?.message ?? ctx.signal.reason)}`);
        return 'too late';
      },
    },
    {
      name: 'ask',
      description: 'Asks the user for a name',
      parameters: { type: 'object', properties: {} },
      execute: async (_args, ctx) => {
        const answer = await ctx.elicit({
          message: 'Your name?',
          schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        });
        return `${answer.action} ${JSON.stringify(answer.content ?? null)}`;
      },
    },
  ];
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: { elicitation: { form: {} } },
    clientInfo: { name: 'speed', version: '1.0.0' },
  },
};

/**
 * Plays one scripted 2025-era session against a server on `stdin`/`stdout` and returns every line
 * the server wrote, in order (server-to-client request ids included).
 */
async function playSession(stdin: PassThrough, stdout: LineStdout): Promise<string[]> {
  const written: string[] = [];
  const send = (message: unknown): void => void stdin.write(`${JSON.stringify(message)}\n`);
  const read = async (): Promise<string> => {
    const line = await stdout.next();
    written.push(line);
    return line;
  };
  send(INITIALIZE);
  await read();
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } });
  await read();
  send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'nope', arguments: {} } });
  await read();
  send({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'echo', arguments: { text: 5 } } });
  await read();
  send({ jsonrpc: '2.0', id: 5, method: 'no/such/method' });
  await read();
  send({
    jsonrpc: '2.0',
    id: 6,
    method: 'tools/call',
    params: { name: 'wait', arguments: {}, _meta: { progressToken: 'p6' } },
  });
  await read();
  send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 6, reason: 'user stopped it' } });
  send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 999, reason: 'unknown id' } });
  send({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'ask', arguments: {} } });
  const question = JSON.parse(await read()) as { id: number };
  send({ jsonrpc: '2.0', id: question.id, result: { action: 'accept', content: { name: 'Ada' } } });
  await read();
  send({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'ask', arguments: {} } });
  const second = JSON.parse(await read()) as { id: number };
  send({ jsonrpc: '2.0', id: second.id, error: { code: -32001, message: 'the user closed the form' } });
  await read();
  send({ jsonrpc: '2.0', id: 9, method: 'ping' });
  await read();
  return written;
}

const EXPECTED_SESSION = (initializeAnswer: string): string[] => [
  initializeAnswer,
  '{"result":{"content":[{"type":"text","text":"hi"}]},"jsonrpc":"2.0","id":2}',
  '{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Unknown tool: nope"}}',
  '{"result":{"content":[{"type":"text","text":"invalid arguments: /text: must be string"}],"isError":true},"jsonrpc":"2.0","id":4}',
  '{"jsonrpc":"2.0","id":5,"error":{"code":-32601,"message":"Method not found"}}',
  '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p6","progress":1,"total":2,"message":"half"}}',
  '{"method":"elicitation/create","params":{"mode":"form","message":"Your name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}},"jsonrpc":"2.0","id":0}',
  '{"result":{"content":[{"type":"text","text":"accept {\\"name\\":\\"Ada\\"}"}]},"jsonrpc":"2.0","id":7}',
  '{"method":"elicitation/create","params":{"mode":"form","message":"Your name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}},"jsonrpc":"2.0","id":1}',
  '{"result":{"content":[{"type":"text","text":"the user closed the form"}],"isError":true},"jsonrpc":"2.0","id":8}',
  '{"result":{},"jsonrpc":"2.0","id":9}',
];

test("a whole 2025-era session over stdio is answered exactly as through the SDK's own message handler", async () => {
  const viaSdk: { events: string[]; lines: string[] } = { events: [], lines: [] };
  const direct: { events: string[]; lines: string[] } = { events: [], lines: [] };
  {
    // The SDK's handler: the same transport connected straight to the server, no direct dispatch.
    const stdin = new PassThrough();
    const stdout = new LineStdout();
    const transport = new HardenedStdioTransport({ stdin, stdout, maxLineBytes: 1024 * 1024, log: () => undefined });
    const server = createServer({ name: 'speed', version: '1.0.0' }, sessionTools(viaSdk.events), {
      transport: 'stdio',
    });
    await server.connect(transport);
    viaSdk.lines = await playSession(stdin, stdout);
    await nextTurn();
    assert.deepEqual(stdout.unread, []);
    await server.close();
  }
  {
    // connectStdio's era gate connects the server and turns direct dispatch on.
    const stdin = new PassThrough();
    const stdout = new LineStdout();
    const servers: Server[] = [];
    const factory = (): Server => {
      const server = createServer({ name: 'speed', version: '1.0.0' }, sessionTools(direct.events), {
        transport: 'stdio',
      });
      servers.push(server);
      return server;
    };
    const handle = await connectStdio(factory, {
      stdin,
      stdout,
      handleSignals: false,
      exitProcess: false,
      guardStdout: false,
      log: () => undefined,
    });
    direct.lines = await playSession(stdin, stdout);
    assert.equal(servers.length, 1);
    const connected = servers[0]!.transport;
    assert.ok(connected instanceof HardenedStdioTransport);
    assert.equal(connected.dispatchesDirectly, true);
    await nextTurn();
    assert.deepEqual(stdout.unread, []);
    await handle.close();
  }
  assert.deepEqual(direct.lines, EXPECTED_SESSION(direct.lines[0]!));
  assert.deepEqual(direct.lines, viaSdk.lines);
  assert.deepEqual(direct.events, ['wait aborted: user stopped it']);
  assert.deepEqual(viaSdk.events, direct.events);
  assert.match(
    direct.lines[0]!,
    /^\{"result":\{"protocolVersion":"2025-11-25","capabilities":\{"tools":\{"listChanged":true\},"logging":\{\},"experimental":\{/,
  );
});

test('a server whose connect is its own keeps its message handler: every message still goes through it', async () => {
  const stdin = new PassThrough();
  const stdout = new LineStdout();
  const seen: string[] = [];
  /** A server that wraps the SDK's message handler after connecting (tracing, say). */
  class TracingServer extends Server {
    override async connect(transport: Transport): Promise<void> {
      await super.connect(transport);
      const sdkHandler = transport.onmessage!;
      transport.onmessage = (message, extra) => {
        seen.push((message as { method?: string }).method ?? 'response');
        sdkHandler(message, extra);
      };
    }
  }
  let built: TracingServer | undefined;
  const factory = (): Server => {
    built = new TracingServer({ name: 'tracing', version: '1.0.0' }, { capabilities: { tools: {} } });
    addTools(built, sessionTools([]));
    return built;
  };
  assert.equal(connectsAsTheSdk(createServer({ name: 'plain', version: '1.0.0' }, [])), true);
  assert.equal(connectsAsTheSdk(factory()), false);
  const handle = await connectStdio(factory, {
    stdin,
    stdout,
    handleSignals: false,
    exitProcess: false,
    guardStdout: false,
    log: () => undefined,
  });
  stdin.write(`${JSON.stringify(INITIALIZE)}\n`);
  await stdout.next();
  stdin.write(
    `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'traced' } } })}\n`,
  );
  assert.equal(await stdout.next(), '{"result":{"content":[{"type":"text","text":"traced"}]},"jsonrpc":"2.0","id":2}');
  assert.equal((built!.transport as HardenedStdioTransport).dispatchesDirectly, false);
  assert.deepEqual(seen, ['initialize', 'notifications/initialized', 'tools/call']);
  await handle.close();
});

test("toolwright's tools/call is answered without the SDK's _onrequest; every other request still goes through it", async () => {
  const stdin = new PassThrough();
  const stdout = new LineStdout();
  let server: Server | undefined;
  const handle = await connectStdio(
    () => (server = createServer({ name: 'speed', version: '1.0.0' }, sessionTools([]), { transport: 'stdio' })),
    { stdin, stdout, handleSignals: false, exitProcess: false, guardStdout: false, log: () => undefined },
  );
  const send = (message: unknown): void => void stdin.write(`${JSON.stringify(message)}\n`);
  send(INITIALIZE);
  await stdout.next();
  // Bound at the first message: what reaches _onrequest from now on is recorded.
  const viaOnRequest: string[] = [];
  const sdk = server as unknown as { _onrequest(message: JSONRPCMessage, extra?: object): void };
  const onRequest = sdk._onrequest.bind(sdk);
  sdk._onrequest = (message, extra) => {
    viaOnRequest.push((message as { method: string }).method);
    onRequest(message, extra);
  };
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'fast' } } });
  assert.equal(await stdout.next(), '{"result":{"content":[{"type":"text","text":"fast"}]},"jsonrpc":"2.0","id":2}');
  send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'nope', arguments: {}, _meta: { trace: 'x' } } });
  assert.equal(await stdout.next(), '{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Unknown tool: nope"}}');
  send({ jsonrpc: '2.0', id: 4, method: 'ping' });
  assert.equal(await stdout.next(), '{"result":{},"jsonrpc":"2.0","id":4}');
  send({ jsonrpc: '2.0', id: 5, method: 'tools/list' });
  assert.match(await stdout.next(), /^\{"result":\{"tools":\[\{"name":"echo",/);
  assert.deepEqual(viaOnRequest, ['ping', 'tools/list']);
  await handle.close();
});

test('the tools/call answerer leaves to _onrequest what toolwright does not answer the 2025 way', async () => {
  const sent: JSONRPCMessage[] = [];
  const send = async (message: JSONRPCMessage): Promise<void> => void sent.push(message);
  const server = createServer({ name: 'speed', version: '1.0.0' }, sessionTools([]), { transport: 'stdio' });
  const answer = toolCallAnswererOf(server, send)!;
  assert.equal(typeof answer, 'function');
  const call = (id: number, params: Record<string, unknown>): boolean =>
    answer({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' }, ...params } });
  // A 2026-07-28 envelope key in _meta, or an input-round retry, is the SDK's to lift.
  assert.equal(call(1, { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } }), false);
  assert.equal(call(2, { requestState: 'abc' }), false);
  assert.equal(call(3, { inputResponses: {} }), false);
  assert.equal(answer({ jsonrpc: '2.0', id: 4, method: 'tools/list' }), false);
  assert.equal(call(5, { _meta: { progressToken: 't' } }), true);
  // A tools/call handler registered with the SDK answers instead of toolwright's fallback.
  server.setRequestHandler('tools/call', async () => ({ content: [] }));
  assert.equal(call(6, {}), false);
  // A server whose _onrequest or buildContext is its own is never answered around them.
  class OwnContext extends Server {
    override buildContext(...args: Parameters<Server['buildContext']>): ReturnType<Server['buildContext']> {
      return super.buildContext(...args);
    }
  }
  assert.equal(toolCallAnswererOf(new OwnContext({ name: 'own', version: '1.0.0' }), send), undefined);
  assert.equal(toolCallAnswererOf(recordingProtocol([]), send), undefined);
  // Only the call it took was answered, through the given send.
  for (let turn = 0; turn < 20 && sent.length === 0; turn++) await nextTurn();
  assert.deepEqual(sent, [{ result: { content: [{ type: 'text', text: 'x' }] }, jsonrpc: '2.0', id: 5 }]);
});

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { trace, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport } from '@modelcontextprotocol/client';
import type { ContractTool } from '../src/contract/index.js';
import { createPolicy, Executor } from '../src/runtime/index.js';
import { serveHttp, type HttpHandle } from '../src/mcp/index.js';
import { installTracing, lockedGate, otelTools, takeSpans as takeFinished, until } from './support/otel.js';

/*
 * Tracing with the real OpenTelemetry SDK (an in-memory exporter, the W3C propagators, the
 * AsyncLocalStorage context manager): 2025-era (SDK 1.x and 2.x) and 2026-era (SDK 2.x) clients
 * send `traceparent` in `params._meta`; the server span of each request continues that trace,
 * the call core's `execute_tool` span is its child, and the attributes are exact. The scheduling
 * wait, the permission question and the 2026-07-28 input round appear; the Executor's calls get
 * the same span; `telemetry: false` makes none.
 */

const exporter = installTracing();

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';
const TRACEPARENT = `00-${TRACE_ID}-${PARENT_ID}-01`;

const tools: ContractTool[] = [
  ...otelTools,
  {
    name: 'guarded',
    description: 'Needs write on its note',
    requires: [{ capabilities: ['write'], subject: () => 'notes/a' }],
    execute: async () => 'wrote',
  },
];

let handle: HttpHandle;
let untraced: HttpHandle;

before(async () => {
  const policy = createPolicy({ ask: () => ({ decision: 'allow_once' }) });
  handle = await serveHttp({ name: 'traced', version: '1.0.0' }, tools, { policy });
  untraced = await serveHttp({ name: 'untraced', version: '1.0.0' }, tools, { policy, telemetry: false });
});

after(async () => {
  await handle.close();
  await untraced.close();
});

type Kind = 'sdk 1.x (2025-11-25)' | 'sdk 2.x (2025-11-25)' | 'sdk 2.x (2026-07-28)';
const KINDS: readonly Kind[] = ['sdk 1.x (2025-11-25)', 'sdk 2.x (2025-11-25)', 'sdk 2.x (2026-07-28)'];

interface TestClient {
  call(name: string, args: Record<string, unknown>, meta?: Record<string, unknown>): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

async function connect(kind: Kind, url: string): Promise<TestClient> {
  const info = { name: 'otel-test', version: '1.0.0' };
  const capabilities = { elicitation: { form: {} } };
  const reply = { action: 'accept' as const, content: { name: 'Ada' } };
  if (kind === 'sdk 1.x (2025-11-25)') {
    const client = new V1Client(info, { capabilities });
    client.setRequestHandler(ElicitRequestSchema, async () => reply);
    await client.connect(new V1HttpTransport(new URL(url)));
    return {
      call: async (name, args, meta) =>
        (await client.callTool({ name, arguments: args, ...(meta === undefined ? {} : { _meta: meta }) })) as never,
      close: () => client.close(),
    };
  }
  const modern = kind === 'sdk 2.x (2026-07-28)';
  const client = new V2Client(info, {
    capabilities,
    ...(modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
  });
  client.setRequestHandler('elicitation/create', async () => reply as never);
  await client.connect(new V2HttpTransport(new URL(url)));
  return {
    call: async (name, args, meta) =>
      (await client.callTool({ name, arguments: args, ...(meta === undefined ? {} : { _meta: meta }) })) as never,
    close: () => client.close(),
  };
}

function takeSpans(): ReadableSpan[] {
  return takeFinished(exporter);
}

function named(spans: readonly ReadableSpan[], name: string): ReadableSpan[] {
  return spans.filter((span) => span.name === name);
}

function one(spans: readonly ReadableSpan[], name: string): ReadableSpan {
  const found = named(spans, name);
  assert.equal(found.length, 1, `one span "${name}" in ${JSON.stringify(spans.map((s) => s.name))}`);
  return found[0]!;
}

/** A span's attributes without the ids that change on every run (checked on their own). */
function stableAttributes(span: ReadableSpan): Record<string, unknown> {
  const {
    'jsonrpc.request.id': id,
    'mcp.session.id': session,
    'gen_ai.tool.call.id': callId,
    ...rest
  } = span.attributes;
  void id;
  void session;
  void callId;
  return rest;
}

for (const kind of KINDS) {
  const modern = kind === 'sdk 2.x (2026-07-28)';
  const era = modern ? 'modern' : 'legacy';
  describe(`tracing with ${kind}`, () => {
    let client: TestClient;
    before(async () => {
      client = await connect(kind, handle.url);
      takeSpans();
    });
    after(() => client.close());

    it('a call continues the trace its _meta traceparent names: server span, then the tool span', async () => {
      const result = await client.call('add', { a: 2, b: 3 }, { traceparent: TRACEPARENT });
      assert.deepEqual(result.content, [{ type: 'text', text: '5' }]);
      const spans = takeSpans();
      const server = one(spans, 'tools/call add');
      const tool = one(spans, 'execute_tool add');
      assert.equal(server.kind, SpanKind.SERVER);
      assert.equal(server.spanContext().traceId, TRACE_ID);
      assert.equal(server.parentSpanContext?.spanId, PARENT_ID);
      assert.equal(server.parentSpanContext?.isRemote, true);
      assert.deepEqual(stableAttributes(server), {
        'mcp.method.name': 'tools/call',
        'toolwright.era': era,
        ...(modern ? { 'mcp.protocol.version': '2026-07-28' } : {}),
        'network.transport': 'tcp',
        'network.protocol.name': 'http',
        'gen_ai.tool.name': 'add',
        'gen_ai.operation.name': 'execute_tool',
        'toolwright.outcome': 'ok',
      });
      assert.equal(typeof server.attributes['jsonrpc.request.id'], 'string');
      assert.equal(server.attributes['mcp.session.id'] === undefined, modern, 'a session id only in the 2025 era');
      assert.deepEqual(server.status, { code: SpanStatusCode.UNSET });
      assert.equal(tool.kind, SpanKind.INTERNAL);
      assert.equal(tool.spanContext().traceId, TRACE_ID);
      assert.equal(tool.parentSpanContext?.spanId, server.spanContext().spanId);
      assert.deepEqual(stableAttributes(tool), {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'add',
        'toolwright.era': era,
        'toolwright.outcome': 'ok',
      });
      assert.equal(tool.attributes['gen_ai.tool.call.id'], server.attributes['jsonrpc.request.id']);
      assert.equal(tool.attributes['jsonrpc.request.id'], server.attributes['jsonrpc.request.id']);
      assert.equal(tool.attributes['mcp.session.id'], server.attributes['mcp.session.id']);
      assert.equal(JSON.stringify(tool.attributes).includes('"a"'), false, 'no argument values');
    });

    it('a failing tool: the tool span has the error type and status; the server span says tool_error', async () => {
      const result = await client.call('broken', {}, { traceparent: TRACEPARENT });
      assert.equal(result.isError, true);
      const spans = takeSpans();
      const server = one(spans, 'tools/call broken');
      const tool = one(spans, 'execute_tool broken');
      assert.equal(server.attributes['toolwright.outcome'], 'tool_error');
      assert.equal(server.attributes['error.type'], 'tool_error');
      assert.equal(server.status.code, SpanStatusCode.ERROR);
      assert.equal(tool.attributes['toolwright.outcome'], 'error');
      assert.equal(tool.attributes['error.type'], 'Error');
      assert.deepEqual(tool.status, { code: SpanStatusCode.ERROR, message: 'no luck' });
    });

    it('an unknown tool: the server span carries the JSON-RPC error code', async () => {
      await assert.rejects(client.call('nope', {}, { traceparent: TRACEPARENT }));
      const spans = takeSpans();
      const server = one(spans, 'tools/call nope');
      assert.equal(server.attributes['error.type'], '-32602');
      assert.equal(server.attributes['rpc.response.status_code'], '-32602');
      assert.equal(server.attributes['toolwright.outcome'], 'error');
      assert.deepEqual(server.status, { code: SpanStatusCode.ERROR, message: 'Unknown tool: nope' });
      assert.equal(named(spans, 'execute_tool nope').length, 0);
    });

    it('a permission question is a child span of the tool span, with its capabilities and decision', async () => {
      const result = await client.call('guarded', {}, { traceparent: TRACEPARENT });
      assert.deepEqual(result.content, [{ type: 'text', text: 'wrote' }]);
      const spans = takeSpans();
      const tool = one(spans, 'execute_tool guarded');
      const question = one(spans, 'toolwright.permission');
      assert.equal(question.parentSpanContext?.spanId, tool.spanContext().spanId);
      assert.deepEqual(question.attributes, {
        'toolwright.permission.capabilities': ['write'],
        'toolwright.permission.decision': 'allow_once',
      });
      assert.deepEqual(
        tool.events.map((event) => [event.name, event.attributes]),
        [
          [
            'toolwright.record',
            { 'toolwright.record.ns': 'toolwright:permissions', 'toolwright.record.origin': 'permissions' },
          ],
        ],
      );
    });

    it('an elicitation: one tool span for the call', async () => {
      const result = await client.call('ask_name', {}, { traceparent: TRACEPARENT });
      assert.deepEqual(result.content, [{ type: 'text', text: 'hello Ada' }]);
      const spans = takeSpans();
      const tool = one(spans, 'execute_tool ask_name');
      const servers = named(spans, 'tools/call ask_name');
      if (!modern) {
        assert.equal(servers.length, 1);
        assert.deepEqual(tool.links, []);
        return;
      }
      // 2026-07-28: the first request is answered input_required, the retry with the answer
      // resumes the same call; the call's span is the first request's child, linked to the retry.
      assert.deepEqual(
        servers.map((span) => span.attributes['toolwright.outcome']),
        ['input_required', 'ok'],
      );
      const [first, retry] = servers as [ReadableSpan, ReadableSpan];
      assert.equal(tool.parentSpanContext?.spanId, first.spanContext().spanId);
      assert.deepEqual(
        tool.links.map((link) => link.context.spanId),
        [retry.spanContext().spanId],
      );
      assert.deepEqual(
        retry.links.map((link) => link.context.spanId),
        [tool.spanContext().spanId],
      );
      assert.deepEqual(
        tool.events.map((event) => [event.name, event.attributes]),
        [['toolwright.input_round', { 'toolwright.input.requests': ['elicit_1 elicitation/create'] }]],
      );
    });
  });
}

describe('trace context from HTTP headers', () => {
  it('a request without _meta trace context continues the one of its HTTP headers; _meta wins over them', async () => {
    const HEADER_PARENT = '1111111111111111';
    const client = new V2Client({ name: 'otel-headers', version: '1.0.0' });
    await client.connect(
      new V2HttpTransport(new URL(handle.url), {
        requestInit: { headers: { traceparent: `00-${'a'.repeat(32)}-${HEADER_PARENT}-01` } },
      }),
    );
    try {
      takeSpans();
      await client.callTool({ name: 'add', arguments: { a: 1, b: 1 } });
      const fromHeaders = one(takeSpans(), 'tools/call add');
      assert.equal(fromHeaders.spanContext().traceId, 'a'.repeat(32));
      assert.equal(fromHeaders.parentSpanContext?.spanId, HEADER_PARENT);
      await client.callTool({ name: 'add', arguments: { a: 1, b: 1 }, _meta: { traceparent: TRACEPARENT } });
      const fromMeta = one(takeSpans(), 'tools/call add');
      assert.equal(fromMeta.spanContext().traceId, TRACE_ID);
      assert.equal(fromMeta.parentSpanContext?.spanId, PARENT_ID);
    } finally {
      await client.close();
    }
  });
});

describe('tracing of waits, the Executor, and telemetry: false', () => {
  it('a call that waited for its resource has a toolwright.wait child span naming what it waited for', async () => {
    const client = await connect('sdk 2.x (2025-11-25)', handle.url);
    try {
      takeSpans();
      const first = client.call('locked', {}, { traceparent: TRACEPARENT });
      await until(() => lockedGate.release !== undefined);
      const releaseFirst = lockedGate.release!;
      lockedGate.release = undefined;
      const second = client.call('locked', {}, { traceparent: TRACEPARENT });
      // The second call waits behind the first: its span exists only once the first is released.
      await new Promise((r) => setTimeout(r, 50));
      releaseFirst();
      await first;
      await until(() => lockedGate.release !== undefined);
      lockedGate.release!();
      lockedGate.release = undefined;
      await second;
      const spans = takeSpans();
      const waits = named(spans, 'toolwright.wait');
      assert.equal(waits.length, 1);
      const tools = named(spans, 'execute_tool locked');
      assert.equal(tools.length, 2);
      const waited = tools.find((span) => span.spanContext().spanId === waits[0]!.parentSpanContext?.spanId);
      assert.ok(waited, 'the wait is a child of one of the tool spans');
      assert.match(String(waits[0]!.attributes['toolwright.wait.for']), /^tools\/call "locked" /);
    } finally {
      await client.close();
    }
  });

  it('an Executor call gets its execute_tool span, a child of the active span', async () => {
    takeSpans();
    const executor = new Executor({ tools });
    const tracer = trace.getTracer('test');
    await tracer.startActiveSpan('agent turn', async (turn) => {
      const [outcome] = await executor.run([{ id: 'c1', tool: 'add', args: { a: 1, b: 1 } }]);
      assert.equal(outcome?.ok, true);
      turn.end();
    });
    const spans = takeSpans();
    const turn = one(spans, 'agent turn');
    const tool = one(spans, 'execute_tool add');
    assert.equal(tool.parentSpanContext?.spanId, turn.spanContext().spanId);
    assert.deepEqual(tool.attributes, {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'add',
      'gen_ai.tool.call.id': 'c1',
      'toolwright.outcome': 'ok',
    });
  });

  it('recordArguments and recordResults put the values on the span only when asked', async () => {
    takeSpans();
    const executor = new Executor({ tools, telemetry: { recordArguments: true, recordResults: true } });
    await executor.run([{ id: 'c2', tool: 'add', args: { a: 1, b: 2 } }]);
    const tool = one(takeSpans(), 'execute_tool add');
    assert.equal(tool.attributes['gen_ai.tool.call.arguments'], '{"a":1,"b":2}');
    assert.equal(tool.attributes['gen_ai.tool.call.result'], '{"content":[{"type":"text","text":"3"}]}');
  });

  it('telemetry: false makes no span, on a server and on the Executor', async () => {
    const client = await connect('sdk 2.x (2025-11-25)', untraced.url);
    try {
      takeSpans();
      await client.call('add', { a: 2, b: 3 }, { traceparent: TRACEPARENT });
      await new Executor({ tools, telemetry: false }).run([{ id: 'c3', tool: 'add', args: { a: 1, b: 1 } }]);
      assert.deepEqual(
        takeSpans().map((span) => span.name),
        [],
      );
    } finally {
      await client.close();
    }
  });

  it('a bad telemetry option is refused by name', () => {
    assert.throws(() => new Executor({ tools, telemetry: 'yes' as never }), {
      message: 'Executor: "telemetry" must be false or an object { recordArguments?, recordResults? }, got a string',
    });
    assert.throws(() => new Executor({ tools, telemetry: { recordArgs: true } as never }), {
      message: 'Executor: unknown option "telemetry.recordArgs" (known options: recordArguments, recordResults)',
    });
    assert.throws(() => new Executor({ tools, telemetry: { recordResults: 1 } as never }), {
      message: 'Executor: "telemetry.recordResults" must be true or false, got 1',
    });
  });
});

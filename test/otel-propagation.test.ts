import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SpanKind } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport } from '@modelcontextprotocol/client';
import { serveHttp, type HttpHandle } from '../src/mcp/index.js';
import { createProxy, type Proxy } from '../src/mcp/proxy/index.js';
import { installTracing, otelTools, takeSpans as takeFinished } from './support/otel.js';

/*
 * A trace crosses a proxy: a client sends `traceparent` in `_meta` to a toolwright proxy over
 * HTTP, the proxy's call of the proxied tool injects the current context into the upstream
 * request's `_meta`, and the upstream toolwright server's spans continue the same trace. Both
 * eras downstream (the proxy's upstream connection is its own, 2.x client), one process, one
 * in-memory exporter.
 */

const exporter = installTracing();

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const CLIENT_SPAN = 'b7ad6b7169203331';

let upstream: HttpHandle;
let proxy: Proxy;
let proxied: HttpHandle;

before(async () => {
  upstream = await serveHttp({ name: 'upstream', version: '1.0.0' }, otelTools);
  proxy = await createProxy([{ name: 'math', url: upstream.url }], { stderr: 'ignore' });
  proxied = await proxy.serveHttp();
});

after(async () => {
  await proxied.close();
  await proxy.close();
  await upstream.close();
});

function takeSpans(): ReadableSpan[] {
  return takeFinished(exporter);
}

function one(spans: readonly ReadableSpan[], name: string, kind: SpanKind): ReadableSpan {
  const found = spans.filter((span) => span.name === name && span.kind === kind);
  assert.equal(found.length, 1, `one ${SpanKind[kind]} span "${name}" in ${JSON.stringify(spans.map((s) => s.name))}`);
  return found[0]!;
}

const KINDS = ['sdk 1.x (2025-11-25)', 'sdk 2.x (2026-07-28)'] as const;

for (const kind of KINDS) {
  describe(`a trace across a proxy, downstream ${kind}`, () => {
    it('client -> proxy server span -> proxy tool span -> upstream client span -> upstream server span -> upstream tool span', async () => {
      takeSpans();
      const meta = { traceparent: `00-${TRACE_ID}-${CLIENT_SPAN}-01`, baggage: 'turn=7' };
      let result: { content?: unknown };
      if (kind === 'sdk 1.x (2025-11-25)') {
        const client = new V1Client({ name: 'down', version: '1.0.0' });
        await client.connect(new V1HttpTransport(new URL(proxied.url)));
        result = (await client.callTool({ name: 'add', arguments: { a: 2, b: 2 }, _meta: meta })) as never;
        await client.close();
      } else {
        const client = new V2Client(
          { name: 'down', version: '1.0.0' },
          { versionNegotiation: { mode: { pin: '2026-07-28' } } },
        );
        await client.connect(new V2HttpTransport(new URL(proxied.url)));
        result = (await client.callTool({ name: 'add', arguments: { a: 2, b: 2 }, _meta: meta })) as never;
        await client.close();
      }
      assert.deepEqual(result.content, [{ type: 'text', text: '4' }]);
      const spans = takeSpans();
      assert.deepEqual(
        spans.filter((span) => span.spanContext().traceId !== TRACE_ID).map((span) => span.name),
        [],
        'every span of the call is in the client trace',
      );
      const childOf = (parent: string, name: string, kind: SpanKind): ReadableSpan =>
        one(
          spans.filter((span) => span.parentSpanContext?.spanId === parent),
          name,
          kind,
        );
      const proxyServer = childOf(CLIENT_SPAN, 'tools/call add', SpanKind.SERVER);
      const proxyTool = childOf(proxyServer.spanContext().spanId, 'execute_tool add', SpanKind.INTERNAL);
      const upstreamClient = childOf(proxyTool.spanContext().spanId, 'tools/call add', SpanKind.CLIENT);
      const upstreamServer = childOf(upstreamClient.spanContext().spanId, 'tools/call add', SpanKind.SERVER);
      const upstreamTool = childOf(upstreamServer.spanContext().spanId, 'execute_tool add', SpanKind.INTERNAL);
      assert.equal(upstreamServer.parentSpanContext?.isRemote, true);
      assert.deepEqual(upstreamClient.attributes, {
        'mcp.method.name': 'tools/call',
        'gen_ai.tool.name': 'add',
        'gen_ai.operation.name': 'execute_tool',
        'toolwright.upstream': 'math',
        'toolwright.outcome': 'ok',
      });
      assert.equal(upstreamServer.attributes['toolwright.era'], 'modern', "the proxy's own upstream client is 2.x");
      assert.equal(upstreamTool.attributes['toolwright.outcome'], 'ok');
      assert.equal(spans.length, 5);
    });
  });
}

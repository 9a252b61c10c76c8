import 'reflect-metadata';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { context, propagation, trace, SpanKind } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport } from '@modelcontextprotocol/client';
import { ToolwrightModule } from '../src/nest/index.js';
import { Greeter, GreetTool } from './support/nest-greet.js';

/*
 * The Nest module end to end with the real OpenTelemetry SDK: a Nest application over HTTP
 * (Express), a 2025-era and a 2026-era client sending `traceparent` in `_meta`; the module's
 * request span continues the client's trace and the injected tool's call span is its child. A
 * bad `telemetry` module option fails the module's options check.
 */

const exporter = new InMemorySpanExporter();
trace.setGlobalTracerProvider(new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] }));
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
propagation.setGlobalPropagator(new W3CTraceContextPropagator());

@Module({
  imports: [ToolwrightModule.forRoot({ name: 'nest-otel', version: '1.0.0', transport: 'http' })],
  providers: [Greeter, GreetTool],
})
class AppModule {}

const TRACE_ID = '5af7651916cd43dd8448eb211c80319c';
const PARENT = 'c7ad6b7169203331';

test(
  'a Nest application traces each request and call in the client trace, in both eras',
  { timeout: 60_000 },
  async () => {
    const app = await NestFactory.create(AppModule, { logger: false });
    await app.listen(0, '127.0.0.1');
    const url = new URL(`http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}/mcp`);
    try {
      for (const era of ['2025-11-25', '2026-07-28'] as const) {
        exporter.reset();
        const client = new V2Client(
          { name: 'nest-otel', version: '1.0.0' },
          era === '2026-07-28' ? { versionNegotiation: { mode: { pin: era } } } : {},
        );
        await client.connect(new V2HttpTransport(url));
        const result = await client.callTool({
          name: 'greet',
          arguments: { name: 'Ada' },
          _meta: { traceparent: `00-${TRACE_ID}-${PARENT}-01` },
        });
        await client.close();
        assert.deepEqual(result.content, [{ type: 'text', text: 'Hello, Ada!' }]);
        const spans = exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === TRACE_ID);
        const server = spans.find((span) => span.name === 'tools/call greet');
        const tool = spans.find((span) => span.name === 'execute_tool greet');
        assert.equal(server?.kind, SpanKind.SERVER, era);
        assert.equal(server.parentSpanContext?.spanId, PARENT);
        assert.equal(server.attributes['toolwright.era'], era === '2026-07-28' ? 'modern' : 'legacy');
        assert.equal(tool?.parentSpanContext?.spanId, server.spanContext().spanId);
        assert.equal(tool.attributes['toolwright.outcome'], 'ok');
      }
    } finally {
      await app.close();
    }
  },
);

test('a bad telemetry module option is refused by name', () => {
  assert.throws(
    () =>
      ToolwrightModule.forRoot({
        name: 'x',
        version: '1',
        transport: 'http',
        telemetry: { recordArgs: true } as never,
      }),
    {
      message:
        'ToolwrightModule: unknown option "telemetry.recordArgs" (known options: recordArguments, recordResults)',
    },
  );
});

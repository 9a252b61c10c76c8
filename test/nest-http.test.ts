import 'reflect-metadata';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Inject, Injectable, Module, Scope, type INestApplication } from '@nestjs/common';
import { NestFactory, REQUEST } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Tool, type CallContext } from '../src/index.js';
import { ToolwrightModule, toolCallOf } from '../src/nest/index.js';
import { httpClient } from './support/nest-sample.js';
import { rawRequest } from './support/transport-http-probe.js';

/**
 * ToolwrightModule on an HTTP application in this process (Express and Fastify adapters), at a
 * path of its own: the framework request reaches the tool's CallContext and a request-scoped
 * tool's `REQUEST`, and the rest of the application's routes are left alone.
 */

const TIMEOUT = { timeout: 60_000 };

@Injectable({ scope: Scope.REQUEST })
@Tool({ name: 'trace', description: 'Report the trace header of the HTTP request', args: undefined })
class TraceTool {
  constructor(@Inject(REQUEST) private readonly request: { headers: Record<string, string | undefined> }) {}

  execute(_args: object, ctx: CallContext): string {
    const fromContext = toolCallOf(ctx)?.request as { headers: Record<string, string | undefined> } | undefined;
    return `REQUEST says ${this.request.headers['x-trace']}, the call context says ${fromContext?.headers['x-trace']}, same object: ${fromContext === this.request}`;
  }
}

@Module({ providers: [TraceTool] })
class TraceModule {}

@Module({
  imports: [
    TraceModule,
    ToolwrightModule.forRoot({ name: 'nest-http', version: '1.0.0', transport: 'http', path: '/tools/mcp' }),
  ],
})
class AppModule {}

for (const adapter of ['express', 'fastify'] as const) {
  test(
    `on ${adapter}, at a path of its own, the HTTP request is the call's request and a request-scoped tool's REQUEST`,
    TIMEOUT,
    async () => {
      const app: INestApplication =
        adapter === 'fastify'
          ? await NestFactory.create(AppModule, new FastifyAdapter(), { logger: false })
          : await NestFactory.create(AppModule, { logger: false });
      await app.listen(0, '127.0.0.1');
      const port = (app.getHttpServer().address() as { port: number }).port;
      const client = await httpClient(new URL(`http://127.0.0.1:${port}/tools/mcp`), { 'x-trace': 'trace-42' });
      try {
        assert.deepEqual(await client.callTool({ name: 'trace', arguments: {} }), {
          content: [{ type: 'text', text: 'REQUEST says trace-42, the call context says trace-42, same object: true' }],
        });
        const elsewhere = await rawRequest(port, { method: 'GET', path: '/mcp' });
        assert.equal(elsewhere.status, 404);
        assert.equal(JSON.parse(elsewhere.text).statusCode, 404, 'answered by the application, not by the MCP handler');
      } finally {
        await client.close();
        await app.close();
      }
    },
  );
}

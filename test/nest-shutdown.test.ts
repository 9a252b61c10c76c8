import 'reflect-metadata';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Injectable, Module, type DynamicModule, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Tool } from '../src/index.js';
import type { Interceptor } from '../src/runtime/index.js';
import {
  SHUT_DOWN_MID_CALL_TEXT,
  SHUTTING_DOWN_TEXT,
  ToolwrightModule,
  ToolwrightServer,
  TOOLWRIGHT_CALL_OPTIONS,
} from '../src/nest/index.js';
import { connectEraClient, type EraClient } from './support/nest-era-clients.js';
import { until } from './support/server-harness.js';
import { callWhileInterrupting, NEST_ESM_MAIN, stdioClient } from './support/nest-sample.js';
import { textResult as text } from './support/text.js';

/**
 * Shutting a Nest HTTP application down while calls are in flight, for a 2025-11-25 session (SDK
 * 1.x client) and a 2026-07-28 stateless client (SDK 2.x), on Express and Fastify: a call that
 * finishes within `shutdownTimeoutMs` is answered even when its answer takes long to leave after
 * its tool settled (the shutdown waits for the answer to be written, not for a fixed grace), a
 * call still running at the deadline is answered with a clear error, and a call arriving during
 * the shutdown is refused; none is left without an answer. Over stdio (the ESM sample as a child
 * process, SIGTERM), a call still running at the deadline is answered the same way. About 14 s.
 */

const TIMEOUT = { timeout: 60_000 };

/** What the tools of one application share with the test. */
class Calls {
  started = 0;
  private releaseAll!: () => void;
  readonly released = new Promise<void>((resolve) => (this.releaseAll = resolve));
  release(): void {
    this.releaseAll();
  }
}

/**
 * An application whose `slow` tool waits for the test's release, whose `stuck` tool never settles,
 * and whose answers leave 600 ms after the tool settled.
 */
function appModule(calls: Calls, shutdownTimeoutMs: number): DynamicModule {
  @Injectable()
  @Tool({ name: 'slow', description: 'Waits for the test', args: undefined })
  class SlowTool {
    async execute(): Promise<string> {
      calls.started++;
      await calls.released;
      return 'done';
    }
  }
  @Injectable()
  @Tool({ name: 'stuck', description: 'Never finishes, and ignores its signal', args: undefined })
  class StuckTool {
    execute(): Promise<string> {
      calls.started++;
      return new Promise(() => {});
    }
  }
  // The call core runs it after the tool settled: the answer is written 600 ms later.
  const lateAnswers: Interceptor = {
    name: 'late',
    after: async () => void (await new Promise((resolve) => setTimeout(resolve, 600))),
  };
  @Module({
    providers: [SlowTool, StuckTool, { provide: TOOLWRIGHT_CALL_OPTIONS, useValue: { interceptors: [lateAnswers] } }],
  })
  class ToolsModule {}
  return {
    module: class ShutdownApp {},
    imports: [
      ToolsModule,
      ToolwrightModule.forRoot({ name: 'nest-shutdown', version: '1.0.0', transport: 'http', shutdownTimeoutMs }),
    ],
  };
}

async function listening(
  adapter: 'express' | 'fastify',
  root: DynamicModule,
): Promise<{ app: INestApplication; url: URL }> {
  const app =
    adapter === 'fastify'
      ? await NestFactory.create(root, new FastifyAdapter(), { logger: false })
      : await NestFactory.create(root, { logger: false });
  await app.listen(0, '127.0.0.1');
  return { app, url: new URL(`http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}/mcp`) };
}

/** Settles to the result, or to the error's message, so a call left unanswered shows as a failure text. */
function outcome(call: Promise<Record<string, unknown>>): Promise<unknown> {
  return call.then(
    (result) => result,
    (error: Error) => `failed: ${error.message}`,
  );
}

for (const adapter of ['express', 'fastify'] as const) {
  test(
    `on ${adapter}, calls in flight at shutdown are answered after they finish, however late the answer leaves; a call arriving meanwhile is refused`,
    TIMEOUT,
    async () => {
      const calls = new Calls();
      const { app, url } = await listening(adapter, appModule(calls, 20_000));
      const clients: EraClient[] = [
        await connectEraClient('sdk 1.x (2025-11-25)', { url }),
        await connectEraClient('sdk 2.x (2026-07-28)', { url }),
      ];
      try {
        const inFlight = clients.map((client) => outcome(client.call('slow')));
        await until(() => calls.started === 2, 10_000);
        const closing = app.close();
        await until(() => app.get(ToolwrightServer).shuttingDown, 10_000);
        const refused = await Promise.all(clients.map((client) => outcome(client.call('slow'))));
        assert.deepEqual(refused, [text(SHUTTING_DOWN_TEXT, true), text(SHUTTING_DOWN_TEXT, true)]);
        calls.release();
        assert.deepEqual(await Promise.all(inFlight), [text('done'), text('done')]);
        await closing;
      } finally {
        calls.release();
        for (const client of clients) await client.close().catch(() => undefined);
        await app.close().catch(() => undefined);
      }
    },
  );

  test(
    `on ${adapter}, a call still running at the shutdown deadline is answered with a clear error`,
    TIMEOUT,
    async () => {
      const calls = new Calls();
      const { app, url } = await listening(adapter, appModule(calls, 300));
      const clients: EraClient[] = [
        await connectEraClient('sdk 1.x (2025-11-25)', { url }),
        await connectEraClient('sdk 2.x (2026-07-28)', { url }),
      ];
      try {
        const inFlight = clients.map((client) => outcome(client.call('stuck')));
        await until(() => calls.started === 2, 10_000);
        await app.close();
        assert.deepEqual(await Promise.all(inFlight), [
          text(SHUT_DOWN_MID_CALL_TEXT, true),
          text(SHUT_DOWN_MID_CALL_TEXT, true),
        ]);
      } finally {
        for (const client of clients) await client.close().catch(() => undefined);
      }
    },
  );
}

test(
  "over stdio, a call still running at the shutdown deadline (the sample's 5 s) is answered with a clear error before the process ends",
  TIMEOUT,
  async () => {
    const { client, transport, stderr } = await stdioClient(NEST_ESM_MAIN);
    try {
      const closed = new Promise<void>((resolve) => (client.onclose = resolve));
      const result = await callWhileInterrupting(client, 30_000, () => process.kill(transport.pid!, 'SIGTERM'));
      assert.deepEqual(result, text(SHUT_DOWN_MID_CALL_TEXT, true));
      await closed;
      assert.doesNotMatch(stderr(), /ERROR/);
    } finally {
      await client.close().catch(() => undefined);
    }
  },
);

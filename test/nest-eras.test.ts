import 'reflect-metadata';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  Inject,
  Injectable,
  Module,
  NotFoundException,
  Scope,
  UseGuards,
  type CanActivate,
  type ExecutionContext,
  type INestApplication,
} from '@nestjs/common';
import { NestFactory, REQUEST } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { IsInt } from 'class-validator';
import { Tool, type CallContext } from '../src/index.js';
import { ToolwrightModule, toolCallOf } from '../src/nest/index.js';
import { ERA_CLIENT_KINDS, connectEraClient, type EraClient } from './support/nest-era-clients.js';
import { NEST_ESM_MAIN } from './support/nest-sample.js';
import { textResult as text } from './support/text.js';
import { Greeter, GreetTool } from './support/nest-greet.js';

/**
 * Both protocol eras against the Nest module: the SDK 1.x client and the 2.x client in the
 * 2025-11-25 era (sessions), and the 2.x client pinned to 2026-07-28 (stateless requests), over
 * HTTP on an application of this process (Express and Fastify adapters) and over stdio (the ESM
 * sample as a child process). Each reaches an injected service, a request-scoped tool made per
 * call with its HTTP request, a guard using the request, an elicitation (pushed in the 2025 era,
 * an input round across per-request servers in the 2026 era) and an HttpException. About 15 s.
 */

const TIMEOUT = { timeout: 120_000 };

let wireInstances = 0;

interface HeaderRequest {
  readonly headers: Record<string, string | undefined>;
  user?: string;
}

/** Request-scoped: made for each call, with the HTTP request the call arrived on as its REQUEST. */
@Injectable({ scope: Scope.REQUEST })
@Tool({ name: 'wire', description: 'Report the HTTP request of the call', args: undefined })
class WireTool {
  private readonly id = ++wireInstances;
  constructor(@Inject(REQUEST) private readonly request: HeaderRequest) {}
  async execute(): Promise<string> {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const headers = this.request.headers;
    return JSON.stringify({
      version: headers['mcp-protocol-version'] ?? null,
      session: headers['mcp-session-id'] !== undefined,
      client: headers['x-client'],
      instance: this.id,
    });
  }
}

/** Puts the `x-user` header's user on the request, or refuses a call without one. */
@Injectable()
class UserGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<HeaderRequest | undefined>();
    const user = request?.headers['x-user'];
    if (request === undefined || user === undefined) return false;
    request.user = user;
    return true;
  }
}

@Injectable()
@Tool({ name: 'whoami', description: 'Say who calls', args: undefined })
@UseGuards(UserGuard)
class WhoAmITool {
  execute(_args: object, ctx: CallContext): string {
    return `you are ${(toolCallOf(ctx)!.request as HeaderRequest).user}`;
  }
}

@Injectable()
@Tool({ name: 'ask', description: 'Ask the user, then report the answer', args: undefined })
class AskTool {
  async execute(_args: object, ctx: CallContext): Promise<string> {
    const reply = await ctx.elicit({
      message: 'Proceed?',
      schema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] },
    });
    return `the user said ${reply.action === 'accept' ? String(reply.content?.answer) : reply.action}`;
  }
}

class OrderArgs {
  @IsInt()
  id!: number;
}

@Injectable()
@Tool({ name: 'order', description: 'Find an order', args: OrderArgs })
class OrderTool {
  execute(args: OrderArgs): string {
    throw new NotFoundException(`no order ${args.id}`);
  }
}

@Module({ providers: [Greeter, GreetTool, WireTool, UserGuard, WhoAmITool, AskTool, OrderTool] })
class ToolsModule {}

@Module({
  imports: [ToolsModule, ToolwrightModule.forRoot({ name: 'nest-eras', version: '1.0.0', transport: 'http' })],
})
class AppModule {}

for (const adapter of ['express', 'fastify'] as const) {
  test(`over HTTP on ${adapter}, every client of both eras reaches the Nest tools`, TIMEOUT, async (t) => {
    const app: INestApplication =
      adapter === 'fastify'
        ? await NestFactory.create(AppModule, new FastifyAdapter(), { logger: false })
        : await NestFactory.create(AppModule, { logger: false });
    await app.listen(0, '127.0.0.1');
    const url = new URL(`http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}/mcp`);
    try {
      for (const kind of ERA_CLIENT_KINDS) {
        await t.test(kind, async () => {
          const modern = kind === 'sdk 2.x (2026-07-28)';
          const client: EraClient = await connectEraClient(
            kind,
            { url, headers: { 'x-client': kind, 'x-user': 'Ada' } },
            (message) => `yes to ${message}`,
          );
          try {
            assert.deepEqual(await client.listToolNames(), ['greet', 'wire', 'whoami', 'ask', 'order']);
            assert.deepEqual(await client.call('greet', { name: 'Bob' }), text('Hello, Bob!'));
            assert.deepEqual(
              await client.call('greet', {}),
              text('invalid arguments: /: must have required property "name"', true),
            );
            const wires = (await Promise.all([client.call('wire'), client.call('wire')])).map(
              (result) => JSON.parse((result.content as { text: string }[])[0]!.text) as Record<string, unknown>,
            );
            assert.deepEqual(
              wires.map(({ instance: _instance, ...rest }) => rest),
              [0, 1].map(() => ({ version: modern ? '2026-07-28' : '2025-11-25', session: !modern, client: kind })),
            );
            assert.notEqual(wires[0]!.instance, wires[1]!.instance, 'two calls at once, two instances');
            assert.deepEqual(await client.call('whoami'), text('you are Ada'));
            assert.deepEqual(await client.call('ask'), text('the user said yes to Proceed?'));
            assert.deepEqual(await client.call('order', { id: 7 }), text('no order 7', true));
          } finally {
            await client.close();
          }
        });
      }
      const anonymous = await connectEraClient('sdk 2.x (2026-07-28)', { url });
      try {
        assert.deepEqual(await anonymous.call('whoami'), text('Forbidden resource', true));
      } finally {
        await anonymous.close();
      }
    } finally {
      await app.close();
    }
  });
}

test("over stdio, the 2.x client in both eras reaches the ESM sample's tools", TIMEOUT, async (t) => {
  for (const kind of ['sdk 2.x (2025-11-25)', 'sdk 2.x (2026-07-28)'] as const) {
    await t.test(kind, async () => {
      const client = await connectEraClient(kind, { command: process.execPath, args: [NEST_ESM_MAIN, '--stdio'] });
      try {
        assert.deepEqual(await client.listToolNames(), [
          'greet',
          'find_order',
          'whoami',
          'audit_log',
          'instance',
          'sleep',
        ]);
        assert.deepEqual(await client.call('greet', { name: 'Bob' }), text('Hello, Bob!'));
        assert.deepEqual(await client.call('find_order', { id: 'Z-9' }), text('no order Z-9', true));
        const [first, second] = await Promise.all([
          client.call('instance', { waitMs: 100 }),
          client.call('instance', { waitMs: 100 }),
        ]);
        assert.notDeepEqual(first, second, 'two calls at once, two instances');
        assert.deepEqual(await client.call('whoami'), text('Forbidden resource', true));
        assert.deepEqual(
          await client.call('audit_log'),
          text(['greet: ok', 'find_order: no order Z-9', 'instance: ok', 'instance: ok'].join('\n')),
        );
      } finally {
        await client.close();
      }
    });
  }
});

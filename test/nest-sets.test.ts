import 'reflect-metadata';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  Injectable,
  Module,
  UseGuards,
  type CanActivate,
  type ExecutionContext,
  type INestApplication,
} from '@nestjs/common';
import { LazyModuleLoader, NestFactory } from '@nestjs/core';
import { Tool } from '../src/index.js';
import { SetChangeError } from '../src/mcp/index.js';
import { ToolwrightModule, ToolwrightServer, toolCallOf } from '../src/nest/index.js';
import { ERA_CLIENT_KINDS } from './support/nest-era-clients.js';
import { connectSetClient, textOf } from './support/sets-clients.js';
import { until } from './support/server-harness.js';

/*
 * A Nest application changes what it serves while clients of both eras are connected over HTTP:
 * a module loaded after start (`LazyModuleLoader`) is served with `addModule` (its providers made
 * by Nest, inside its guards), and `removeModule` stops serving it; every client is told each time
 * as its era defines and lists the new set, and a removed tool is an unknown tool.
 */

@Injectable()
@Tool({ name: 'base', description: 'Served from the start' })
class BaseTool {
  execute(): string {
    return 'base';
  }
}

@Module({ providers: [BaseTool] })
class BaseModule {}

@Injectable()
class Ledger {
  total(): number {
    return 42;
  }
}

const guarded: string[] = [];

@Injectable()
class RecordingGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    guarded.push(toolCallOf(context)!.tool);
    return true;
  }
}

@Injectable()
@UseGuards(RecordingGuard)
@Tool({ name: 'report', description: 'Served once the reports module is loaded' })
class ReportTool {
  constructor(private readonly ledger: Ledger) {}
  execute(): string {
    return `total ${this.ledger.total()}`;
  }
}

@Module({ providers: [Ledger, RecordingGuard, ReportTool] })
class ReportsModule {}

@Module({})
class EmptyModule {}

test(
  'nest: a module loaded at runtime is served with addModule and stops with removeModule; clients of both eras are told and list the set',
  { timeout: 60_000 },
  async () => {
    @Module({
      imports: [BaseModule, ToolwrightModule.forRoot({ name: 'nest-sets', version: '1.0.0', transport: 'http' })],
    })
    class HttpRoot {}
    const app: INestApplication = await NestFactory.create(HttpRoot, { logger: false, abortOnError: false });
    await app.listen(0, '127.0.0.1');
    const url = new URL(`${await app.getUrl()}/mcp`.replace('[::1]', '127.0.0.1'));
    const clients = await Promise.all(ERA_CLIENT_KINDS.map((kind) => connectSetClient(kind, { url })));
    try {
      const server = app.get(ToolwrightServer);
      for (const client of clients) assert.deepEqual(await client.names(), ['base'], client.kind);

      await app.get(LazyModuleLoader).load(() => ReportsModule);
      server.addModule(ReportsModule);
      await until(() => clients.every((client) => client.told() === 1), 2000);
      for (const client of clients) {
        assert.deepEqual(await client.names(), ['base', 'report'], client.kind);
        assert.equal(textOf(await client.call('report')), 'total 42', client.kind);
      }
      assert.deepEqual(guarded, ['report', 'report', 'report']);
      assert.throws(() => server.addModule(ReportsModule), {
        name: 'SetChangeError',
        message: 'addModule: ReportsModule is served already; removeModule(ReportsModule) first',
      });
      await app.get(LazyModuleLoader).load(() => EmptyModule);
      assert.throws(() => server.addModule(EmptyModule), {
        name: 'SetChangeError',
        message:
          'addModule: EmptyModule has no @Tool, @StaticResource, @ResourceTemplate or @Prompt provider (load it with LazyModuleLoader first)',
      });

      server.removeModule(ReportsModule);
      await until(() => clients.every((client) => client.told() === 2), 2000);
      for (const client of clients) {
        assert.deepEqual(await client.names(), ['base'], client.kind);
        await assert.rejects(client.call('report'), {
          code: -32602,
          message: /^(MCP error -32602: )?Unknown tool: report$/,
        });
      }
      assert.throws(
        () => server.removeModule(ReportsModule),
        (error: unknown) => {
          assert.ok(error instanceof SetChangeError);
          assert.equal(error.message, 'removeModule: ReportsModule was not added with addModule');
          return true;
        },
      );
      // The module can be served again: Nest kept it loaded.
      server.addModule(ReportsModule);
      await until(() => clients.every((client) => client.told() === 3), 2000);
      assert.deepEqual(await clients[0]!.names(), ['base', 'report']);
    } finally {
      await Promise.all(clients.map((client) => client.close()));
      await app.close();
    }
  },
);

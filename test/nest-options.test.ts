import 'reflect-metadata';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { Inject, Injectable, Module, type LoggerService } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Tool } from '../src/index.js';
import {
  ToolwrightModule,
  ToolwrightServer,
  type ToolwrightModuleOptions,
  type ToolwrightOptionsFactory,
} from '../src/nest/index.js';
import { connect } from './support/server-harness.js';

/**
 * `ToolwrightModule.forRoot` and `forRootAsync` take what Nest's configurable modules take
 * (`useFactory`, `useClass`, `useExisting`, `isGlobal`), refuse unknown keys by name, and the
 * HTTP endpoint's URL is in Nest's start log.
 */

const TIMEOUT = { timeout: 30_000 };

@Injectable()
@Tool({ name: 'ping', description: 'Ping', args: undefined })
class PingTool {
  execute(): string {
    return 'pong';
  }
}

const SETTINGS = Symbol('settings');

@Module({ providers: [{ provide: SETTINGS, useValue: { serverName: 'from-settings' } }], exports: [SETTINGS] })
class SettingsModule {}

/** A factory class as `useClass` and `useExisting` take it: a provider whose constructor injects. */
@Injectable()
class ToolwrightConfig implements ToolwrightOptionsFactory {
  constructor(@Inject(SETTINGS) private readonly settings: { serverName: string }) {}
  createToolwrightOptions(): ToolwrightModuleOptions {
    return { name: this.settings.serverName, version: '3.0.0', transport: 'none' };
  }
}

/** The served name and version, and a call of `ping`, through an in-memory client of `root`'s server. */
async function servedBy(root: Function): Promise<{ server: unknown; called: unknown }> {
  const app = await NestFactory.createApplicationContext(root as never, { logger: false, abortOnError: false });
  const { client, close } = await connect(app.get(ToolwrightServer).createMcpServer('memory'));
  try {
    return {
      server: client.getServerVersion(),
      called: await client.callTool({ name: 'ping', arguments: {} }),
    };
  } finally {
    await close();
    await app.close();
  }
}

const PONG = { content: [{ type: 'text', text: 'pong' }] };

test(
  'forRootAsync({ useClass }) makes the factory class with its injections and asks it for the options',
  TIMEOUT,
  async () => {
    @Module({
      imports: [ToolwrightModule.forRootAsync({ imports: [SettingsModule], useClass: ToolwrightConfig })],
      providers: [PingTool],
    })
    class AppModule {}
    assert.deepEqual(await servedBy(AppModule), { server: { name: 'from-settings', version: '3.0.0' }, called: PONG });
  },
);

test('forRootAsync({ useExisting }) asks a provider of an imported module', TIMEOUT, async () => {
  @Module({ imports: [SettingsModule], providers: [ToolwrightConfig], exports: [ToolwrightConfig] })
  class ConfigModule {}
  @Module({
    imports: [ToolwrightModule.forRootAsync({ imports: [ConfigModule], useExisting: ToolwrightConfig })],
    providers: [PingTool],
  })
  class AppModule {}
  assert.deepEqual(await servedBy(AppModule), { server: { name: 'from-settings', version: '3.0.0' }, called: PONG });
});

test(
  'isGlobal makes ToolwrightServer injectable in a module that does not import ToolwrightModule',
  TIMEOUT,
  async () => {
    @Injectable()
    class Reporter {
      constructor(readonly server: ToolwrightServer) {}
    }
    @Module({ providers: [Reporter], exports: [Reporter] })
    class ReportsModule {}
    for (const toolwright of [
      ToolwrightModule.forRoot({ name: 'global', version: '1.0.0', transport: 'none', isGlobal: true }),
      ToolwrightModule.forRootAsync({
        isGlobal: true,
        useFactory: () => ({ name: 'global', version: '1.0.0', transport: 'none' as const }),
      }),
    ]) {
      @Module({ imports: [ReportsModule, toolwright], providers: [PingTool] })
      class AppModule {}
      const app = await NestFactory.createApplicationContext(AppModule, { logger: false, abortOnError: false });
      try {
        assert.deepEqual(
          app.get(Reporter).server.tools.map((tool) => tool.name),
          ['ping'],
        );
        assert.deepEqual(app.get(ToolwrightServer).info, { name: 'global', version: '1.0.0' });
      } finally {
        await app.close();
      }
    }
    // Without isGlobal, the same module cannot be made.
    @Module({
      imports: [ReportsModule, ToolwrightModule.forRoot({ name: 'local', version: '1.0.0', transport: 'none' })],
    })
    class LocalModule {}
    await assert.rejects(NestFactory.createApplicationContext(LocalModule, { logger: false, abortOnError: false }), {
      message: /Nest can't resolve dependencies of the Reporter \(\?\)/,
    });
  },
);

test('unknown option keys are refused, naming the key and the known ones', TIMEOUT, async () => {
  const KNOWN =
    'known options: name, version, instructions, transport, path, http, auth, hideForbiddenTools, cacheHints, shutdownTimeoutMs, onRecord, telemetry, inputRounds, replay, scheduling, tasks';
  assert.throws(() => ToolwrightModule.forRoot({ name: 'x', version: '1', transport: 'http', port: 3000 } as never), {
    name: 'TypeError',
    message: `ToolwrightModule: unknown option "port" (${KNOWN}, isGlobal)`,
  });
  assert.throws(
    () => ToolwrightModule.forRoot({ name: 'x', version: '1', transport: 'none', isGlobal: 'yes' } as never),
    {
      name: 'TypeError',
      message: 'ToolwrightModule: "isGlobal" must be true or false',
    },
  );
  assert.throws(() => ToolwrightModule.forRootAsync({ useValue: {} } as never), {
    name: 'TypeError',
    message:
      'ToolwrightModule.forRootAsync: unknown option "useValue" (known options: imports, inject, useFactory, useClass, useExisting, provideInjectionTokensFrom, isGlobal)',
  });
  assert.throws(() => ToolwrightModule.forRootAsync({ inject: [] }), {
    name: 'TypeError',
    message: 'ToolwrightModule.forRootAsync: give exactly one of useFactory, useClass or useExisting, got none',
  });
  assert.throws(
    () =>
      ToolwrightModule.forRootAsync({
        useClass: ToolwrightConfig,
        useFactory: () => ({ name: 'x', version: '1', transport: 'none' as const }),
      }),
    {
      name: 'TypeError',
      message:
        'ToolwrightModule.forRootAsync: give exactly one of useFactory, useClass or useExisting, got useFactory and useClass',
    },
  );
  assert.throws(() => ToolwrightModule.forRootAsync({ useClass: {} as never }), {
    name: 'TypeError',
    message: 'ToolwrightModule.forRootAsync: "useClass" must be a class',
  });

  // What the factory (or the factory class) gives is checked as forRoot's options are, at start.
  for (const toolwright of [
    ToolwrightModule.forRootAsync({
      useFactory: () => ({ name: 'x', version: '1', transport: 'none', isGlobal: true }) as never,
    }),
    ToolwrightModule.forRootAsync({
      useFactory: async () => ({ name: 'x', version: '1', transport: 'none', prot: 1 }) as never,
    }),
  ]) {
    @Module({ imports: [toolwright] })
    class AppModule {}
    await assert.rejects(NestFactory.createApplicationContext(AppModule, { logger: false, abortOnError: false }), {
      name: 'TypeError',
      message:
        /^ToolwrightModule: unknown option "(isGlobal|prot)" \(known options: name, version, instructions, transport, path, http, auth, hideForbiddenTools, cacheHints, shutdownTimeoutMs, onRecord, telemetry, inputRounds, replay, scheduling, tasks\)$/,
    });
  }
});

test("Nest's start log says where the MCP endpoint is and what it serves", TIMEOUT, async () => {
  const logged: string[] = [];
  const logger: LoggerService = {
    log: (message: unknown, context?: unknown) => void logged.push(`${String(context)}: ${String(message)}`),
    error: () => {},
    warn: () => {},
  };
  @Module({
    imports: [ToolwrightModule.forRoot({ name: 'logged', version: '1.0.0', transport: 'http', path: '/tools/mcp' })],
    providers: [PingTool],
  })
  class AppModule {}
  const app = await NestFactory.create(AppModule, { logger, abortOnError: false });
  try {
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as AddressInfo;
    assert.deepEqual(
      logged.filter((line) => line.startsWith('ToolwrightModule: ')),
      [`ToolwrightModule: MCP endpoint http://127.0.0.1:${port}/tools/mcp serves 1 tool: ping`],
    );
  } finally {
    await app.close();
  }
});

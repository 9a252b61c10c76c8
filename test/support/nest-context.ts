import assert from 'node:assert/strict';
import { Module, type DynamicModule, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ToolwrightModule, ToolwrightServer, type ToolwrightModuleOptions } from '../../src/nest/index.js';
import { connect, type Connected } from './server-harness.js';

/**
 * An application context of `root` beside `ToolwrightModule.forRoot(options)` (typically with no
 * transport), with an in-memory MCP client connected to its server; `close` ends both.
 */
export async function startedInMemory(
  root: Function | DynamicModule,
  options: ToolwrightModuleOptions,
): Promise<Connected & { app: INestApplicationContext }> {
  @Module({ imports: [root as never, ToolwrightModule.forRoot(options)] })
  class TestRoot {}
  const app = await NestFactory.createApplicationContext(TestRoot, { logger: false, abortOnError: false });
  const connected = await connect(app.get(ToolwrightServer).createMcpServer('memory'));
  return {
    ...connected,
    app,
    close: async () => {
      await connected.close();
      await app.close();
    },
  };
}

/**
 * The error an application context of `root` beside `ToolwrightModule.forRoot(options)` fails to
 * start with (fails the test when it starts).
 */
export async function startFailure(root: Function, options: ToolwrightModuleOptions): Promise<Error> {
  @Module({ imports: [root as never, ToolwrightModule.forRoot(options)] })
  class TestRoot {}
  try {
    const app = await NestFactory.createApplicationContext(TestRoot, { logger: false, abortOnError: false });
    await app.close();
  } catch (err) {
    return err as Error;
  }
  assert.fail('the application started');
}

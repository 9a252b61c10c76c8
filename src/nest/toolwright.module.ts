import { Module, type DynamicModule } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import {
  checkModuleOptions,
  TOOLWRIGHT_OPTIONS,
  type ToolwrightModuleAsyncOptions,
  type ToolwrightModuleOptions,
} from './options.js';
import { ToolwrightServer } from './toolwright-server.js';

/**
 * Serves every `@Tool` provider of a Nest application over MCP. Import it once, in the root
 * module: `ToolwrightModule.forRoot({ name, version, transport: 'http', path: '/mcp' })`, or
 * `forRootAsync({ imports, inject, useFactory })` to build the options from other providers.
 * It exports `ToolwrightServer` (the served tools, the stdio `closed` promise). See
 * `ToolwrightServer` for discovery, the transports and shutdown.
 */
@Module({})
export class ToolwrightModule {
  /** The module with fixed options; bad options throw a `TypeError` here, naming the option. */
  static forRoot(options: ToolwrightModuleOptions): DynamicModule {
    const checked = checkModuleOptions(options);
    return {
      module: ToolwrightModule,
      imports: [DiscoveryModule],
      providers: [{ provide: TOOLWRIGHT_OPTIONS, useValue: checked }, ToolwrightServer],
      exports: [ToolwrightServer],
    };
  }

  /** The module with options a factory makes from injected providers; bad options fail the application's start. */
  static forRootAsync(options: ToolwrightModuleAsyncOptions): DynamicModule {
    if (typeof options !== 'object' || options === null || typeof options.useFactory !== 'function') {
      throw new TypeError(
        'ToolwrightModule.forRootAsync: the options must be { useFactory, inject?, imports? } with a useFactory function',
      );
    }
    const factory = options.useFactory;
    return {
      module: ToolwrightModule,
      imports: [DiscoveryModule, ...(options.imports ?? [])],
      providers: [
        {
          provide: TOOLWRIGHT_OPTIONS,
          useFactory: async (...args: unknown[]) => checkModuleOptions(await factory(...args)),
          inject: options.inject ?? [],
        },
        ToolwrightServer,
      ],
      exports: [ToolwrightServer],
    };
  }
}

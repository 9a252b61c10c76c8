import { checkOptionsObject } from '../util/options.js';
import { ConfigurableModuleBuilder, Module, type DynamicModule, type FactoryProvider } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import {
  ASYNC_OPTION_KEYS,
  checkModuleOptions,
  TOOLWRIGHT_OPTIONS,
  type ToolwrightModuleAsyncOptions,
  type ToolwrightModuleOptions,
  type ToolwrightModuleRootOptions,
} from './options.js';
import { ToolwrightServer } from './toolwright-server.js';

/**
 * Nest's own configurable-module machinery: `forRoot(options)` and `forRootAsync({ useFactory |
 * useClass | useExisting, inject, imports, isGlobal })`, the options under `TOOLWRIGHT_OPTIONS`,
 * a factory class's method named `createToolwrightOptions`. Every definition imports Nest's
 * `DiscoveryModule` and provides and exports `ToolwrightServer`.
 */
const { ConfigurableModuleClass } = new ConfigurableModuleBuilder<ToolwrightModuleOptions>({
  optionsInjectionToken: TOOLWRIGHT_OPTIONS,
})
  .setClassMethodName('forRoot')
  .setFactoryMethodName('createToolwrightOptions')
  .setExtras({ isGlobal: false }, (definition, extras) => ({
    ...definition,
    global: extras.isGlobal === true,
    imports: [DiscoveryModule, ...(definition.imports ?? [])],
    providers: [...(definition.providers ?? []), ToolwrightServer],
    exports: [ToolwrightServer],
  }))
  .build();

/** The three ways `forRootAsync` can be told where the options come from. */
const SOURCES = ['useFactory', 'useClass', 'useExisting'] as const;

/**
 * Serves every `@Tool` provider of a Nest application over MCP. Import it once, in the root
 * module: `ToolwrightModule.forRoot({ name, version, transport: 'http', path: '/mcp' })`, or
 * `forRootAsync(...)` to build the options from other providers, with what Nest's configurable
 * modules take (`useFactory` and `inject`, `useClass` or `useExisting` naming a
 * `ToolwrightOptionsFactory`, `imports`, `isGlobal`). Unknown option keys are refused with a
 * `TypeError` naming the key and the known ones. It exports `ToolwrightServer` (the served
 * tools, the stdio `closed` promise). See `ToolwrightServer` for discovery, the transports and
 * shutdown.
 */
@Module({})
export class ToolwrightModule extends ConfigurableModuleClass {
  /** The module with fixed options; bad options throw a `TypeError` here, naming the option. */
  static override forRoot(options: ToolwrightModuleRootOptions): DynamicModule {
    checkModuleOptions(options, ['isGlobal']);
    if (options.isGlobal !== undefined && typeof options.isGlobal !== 'boolean')
      throw new TypeError('ToolwrightModule: "isGlobal" must be true or false');
    return super.forRoot(options);
  }

  /**
   * The module with options that `useFactory`, `useClass` or `useExisting` gives once the
   * providers it needs exist. The asynchronous options themselves are checked here (a
   * `TypeError` naming an unknown key, or a missing or second source); the options they give
   * are checked as `forRoot`'s are, and bad ones fail the application's start.
   */
  static override forRootAsync(options: ToolwrightModuleAsyncOptions): DynamicModule {
    const where = 'ToolwrightModule.forRootAsync';
    if (typeof options !== 'object' || options === null)
      throw new TypeError(
        `${where}: the options must be an object { useFactory, inject?, imports? }, { useClass } or { useExisting }`,
      );
    checkOptionsObject(where, options, ASYNC_OPTION_KEYS);
    const sources = SOURCES.filter((key) => options[key] !== undefined);
    if (sources.length !== 1)
      throw new TypeError(
        `${where}: give exactly one of useFactory, useClass or useExisting, got ${sources.length === 0 ? 'none' : sources.join(' and ')}`,
      );
    const source = sources[0]!;
    if (typeof options[source] !== 'function')
      throw new TypeError(`${where}: "${source}" must be a ${source === 'useFactory' ? 'function' : 'class'}`);
    if (options.isGlobal !== undefined && typeof options.isGlobal !== 'boolean')
      throw new TypeError(`${where}: "isGlobal" must be true or false`);
    const definition = super.forRootAsync(options);
    return { ...definition, providers: (definition.providers ?? []).map(checkedOptionsProvider) };
  }
}

/**
 * The options provider of a `forRootAsync` definition, its result checked as `forRoot`'s options
 * are; any other provider as it is.
 */
function checkedOptionsProvider(
  provider: NonNullable<DynamicModule['providers']>[number],
): NonNullable<DynamicModule['providers']>[number] {
  if (typeof provider !== 'object' || provider === null || !('provide' in provider)) return provider;
  if (provider.provide !== TOOLWRIGHT_OPTIONS || !('useFactory' in provider)) return provider;
  const make = (provider as FactoryProvider).useFactory;
  return { ...provider, useFactory: async (...args: unknown[]) => checkModuleOptions(await make(...args)) };
}

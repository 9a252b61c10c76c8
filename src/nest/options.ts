import type { ModuleMetadata, InjectionToken, OptionalFactoryDependency } from '@nestjs/common';
import type { HttpHandlerOptions } from '../mcp/index.js';

/** How `ToolwrightModule` serves the tools it found. */
export type ToolwrightTransport = 'stdio' | 'http' | 'none';

/** The options of `ToolwrightModule.forRoot` (and what `forRootAsync`'s factory returns). */
export interface ToolwrightModuleOptions {
  /** The server's name, sent at `initialize`. */
  readonly name: string;
  /** The server's version, sent at `initialize`. */
  readonly version: string;
  /** Shown to the client's model as the server's instructions. */
  readonly instructions?: string;
  /**
   * `'http'`: streamable HTTP mounted on the application's own HTTP server (Express or Fastify
   * adapter) at `path`; `'stdio'`: newline-delimited JSON-RPC on the process's stdin and stdout,
   * for a standalone application context (`NestFactory.createApplicationContext`); `'none'`:
   * nothing is served by the module, and the application connects servers from
   * `ToolwrightServer.createMcpServer()` to transports of its own (in-memory tests, a custom transport).
   */
  readonly transport: ToolwrightTransport;
  /** The HTTP endpoint path (`'http'` only). Default `/mcp`. */
  readonly path?: string;
  /** Further options of the HTTP handler (`'http'` only): allowed hosts and origins, body limit, stateless, session idle time. */
  readonly http?: Omit<HttpHandlerOptions, 'path'>;
  /** How long the application's shutdown waits for tool calls in flight before aborting them. Default 5000 ms. */
  readonly shutdownTimeoutMs?: number;
}

/** The options of `ToolwrightModule.forRootAsync`: a factory Nest calls with its `inject`ed providers. */
export interface ToolwrightModuleAsyncOptions {
  /** Modules whose exported providers the factory injects. */
  readonly imports?: ModuleMetadata['imports'];
  /** The providers handed to `useFactory`, in order. */
  readonly inject?: (InjectionToken | OptionalFactoryDependency)[];
  /** Returns the module's options (or a Promise of them). */
  readonly useFactory: (...args: any[]) => ToolwrightModuleOptions | Promise<ToolwrightModuleOptions>;
}

/** The injection token of the module's resolved options. */
export const TOOLWRIGHT_OPTIONS = Symbol.for('toolwright/nest/options');

/**
 * Provide a `PermissionPolicy` (see `createPolicy`) under this token, in any module, and every
 * served tool runs under it (`withPolicy`). Without one, tools with `@Requires` are denied.
 */
export const TOOLWRIGHT_POLICY = Symbol.for('toolwright/nest/policy');

/**
 * Provide `{ maxOutputChars }` under this token, in any module, to bound the result of every tool
 * that states no `@MaxOutput` of its own (see `ServerOptions.maxOutputChars`).
 */
export const TOOLWRIGHT_OUTPUT_LIMITS = Symbol.for('toolwright/nest/output-limits');

/**
 * Provide compile options (`CompileOptions` without `resolve`, which the module owns: today
 * `{ maxDepth }`) under this token, in any module, and every discovered tool is compiled with
 * them. Bad options fail the application's start with `compile`'s `TypeError`.
 */
export const TOOLWRIGHT_COMPILE_OPTIONS = Symbol.for('toolwright/nest/compile-options');

/** What may be provided under `TOOLWRIGHT_OUTPUT_LIMITS`. */
export interface ToolwrightOutputLimits {
  readonly maxOutputChars?: number;
}

/** Default HTTP endpoint path. */
export const DEFAULT_MCP_PATH = '/mcp';

/**
 * Checks the module's options and throws a `TypeError` naming the first bad one: `name` and
 * `version` must be non-empty strings, `transport` `'stdio'`, `'http'` or `'none'`, `path` a string
 * beginning with `/`.
 */
export function checkModuleOptions(options: unknown): ToolwrightModuleOptions {
  const where = 'ToolwrightModule';
  if (typeof options !== 'object' || options === null) throw new TypeError(`${where}: the options must be an object { name, version, transport }, got ${options === null ? 'null' : typeof options}`);
  const given = options as Partial<ToolwrightModuleOptions>;
  if (typeof given.name !== 'string' || given.name === '') throw new TypeError(`${where}: "name" must be a non-empty string (the server's name)`);
  if (typeof given.version !== 'string' || given.version === '') throw new TypeError(`${where}: "version" must be a non-empty string (the server's version)`);
  if (given.transport !== 'stdio' && given.transport !== 'http' && given.transport !== 'none') throw new TypeError(`${where}: "transport" must be 'stdio', 'http' or 'none', got ${JSON.stringify(given.transport) ?? 'undefined'}`);
  if (given.path !== undefined && (typeof given.path !== 'string' || !given.path.startsWith('/'))) {
    throw new TypeError(`${where}: "path" must be a path beginning with "/", got ${JSON.stringify(given.path)}`);
  }
  if (given.instructions !== undefined && typeof given.instructions !== 'string') throw new TypeError(`${where}: "instructions" must be a string`);
  return given as ToolwrightModuleOptions;
}

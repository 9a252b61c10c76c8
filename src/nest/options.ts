import type { ModuleMetadata, InjectionToken, OptionalFactoryDependency, Provider, Type } from '@nestjs/common';
import type { AuthOptions, CacheHints, HttpHandlerOptions, ServerOptions, TaskOptions } from '../mcp/index.js';
import type { CallCoreOptions } from '../runtime/index.js';
import { checkTelemetryOption } from '../runtime/internal.js';
import { checkOptionsObject, optionKeys } from '../util/options.js';

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
  /**
   * Further options of the HTTP handler (`'http'` only): allowed hosts and origins, body limit,
   * stateless, session idle time.
   */
  readonly http?: Omit<HttpHandlerOptions, 'path' | 'auth'>;
  /**
   * Makes the HTTP endpoint an OAuth 2.1 resource server (`'http'` only), exactly as `serveHttp`'s
   * `auth` option does (see `AuthOptions` and `createAuthGate`): every request needs a valid
   * bearer token (401 and 403 with `WWW-Authenticate`, OAuth JSON bodies), the protected resource
   * metadata is served on the application's HTTP server at `/.well-known/oauth-protected-resource`
   * and its path-suffixed form, every call's context carries `ctx.principal` (guards read it as
   * `toolCallOf(context).context.principal`), sessions are bound to the principal that opened
   * them, and each tool's `@Scopes` are checked before it runs. `resource` defaults to the URL
   * the application listens on (`http://<address>:<port><path>`, a wildcard address shown as
   * `127.0.0.1`); set it to the public URL clients use. `toolScopes` defaults to the served
   * tools' scopes.
   */
  readonly auth?: AuthOptions;
  /**
   * With `auth`: `tools/list` leaves out the tools whose `@Scopes` the caller's token lacks.
   * Default `false` (every tool is listed, and a call without the scopes is refused).
   */
  readonly hideForbiddenTools?: boolean;
  /**
   * The caching hints of the list and read results in the 2026-07-28 era (see `CacheHints`;
   * default `ttlMs` 0, each result's scope by what it is). Checked when the module starts.
   */
  readonly cacheHints?: CacheHints;
  /**
   * How long the application's shutdown waits for tool calls in flight (default 5000 ms). A call
   * still running then is answered `SHUT_DOWN_MID_CALL_TEXT` (`the server shut down before the
   * call finished; it may or may not have taken effect`, an `isError` result), and its signal is
   * aborted when the transport closes.
   */
  readonly shutdownTimeoutMs?: number;
  /**
   * How the calls of `@TaskSupport` tools run as MCP tasks: the task store (in memory by default,
   * `RedisTaskStore` for several processes) and `drainMs`, how long the shutdown waits for running
   * tasks (after the calls in flight) before it ends them `failed` ("the server stopped before the
   * task finished"); default 5000 ms. See `TaskOptions`.
   */
  readonly tasks?: TaskOptions;
  /**
   * Told every record of every served call, in order, as the call core learns of it (each
   * `ctx.writeRecord` as it is written, then the returned and the permissions record), exactly
   * as the call core's `onRecord` option says (see `CallCoreOptions.onRecord`). The same hook may
   * come from `TOOLWRIGHT_CALL_OPTIONS` instead; given by both, the application's start fails.
   */
  readonly onRecord?: CallCoreOptions['onRecord'];
  /**
   * The 2026-07-28 era's input rounds, as `serveHttp`'s `inputRounds` (see `InputRoundOptions`):
   * `nodeId` (in front of every `requestState` this process mints, and, over HTTP, of every
   * session id unless `http.nodeId` says otherwise) and `relay` (a `redisRelayBus`, so a retry
   * that reaches another process of the cluster is relayed to this one). With a relay, the module
   * listens on it before the application serves, and the application's start fails when it
   * cannot. See docs/cluster.md.
   */
  readonly inputRounds?: ServerOptions['inputRounds'];
  /** Where keyed calls are deduplicated, as `serveHttp`'s `replay` (a `RedisReplayStore` for a cluster). */
  readonly replay?: ServerOptions['replay'];
  /**
   * How calls are scheduled by their claims, as `serveHttp`'s `scheduling` (with a
   * `RedisSchedulingStore` as `store`, `@Resource`, `@Sequential` and `@Barrier` hold across the
   * processes).
   */
  readonly scheduling?: ServerOptions['scheduling'];
  /**
   * OpenTelemetry for the module's requests and calls (see `CallCoreOptions.telemetry` and
   * docs/observability.md): on by default whenever a tracer or meter provider is registered, and
   * free without one; `{ recordArguments, recordResults }` opts in to values on the spans,
   * `false` switches it off. The same option may come from `TOOLWRIGHT_CALL_OPTIONS` instead;
   * given by both, the application's start fails.
   */
  readonly telemetry?: CallCoreOptions['telemetry'];
}

/**
 * The options of `ToolwrightModule.forRoot`: the module's options, and `isGlobal`, which makes
 * the module global (`ToolwrightServer` injectable in every module without importing it).
 */
export interface ToolwrightModuleRootOptions extends ToolwrightModuleOptions {
  /** Registers the module as global. Default `false`. */
  readonly isGlobal?: boolean;
}

/**
 * A class `forRootAsync({ useClass })` or `forRootAsync({ useExisting })` asks for the module's
 * options, as Nest's configurable modules do (`TypeOrmOptionsFactory.createTypeOrmOptions` and
 * the like). It is a provider, so its constructor may inject others.
 */
export interface ToolwrightOptionsFactory {
  /** Returns the module's options (or a Promise of them); they are checked as `forRoot`'s are. */
  createToolwrightOptions(): ToolwrightModuleOptions | Promise<ToolwrightModuleOptions>;
}

/**
 * The options of `ToolwrightModule.forRootAsync`, made by Nest's `ConfigurableModuleBuilder`:
 * exactly one of `useFactory` (with `inject`), `useClass` or `useExisting` gives the module's
 * options once the providers they need exist.
 */
export interface ToolwrightModuleAsyncOptions {
  /** Modules whose exported providers `useFactory`, `useClass` or `useExisting` need. */
  readonly imports?: ModuleMetadata['imports'];
  /** The providers handed to `useFactory`, in order. */
  readonly inject?: (InjectionToken | OptionalFactoryDependency)[];
  /** Returns the module's options (or a Promise of them). */
  readonly useFactory?: (...args: any[]) => ToolwrightModuleOptions | Promise<ToolwrightModuleOptions>;
  /** A class the module registers as a provider of its own and asks for the options. */
  readonly useClass?: Type<ToolwrightOptionsFactory>;
  /** A provider already in scope (through `imports`) that the module asks for the options. */
  readonly useExisting?: Type<ToolwrightOptionsFactory>;
  /** Providers that `inject` names, made available to `useFactory` (as Nest's configurable modules take them). */
  readonly provideInjectionTokensFrom?: Provider[];
  /** Registers the module as global. Default `false`. */
  readonly isGlobal?: boolean;
}

/** The injection token of the module's resolved options. */
export const TOOLWRIGHT_OPTIONS = Symbol.for('toolwright/nest/options');

/**
 * Provide a `PermissionPolicy` (see `createPolicy`) under this token, in any module, and every
 * served tool's calls run under it (the call core's `policy` option). Without one, tools with
 * `@Requires` are denied.
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

/**
 * Provide the call core's options (`CallCoreOptions`: `policy`, `interceptors`, `timeoutMs`,
 * `maxOutputChars`, `validator`, `log`) under this token, in any module (a `useFactory` may inject
 * other providers), and every served tool's calls run with them, exactly as with the same
 * options on `serveHttp` or `Executor`. A member also given by `TOOLWRIGHT_POLICY`,
 * `TOOLWRIGHT_OUTPUT_LIMITS` or `TOOLWRIGHT_VALIDATOR` fails the application's start, naming both
 * tokens; a bad member fails it with the call core's `TypeError`.
 */
export const TOOLWRIGHT_CALL_OPTIONS = Symbol.for('toolwright/nest/call-options');

/**
 * Provide a `SchemaValidator` (an Ajv 2020 instance such as `createValidator()`'s, with your own
 * formats or keywords) under this token, in any module, and every discovered tool's argument and
 * output schemas are compiled with it (`compile`'s and the call core's `validator` option).
 */
export const TOOLWRIGHT_VALIDATOR = Symbol.for('toolwright/nest/validator');

/** What may be provided under `TOOLWRIGHT_CALL_OPTIONS`. */
export type ToolwrightCallOptions = CallCoreOptions;

/** What may be provided under `TOOLWRIGHT_OUTPUT_LIMITS`. */
export interface ToolwrightOutputLimits {
  readonly maxOutputChars?: number;
}

/** Default HTTP endpoint path. */
export const DEFAULT_MCP_PATH = '/mcp';

/** Every key of `ToolwrightModuleOptions`, in the order the error message lists them. */
const MODULE_OPTION_KEYS = optionKeys<ToolwrightModuleOptions>()(
  'name',
  'version',
  'instructions',
  'transport',
  'path',
  'http',
  'auth',
  'hideForbiddenTools',
  'cacheHints',
  'shutdownTimeoutMs',
  'onRecord',
  'telemetry',
  'inputRounds',
  'replay',
  'scheduling',
  'tasks',
);

/** Every key of `ToolwrightModuleAsyncOptions`, in the order the error message lists them. */
export const ASYNC_OPTION_KEYS = optionKeys<ToolwrightModuleAsyncOptions>()(
  'imports',
  'inject',
  'useFactory',
  'useClass',
  'useExisting',
  'provideInjectionTokensFrom',
  'isGlobal',
);

/**
 * Checks the module's options and throws a `TypeError` naming the first bad one: an unknown key
 * (`ToolwrightModule: unknown option "port" (known options: name, version, ...)`; `also` lists
 * keys the caller accepts besides, such as `forRoot`'s `isGlobal`), `name` and `version` must be
 * non-empty strings, `transport` `'stdio'`, `'http'` or `'none'`, `path` a string beginning with
 * `/`, `auth` an object and only with transport `'http'` (its members are checked by
 * `createAuthGate` when the module starts), `hideForbiddenTools` a boolean.
 */
export function checkModuleOptions(options: unknown, also: readonly string[] = []): ToolwrightModuleOptions {
  const where = 'ToolwrightModule';
  if (typeof options !== 'object' || options === null)
    throw new TypeError(
      `${where}: the options must be an object { name, version, transport }, got ${options === null ? 'null' : typeof options}`,
    );
  checkOptionsObject(where, options, [...MODULE_OPTION_KEYS, ...also]);
  const given = options as Partial<ToolwrightModuleOptions>;
  if (typeof given.name !== 'string' || given.name === '')
    throw new TypeError(`${where}: "name" must be a non-empty string (the server's name)`);
  if (typeof given.version !== 'string' || given.version === '')
    throw new TypeError(`${where}: "version" must be a non-empty string (the server's version)`);
  if (given.transport !== 'stdio' && given.transport !== 'http' && given.transport !== 'none')
    throw new TypeError(
      `${where}: "transport" must be 'stdio', 'http' or 'none', got ${JSON.stringify(given.transport) ?? 'undefined'}`,
    );
  if (given.path !== undefined && (typeof given.path !== 'string' || !given.path.startsWith('/'))) {
    throw new TypeError(`${where}: "path" must be a path beginning with "/", got ${JSON.stringify(given.path)}`);
  }
  if (given.instructions !== undefined && typeof given.instructions !== 'string')
    throw new TypeError(`${where}: "instructions" must be a string`);
  if (given.auth !== undefined) {
    if (typeof given.auth !== 'object' || given.auth === null)
      throw new TypeError(`${where}: "auth" must be an object { verifier, issuer, ... } (see AuthOptions)`);
    if (given.transport !== 'http')
      throw new TypeError(`${where}: "auth" needs transport 'http' (over stdio a local process trusts its parent)`);
  }
  if (given.hideForbiddenTools !== undefined && typeof given.hideForbiddenTools !== 'boolean')
    throw new TypeError(`${where}: "hideForbiddenTools" must be true or false`);
  if (given.onRecord !== undefined && typeof given.onRecord !== 'function')
    throw new TypeError(`${where}: "onRecord" must be a function (record, call) => void`);
  for (const key of ['inputRounds', 'replay'] as const) {
    const value = given[key];
    if (value !== undefined && (typeof value !== 'object' || value === null || Array.isArray(value)))
      throw new TypeError(
        `${where}: "${key}" must be an object (${key === 'replay' ? 'a replay store' : 'see InputRoundOptions'}), got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`,
      );
  }
  checkTelemetryOption(given.telemetry, where);
  return given as ToolwrightModuleOptions;
}

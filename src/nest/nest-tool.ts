import { ContextIdFactory, ModuleRef, type ExternalContextCreator } from '@nestjs/core';
import type { ContextId, InstanceWrapper } from '@nestjs/core/injector/instance-wrapper.js';
import { compile, type CompileOptions } from '../compiler/index.js';
import { BadRequestException } from '@nestjs/common';
import { InvalidArgumentsError, type CallContext, type ContractTool, type ToolOutput } from '../contract/index.js';
import { contextWith } from '../runtime/internal.js';
import { errorText } from '../util/describe.js';
import type { DiscoveredTool } from './discover.js';
import { mappedFailure, settled } from './exceptions.js';
import {
  httpRequestStore,
  rememberCall,
  TOOL_CALL_CONTEXT_TYPE,
  type NestToolCall,
  type ToolCallArgs,
} from './tool-call.js';

/** What `nestTools` needs from the application. */
export interface NestToolsContext {
  /** Runs a handler inside the guards, interceptors and exception filters that apply to it. */
  readonly contextCreator: ExternalContextCreator;
  /** The root module's `ModuleRef` (used when a provider's own module has none). */
  readonly moduleRef: ModuleRef;
  /** Options for `compile` (everything but `resolve` and `resolveForCall`, which the module owns). */
  readonly compileOptions?: Omit<CompileOptions, 'resolve' | 'resolveForCall'>;
  /** The request-scoped or transient global enhancers (see `scopedGlobalEnhancers`), made for each call. */
  readonly scopedGlobals?: readonly InstanceWrapper[];
}

const ENHANCERS = Object.freeze({ guards: true, interceptors: true, filters: true });

/** A handler made by `ExternalContextCreator.create` for a tool call. */
type EnhancedHandler = (...args: ToolCallArgs) => Promise<unknown>;

/**
 * The Nest context of one call of a per-call tool: its context id, with the call's request
 * registered as its `REQUEST`.
 */
interface CallScope {
  readonly contextId: ContextId;
}

/** The scope of each running call of a per-call tool, by the context its compiled pipeline receives. */
const callScopes = new WeakMap<CallContext, CallScope>();

/**
 * Turns discovered `@Tool` providers into contract tools served the Nest way. They are compiled
 * once, together, with `compile` and `context.compileOptions` (so their schemas, validation,
 * claims and result handling are exactly those of the plain server): a static provider with the
 * instance Nest built; a request-scoped or transient one (or one depending on such a provider)
 * with `compile`'s per-call resolution (`resolveForCall`), which asks Nest for the instance of
 * each call (`ModuleRef.resolve` in the provider's own module, under the call's context id, whose
 * `REQUEST` is the call's HTTP request, or the call itself over stdio) right before the class's
 * `execute` or `@Facts` method runs: after the guards let the call through and the arguments
 * were validated, so a refused or invalid call never makes an instance. Two calls at once get
 * two instances; a static provider's one instance serves every call.
 *
 * A served tool's `execute(raw, ctx)` runs, in order: the guards (global, class and
 * `execute`-method `@UseGuards`; one that refuses gives `Forbidden resource`); the interceptors;
 * the compiled pipeline (argument validation, the instance for the call, the class's `execute`,
 * the result); and, when anything throws, the exception filters (`@UseFilters`, global), whose
 * return value becomes the tool's output. A failure no filter answered is mapped by
 * `mappedFailure`. Request-scoped or transient global enhancers (`APP_GUARD`, ...) are made for
 * each call's context id before its handler is built, as Nest makes them for each HTTP request
 * (so such a guard is never skipped). Per-call providers whose own guards, interceptors or filters are request-scoped
 * or transient are resolved before the guards run instead (as Nest resolves a request-scoped
 * controller before its guards), since Nest makes those enhancers together with their host; the
 * compiled pipeline then receives that same instance. The context the tool receives is a copy of
 * the host's, from which `toolCallOf(ctx)` reads the call (tool name, arguments, session, HTTP
 * request). `facts(raw, ctx)` runs outside the enhancers, on an instance resolved the same way
 * for a per-call provider. `close()` is kept for a static provider only (a per-call instance is
 * never closed by toolwright).
 *
 * Throws the `ContractError` of `compile` when a class is not a valid tool.
 */
export function nestTools(discovered: readonly DiscoveredTool[], context: NestToolsContext): ContractTool[] {
  const compileOptions = { ...context.compileOptions } as CompileOptions;
  if ('resolve' in compileOptions || 'resolveForCall' in compileOptions) {
    throw new TypeError(
      'ToolwrightModule: the compile options must not set "resolve" or "resolveForCall": the module makes the instances through Nest',
    );
  }
  const resolvers = new Map<Function, (ctx: CallContext) => Promise<object>>();
  for (const tool of discovered) if (tool.perCall) resolvers.set(tool.cls, perCallResolver(tool, context));
  const resolveForCall = (cls: Function, ctx: CallContext): Promise<object> => resolvers.get(cls)!(ctx);
  const compiled = compile(
    discovered.map((tool) => (tool.perCall ? tool.cls : tool.instance!)),
    { ...compileOptions, resolveForCall },
  );
  return discovered.map((tool, index) => servedTool(tool, compiled[index]!, context));
}

function servedTool(discovered: DiscoveredTool, compiled: ContractTool, context: NestToolsContext): ContractTool {
  const execute = enhancedRun(discovered, context, 'execute', compiled.name, (raw, ctx) =>
    compiled.execute(raw, ctx).catch((err: unknown) => {
      throw err instanceof InvalidArgumentsError ? new BadRequestException(err.message, { cause: err }) : err;
    }),
  ) as (raw: unknown, ctx: CallContext) => Promise<ToolOutput>;
  const tool: Record<string, unknown> = { ...compiled, execute };
  if (discovered.perCall) delete tool.close;
  return Object.freeze(tool as unknown as ContractTool);
}

/**
 * `run(raw, ctx)` of a discovered provider as Nest runs a handler: inside the guards,
 * interceptors and exception filters that apply to the provider's `method` (global, class and
 * method `@UseGuards`, ...; see `nestTools`), with per-call providers and scoped global enhancers
 * made for the call's context id, the call visible to them as `toolCallOf(context)` (named
 * `name`), a failure no filter answered mapped by `mappedFailure`. Internal to the module: tools
 * run `execute` this way, resources `read` and prompts `messages`.
 */
export function enhancedRun(
  discovered: DiscoveredTool,
  context: NestToolsContext,
  method: string,
  name: string,
  run: (raw: unknown, ctx: CallContext) => Promise<unknown>,
  kind?: NestToolCall['kind'],
): (raw: unknown, ctx: CallContext) => Promise<unknown> {
  const bridge = bridgeOf(discovered.cls, method, run);
  const host = handlerHostOf(discovered);
  const scopedGlobals = context.scopedGlobals ?? [];
  // With request-scoped global enhancers, even a static provider's handler is made for each call.
  const staticHandler =
    discovered.perCall || scopedGlobals.length > 0 ? undefined : enhanced(context, host, bridge, undefined, method);
  const moduleRef = moduleRefOf(discovered, context);
  const resolveFirst = discovered.perCall && hasScopedEnhancers(discovered);

  return async (raw: unknown, ctx: CallContext): Promise<unknown> => {
    const request = httpRequestStore.getStore();
    const toolContext = contextWith(ctx, {});
    const call: NestToolCall = Object.freeze({
      tool: name,
      arguments: raw,
      session: ctx.session,
      request,
      context: toolContext,
      ...(kind === undefined ? {} : { kind }),
    });
    rememberCall(toolContext, call);
    try {
      let handler = staticHandler;
      if (handler === undefined) {
        const contextId = ContextIdFactory.create();
        moduleRef.ref.registerRequestByContextId(request ?? call, contextId);
        callScopes.set(toolContext, { contextId });
        await makeScopedGlobals(scopedGlobals, context.moduleRef, contextId);
        if (resolveFirst) await resolveInstance(discovered, moduleRef, contextId);
        handler = enhanced(context, host, bridge, contextId, method);
      }
      return await settled(await handler(request, undefined, call));
    } catch (err) {
      throw mappedFailure(err);
    }
  };
}

/** Wraps `bridge` (called on `host`) in the guards, interceptors and filters Nest applies to it. */
function enhanced(
  context: NestToolsContext,
  host: object,
  bridge: Function,
  contextId: ContextId | undefined,
  method: string,
): EnhancedHandler {
  return context.contextCreator.create(
    host as Record<string, unknown>,
    bridge as (...args: unknown[]) => unknown,
    method,
    undefined,
    undefined,
    contextId,
    undefined,
    ENHANCERS,
    TOOL_CALL_CONTEXT_TYPE,
  ) as EnhancedHandler;
}

/**
 * The object Nest's enhancers see as the handler's host (`context.getClass()` is its
 * constructor): the instance of a static provider, else the prototype-based object Nest keeps for
 * a scoped provider (never constructed), else one made here from the class's prototype.
 */
function handlerHostOf(discovered: DiscoveredTool): object {
  if (!discovered.perCall) return discovered.instance!;
  const kept = discovered.wrapper.instance as unknown;
  return typeof kept === 'object' && kept !== null
    ? kept
    : (Object.create(discovered.cls.prototype as object) as object);
}

/**
 * The handler Nest's enhancers wrap: called with the call's `ToolCallArgs`, it runs `run` with
 * the call's arguments and context (the compiled pipeline, which makes the instance of the call
 * for a per-call provider). It carries every metadata key of the class's own `method` (so
 * `@UseGuards`, `@UseInterceptors`, `@SetMetadata` on it apply, and `context.getHandler()` reads
 * them), and is named `method`. A tool's arguments the pipeline refused are thrown on as a
 * `BadRequestException` with the same message, as Nest's `ValidationPipe` reports a bad HTTP
 * body (so a filter for it catches both, and Nest does not log it as a server error).
 */
function bridgeOf(cls: Function, method: string, run: (raw: unknown, ctx: CallContext) => Promise<unknown>): Function {
  const bridge = function (_request: unknown, _response: undefined, call: NestToolCall): Promise<unknown> {
    return run(call.arguments, call.context);
  };
  const original = (cls.prototype as Record<string, unknown>)[method];
  if (typeof original === 'function') {
    for (const key of Reflect.getOwnMetadataKeys(original))
      Reflect.defineMetadata(key, Reflect.getOwnMetadata(key, original), bridge);
  }
  Object.defineProperty(bridge, 'name', { value: method });
  return bridge;
}

/**
 * Makes each request-scoped or transient global enhancer for `contextId`, so Nest's guards,
 * interceptors and filters of the call find them constructed (see `scopedGlobalEnhancers`). A
 * transient one, which Nest keys by its host, is recorded as the context's own instance (a tool
 * call has no host controller to key it by).
 */
async function makeScopedGlobals(
  enhancers: readonly InstanceWrapper[],
  moduleRef: ModuleRef,
  contextId: ContextId,
): Promise<void> {
  for (const enhancer of enhancers) {
    const instance = await moduleRef.resolve(enhancer.token as string, contextId, { strict: false });
    if (enhancer.isTransient)
      enhancer.setInstanceByContextId(contextId, { instance, isResolved: true, isPending: false } as never);
  }
}

/** The `ModuleRef` to resolve a per-call provider with: its own module's (strict), else the root's. */
function moduleRefOf(
  discovered: DiscoveredTool,
  context: NestToolsContext,
): { readonly ref: ModuleRef; readonly strict: boolean } {
  const hostRef = discovered.wrapper.host?.providers.get(ModuleRef)?.instance as ModuleRef | undefined;
  return hostRef === undefined ? { ref: context.moduleRef, strict: false } : { ref: hostRef, strict: true };
}

/** True when the provider's own guards, interceptors or filters are made per request (or per host). */
function hasScopedEnhancers(discovered: DiscoveredTool): boolean {
  const enhancers = (discovered.wrapper.getEnhancersMetadata?.() ?? []) as {
    isTransient: boolean;
    isDependencyTreeStatic(): boolean;
  }[];
  return enhancers.some((enhancer) => enhancer.isTransient || !enhancer.isDependencyTreeStatic());
}

/**
 * `compile`'s `resolveForCall` for one per-call provider: the instance Nest makes for the call's
 * context id (see `callScopes`; a call that has none, such as a facts question, gets a context
 * id of its own, with its HTTP request, or the call's context, as `REQUEST`). Nest returns the
 * same instance for one context id, so a provider resolved before its guards (see
 * `resolveFirst`) is that instance.
 */
export function perCallResolver(
  discovered: DiscoveredTool,
  context: NestToolsContext,
): (ctx: CallContext) => Promise<object> {
  const moduleRef = moduleRefOf(discovered, context);
  return async (ctx) => {
    let scope = callScopes.get(ctx);
    if (scope === undefined) {
      const contextId = ContextIdFactory.create();
      moduleRef.ref.registerRequestByContextId(httpRequestStore.getStore() ?? ctx, contextId);
      scope = { contextId };
    }
    return resolveInstance(discovered, moduleRef, scope.contextId);
  };
}

/**
 * The instance of a per-call provider for `contextId`; an error naming the class and module when
 * Nest cannot make one.
 */
async function resolveInstance(
  discovered: DiscoveredTool,
  moduleRef: { readonly ref: ModuleRef; readonly strict: boolean },
  contextId: ContextId,
): Promise<object> {
  let instance: unknown;
  try {
    instance = await moduleRef.ref.resolve(discovered.wrapper.token as Function, contextId, {
      strict: moduleRef.strict,
    });
  } catch (err) {
    throw new Error(
      `Nest could not make an instance of ${discovered.cls.name} (module ${discovered.moduleName}) for this call: ${errorText(err)}`,
    );
  }
  if (typeof instance !== 'object' || instance === null) {
    throw new Error(`Nest made no instance of ${discovered.cls.name} (module ${discovered.moduleName}) for this call`);
  }
  return instance;
}

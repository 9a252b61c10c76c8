import { AsyncLocalStorage } from 'node:async_hooks';
import { ContextIdFactory, ModuleRef, type ExternalContextCreator } from '@nestjs/core';
import type { ContextId } from '@nestjs/core/injector/instance-wrapper.js';
import { compile, type CompileOptions } from '../compiler/index.js';
import { BadRequestException } from '@nestjs/common';
import { InvalidArgumentsError, type CallContext, type ContractTool, type JsonObject, type ToolFacts, type ToolOutput } from '../contract/index.js';
import { getFactsMethod } from '../decorators/index.js';
import { contextWith } from '../runtime/internal.js';
import { messageOf } from '../util/describe.js';
import type { DiscoveredTool } from './discover.js';
import { mappedFailure, settled } from './exceptions.js';
import { httpRequestStore, rememberCall, TOOL_CALL_CONTEXT_TYPE, type NestToolCall, type ToolCallArgs } from './tool-call.js';

/** What `nestTools` needs from the application. */
export interface NestToolsContext {
  /** Runs a handler inside the guards, interceptors and exception filters that apply to it. */
  readonly contextCreator: ExternalContextCreator;
  /** The root module's `ModuleRef` (used when a provider's own module has none). */
  readonly moduleRef: ModuleRef;
  /** Options for `compile` (everything but `resolve`). */
  readonly compileOptions?: Omit<CompileOptions, 'resolve'>;
}

/** The instance a per-call tool's compiled pipeline forwards to while one of its calls runs. */
const currentInstance = new AsyncLocalStorage<object>();

const ENHANCERS = Object.freeze({ guards: true, interceptors: true, filters: true });

/** A handler made by `ExternalContextCreator.create` for a tool call. */
type EnhancedHandler = (...args: ToolCallArgs) => Promise<unknown>;

/**
 * Turns discovered `@Tool` providers into contract tools served the Nest way. Each is compiled
 * once with `compile` and `context.compileOptions` (so its schema, validation, claims and result handling are exactly those
 * of the plain server): a static provider with the instance Nest built, a request-scoped or
 * transient one with a stand-in whose methods forward to the instance resolved for the call.
 *
 * A served tool's `execute(raw, ctx)` runs, in order: for a per-call provider, a fresh instance
 * from `ModuleRef.resolve` under a fresh context id (with the call's HTTP request, or the call
 * itself over stdio, registered as that context's `REQUEST`); the guards (global, class and
 * `execute`-method `@UseGuards`; one that refuses gives `Forbidden resource`); the interceptors;
 * the compiled pipeline (argument validation, `@Requires`, the class's `execute`, the result);
 * and, when anything throws, the exception filters (`@UseFilters`, global), whose return value
 * becomes the tool's output. A failure no filter answered is mapped by `mappedFailure`. The
 * context the tool receives is a copy of the host's, from which `toolCallOf(ctx)` reads the
 * call (tool name, arguments, session, HTTP request). `facts(raw, ctx)` runs on the same
 * instance (resolved the same way) but outside the enhancers. `close()` is kept for a static
 * provider only (a per-call instance is never closed by toolwright).
 *
 * Throws the `ContractError` of `compile` when a class is not a valid tool.
 */
export function nestTools(discovered: readonly DiscoveredTool[], context: NestToolsContext): ContractTool[] {
  const compileOptions: CompileOptions = { ...(context.compileOptions ?? {}) };
  if ('resolve' in compileOptions) throw new TypeError('ToolwrightModule: the compile options must not set "resolve": the module makes the instances through Nest');
  const compiled = compile(discovered.map((tool) => (tool.perCall ? standInOf(tool.cls) : tool.instance!)), compileOptions);
  return discovered.map((tool, index) => servedTool(tool, compiled[index]!, context));
}

function servedTool(discovered: DiscoveredTool, compiled: ContractTool, context: NestToolsContext): ContractTool {
  const bridge = bridgeOf(discovered.cls, compiled);
  const staticHandler = discovered.perCall ? undefined : enhanced(context, discovered.instance!, bridge, undefined);
  const resolver = discovered.perCall ? perCallResolver(discovered, context) : undefined;

  const execute = async (raw: unknown, ctx: CallContext): Promise<ToolOutput> => {
    const request = httpRequestStore.getStore();
    const toolContext = contextWith(ctx, {});
    const call: NestToolCall = Object.freeze({ tool: compiled.name, arguments: raw, session: ctx.session, request, context: toolContext });
    rememberCall(toolContext, call);
    let handler = staticHandler;
    if (resolver !== undefined) {
      const { instance, contextId } = await resolver(call);
      handler = enhanced(context, instance, bridge, contextId);
    }
    try {
      return (await settled(await handler!(request, undefined, call))) as ToolOutput;
    } catch (err) {
      throw mappedFailure(err);
    }
  };

  const tool: Record<string, unknown> = { ...compiled, execute };
  if (compiled.facts !== undefined && resolver !== undefined) {
    const facts = compiled.facts;
    tool.facts = async (raw: JsonObject, ctx: CallContext): Promise<ToolFacts> => {
      const call: NestToolCall = Object.freeze({ tool: compiled.name, arguments: raw, session: ctx.session, request: httpRequestStore.getStore(), context: ctx });
      const { instance } = await resolver(call);
      return currentInstance.run(instance, () => facts(raw, ctx));
    };
  }
  if (discovered.perCall) delete tool.close;
  return Object.freeze(tool as unknown as ContractTool);
}

/** Wraps `bridge` (bound to `instance`) in the guards, interceptors and filters Nest applies to it. */
function enhanced(context: NestToolsContext, instance: object, bridge: Function, contextId: ContextId | undefined): EnhancedHandler {
  return context.contextCreator.create(
    instance as Record<string, unknown>,
    bridge as (...args: unknown[]) => unknown,
    'execute',
    undefined,
    undefined,
    contextId,
    undefined,
    ENHANCERS,
    TOOL_CALL_CONTEXT_TYPE,
  ) as EnhancedHandler;
}

/**
 * The handler Nest's enhancers wrap: called with `this` = the tool's instance and the call's
 * `ToolCallArgs`, it runs the compiled pipeline with that instance current. It carries every
 * metadata key of the class's own `execute` method (so `@UseGuards`, `@UseInterceptors`,
 * `@SetMetadata` on `execute` apply, and `context.getHandler()` reads them), and is named
 * `execute`. Arguments the pipeline refused are thrown on as a `BadRequestException` with the
 * same message, as Nest's `ValidationPipe` reports a bad HTTP body (so a filter for it catches
 * both, and Nest does not log it as a server error).
 */
function bridgeOf(cls: Function, compiled: ContractTool): Function {
  const bridge = function (this: object, _request: unknown, _response: undefined, call: NestToolCall): Promise<ToolOutput> {
    return currentInstance.run(this, () => compiled.execute(call.arguments, call.context)).catch((err: unknown) => {
      throw err instanceof InvalidArgumentsError ? new BadRequestException(err.message, { cause: err }) : err;
    });
  };
  const original = (cls.prototype as { execute?: unknown }).execute;
  if (typeof original === 'function') {
    for (const key of Reflect.getOwnMetadataKeys(original)) Reflect.defineMetadata(key, Reflect.getOwnMetadata(key, original), bridge);
  }
  Object.defineProperty(bridge, 'name', { value: 'execute' });
  return bridge;
}

/**
 * An object of `cls` (its prototype, not constructed) whose `execute` and `@Facts` method
 * forward to the instance current for the call, for compiling a per-call provider once. It has
 * no `close` (a per-call instance is not closed by toolwright).
 */
function standInOf(cls: Function): object {
  const standIn = Object.create(cls.prototype as object) as Record<string | symbol, unknown>;
  const forward = (method: string | symbol) =>
    function (...args: unknown[]): unknown {
      const instance = currentInstance.getStore() as Record<string | symbol, (...a: unknown[]) => unknown> | undefined;
      if (instance === undefined) throw new Error(`${cls.name}: a request-scoped tool was called without its instance`);
      return instance[method]!(...args);
    };
  standIn.execute = forward('execute');
  const factsMethod = getFactsMethod(cls);
  if (factsMethod !== undefined) standIn[factsMethod] = forward(factsMethod);
  standIn.close = undefined;
  return standIn;
}

/** Resolves a fresh instance of a per-call provider for one call, in the provider's own module. */
function perCallResolver(discovered: DiscoveredTool, context: NestToolsContext): (call: NestToolCall) => Promise<{ instance: object; contextId: ContextId }> {
  const hostRef = discovered.wrapper.host?.providers.get(ModuleRef)?.instance as ModuleRef | undefined;
  const moduleRef = hostRef ?? context.moduleRef;
  const strict = hostRef !== undefined;
  return async (call) => {
    const contextId = ContextIdFactory.create();
    moduleRef.registerRequestByContextId(call.request ?? call, contextId);
    let instance: unknown;
    try {
      instance = await moduleRef.resolve(discovered.wrapper.token as Function, contextId, { strict });
    } catch (err) {
      throw new Error(`tool ${JSON.stringify(discovered.name)}: Nest could not make an instance of ${discovered.cls.name} (module ${discovered.moduleName}) for this call: ${messageOf(err)}`);
    }
    if (typeof instance !== 'object' || instance === null) {
      throw new Error(`tool ${JSON.stringify(discovered.name)}: Nest made no instance of ${discovered.cls.name} (module ${discovered.moduleName}) for this call`);
    }
    return { instance, contextId };
  };
}

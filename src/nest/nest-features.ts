import { BadRequestException } from '@nestjs/common';
import type { DiscoveryService } from '@nestjs/core';
import {
  ContractError,
  InvalidArgumentsError,
  isResourceTemplate,
  ToolError,
  type CallContext,
  type ContractIssue,
  type ContractPrompt,
  type ContractResource,
  type ContractResources,
  type ContractResourceTemplate,
  type ResourceContext,
} from '../contract/index.js';
import { getPromptOptions, getResourceTemplateOptions, getStaticResourceOptions } from '../decorators/index.js';
import { compilePrompts, compileResources, inferToolName } from '../compiler/index.js';
import { registerFeatureEntry } from '../compiler/internal.js';
import { discoverMarked, type DiscoveredTool } from './discover.js';
import { enhancedRun, perCallResolver, type NestToolsContext } from './nest-tool.js';

/** The resource, template and prompt providers of an application, as discovery found them. */
export interface DiscoveredFeatures {
  readonly resources: readonly DiscoveredTool[];
  readonly prompts: readonly DiscoveredTool[];
}

const isResourceClass = (cls: Function): boolean =>
  getStaticResourceOptions(cls) !== undefined || getResourceTemplateOptions(cls) !== undefined;

/**
 * Finds every provider, in every module of the application, whose class carries
 * `@StaticResource`, `@ResourceTemplate` or `@Prompt` (as `discoverTools` finds `@Tool`
 * providers: the class, a `@...` token of a factory, or the class of the instance a value
 * provider holds). Throws one `ContractError` listing every static provider Nest left without an
 * instance (`resolve-failed`). Duplicate URIs and names are found when they are compiled. With
 * `modules`, only the providers of those modules are looked at.
 */
export function discoverFeatures(discovery: DiscoveryService, modules?: readonly Function[]): DiscoveredFeatures {
  const issues: ContractIssue[] = [];
  const resources = discoverMarked(
    discovery,
    isResourceClass,
    (cls) => cls.name,
    '@StaticResource/@ResourceTemplate',
    issues,
    modules,
  );
  const prompts = discoverMarked(
    discovery,
    (cls) => getPromptOptions(cls) !== undefined,
    (cls) => getPromptOptions(cls)!.name ?? inferToolName(cls.name),
    '@Prompt',
    issues,
    modules,
  );
  if (issues.length > 0) throw new ContractError(issues);
  return { resources, prompts };
}

/**
 * A failure of the pipeline inside Nest's enhancers, as the core expects it: refused arguments as
 * the `InvalidArgumentsError` they were.
 */
function unwrapped(err: unknown): unknown {
  if (
    err instanceof ToolError &&
    err.cause instanceof BadRequestException &&
    err.cause.cause instanceof InvalidArgumentsError
  )
    return err.cause.cause;
  return err;
}

/** Refused arguments thrown on as a `BadRequestException`, as a tool's are (see `nestTools`). */
function asBadRequest(err: unknown): never {
  throw err instanceof InvalidArgumentsError ? new BadRequestException(err.message, { cause: err }) : err;
}

/**
 * Turns discovered resource, template and prompt providers into contract values served the Nest
 * way, as `nestTools` does for tools: compiled once with `compileResources` and
 * `compilePrompts` (a static provider with the instance Nest built, a request-scoped or transient
 * one with the instance Nest makes for each call), each `read` (a template's with its variables
 * validated) and each `messages` run inside the guards, interceptors and exception filters that
 * apply to that method, where `toolCallOf(context)` gives the call (`kind` `resource` with
 * `arguments` `{ uri, ...variables }`, or `prompt` with the prompt's arguments). A template's
 * `list` and every `@Complete` method run outside the enhancers (as a tool's facts do). Refused
 * arguments reach the filters as a `BadRequestException` and the client as `-32602`. `close()` is
 * kept for static providers only. Throws the compile `ContractError`s.
 */
export function nestFeatures(
  discovered: DiscoveredFeatures,
  context: NestToolsContext,
): { readonly resources: ContractResources | undefined; readonly prompts: readonly ContractPrompt[] | undefined } {
  const options = {
    ...(context.compileOptions?.validator === undefined ? {} : { validator: context.compileOptions.validator }),
    ...(context.compileOptions?.maxDepth === undefined ? {} : { maxDepth: context.compileOptions.maxDepth }),
  };
  const resolvers = new Map<Function, (ctx: CallContext) => Promise<object>>();
  for (const provider of [...discovered.resources, ...discovered.prompts])
    if (provider.perCall) resolvers.set(provider.cls, perCallResolver(provider, context));
  const resolveForCall = (cls: Function, ctx: CallContext): Promise<object> => resolvers.get(cls)!(ctx);
  const sources = (providers: readonly DiscoveredTool[]) => providers.map((p) => (p.perCall ? p.cls : p.instance!));
  let resources: ContractResources | undefined;
  if (discovered.resources.length > 0) {
    const compiled = compileResources(sources(discovered.resources), { ...options, resolveForCall });
    resources = Object.freeze(
      compiled.map((made, index) => servedResource(discovered.resources[index]!, made, context)),
    );
  }
  let prompts: readonly ContractPrompt[] | undefined;
  if (discovered.prompts.length > 0) {
    const compiled = compilePrompts(sources(discovered.prompts), { ...options, resolveForCall });
    prompts = Object.freeze(compiled.map((made, index) => servedPrompt(discovered.prompts[index]!, made, context)));
  }
  return { resources, prompts };
}

function servedResource(
  provider: DiscoveredTool,
  made: ContractResource | ContractResourceTemplate,
  context: NestToolsContext,
): ContractResource | ContractResourceTemplate {
  const template = isResourceTemplate(made);
  const run = enhancedRun(
    provider,
    context,
    'read',
    made.name,
    (raw, ctx) => {
      const { uri: _uri, ...variables } = raw as Record<string, unknown>;
      const reading = template
        ? (made as ContractResourceTemplate).read(variables as never, ctx as ResourceContext)
        : (made as ContractResource).read(ctx as ResourceContext);
      return reading.catch(asBadRequest);
    },
    'resource',
  );
  const read = (variables: object, ctx: CallContext) =>
    run({ uri: (ctx as ResourceContext).uri, ...variables }, ctx).catch((err: unknown) => {
      throw unwrapped(err);
    });
  const served: Record<string, unknown> = {
    ...made,
    read: template
      ? (variables: object, ctx: CallContext) => read(variables, ctx)
      : (ctx: CallContext) => read({}, ctx),
  };
  if (provider.perCall) delete served.close;
  const frozen = Object.freeze(served) as unknown as ContractResource | ContractResourceTemplate;
  // The pipeline runs inside the enhancers (its variables validated there), so the core runs it as it is.
  registerFeatureEntry(frozen, {
    parse: async (raw) => ({ value: (raw ?? {}) as object, plain: { ...(raw as object) } }),
    run: read,
  });
  return frozen;
}

function servedPrompt(provider: DiscoveredTool, made: ContractPrompt, context: NestToolsContext): ContractPrompt {
  const run = enhancedRun(
    provider,
    context,
    'messages',
    made.name,
    (raw, ctx) => made.get(raw as Record<string, string>, ctx).catch(asBadRequest),
    'prompt',
  );
  const get = (args: object, ctx: CallContext) =>
    run(args, ctx).catch((err: unknown) => {
      throw unwrapped(err);
    });
  const served: Record<string, unknown> = {
    ...made,
    get: (args: Record<string, string>, ctx: CallContext) => get(args, ctx),
  };
  if (provider.perCall) delete served.close;
  const frozen = Object.freeze(served) as unknown as ContractPrompt;
  registerFeatureEntry(frozen, {
    parse: async (raw) => ({ value: (raw ?? {}) as object, plain: { ...(raw as object) } }),
    run: get,
  });
  return frozen;
}

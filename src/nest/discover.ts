import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, type DiscoveryService, type ModulesContainer } from '@nestjs/core';
import type { InstanceWrapper } from '@nestjs/core/injector/instance-wrapper.js';
import { ContractError, type ContractIssue } from '../contract/index.js';
import { getToolOptions } from '../decorators/index.js';
import { inferToolName } from '../compiler/index.js';
import { kindOf } from '../util/describe.js';

/** A provider whose class carries `@Tool`, as discovery found it. */
export interface DiscoveredTool {
  /** The `@Tool` class. */
  readonly cls: Function;
  /** The tool's name (`@Tool({ name })` or the one inferred from the class name). */
  readonly name: string;
  /** The name of the module that declares the provider. */
  readonly moduleName: string;
  /** Nest's wrapper of the provider. */
  readonly wrapper: InstanceWrapper;
  /**
   * `true` for a request-scoped or transient provider (or one depending on a request-scoped
   * provider): it has no single instance, so a fresh one is resolved for every call.
   */
  readonly perCall: boolean;
  /** The instance Nest built, for a provider that is not `perCall`. */
  readonly instance: object | undefined;
}

/**
 * Finds every provider, in every module of the application, whose class carries `@Tool`: the
 * provider's class (`providers: [ReadTool]`, `useClass`), or its token when that is a `@Tool`
 * class (`{ provide: ReadTool, useFactory }`), or the class of the instance a value or factory
 * provider holds. Throws one `ContractError` listing every problem: two providers with one tool
 * name (`duplicate-name`, naming both classes and their modules) and a static `@Tool` provider
 * Nest left without an object instance (`resolve-failed`, naming the class and module).
 * Providers are returned in Nest's module order. With `modules`, only the providers of those
 * modules (their classes, as `DiscoveryService`'s `include` takes them) are looked at.
 */
export function discoverTools(discovery: DiscoveryService, modules?: readonly Function[]): DiscoveredTool[] {
  const issues: ContractIssue[] = [];
  const found = discoverMarked(
    discovery,
    (cls) => getToolOptions(cls) !== undefined,
    (cls) => getToolOptions(cls)!.name ?? inferToolName(cls.name),
    '@Tool',
    issues,
    modules,
  );
  issues.push(...duplicateIssues(found));
  if (issues.length > 0) throw new ContractError(issues);
  return found;
}

/**
 * Every provider whose class is `marked` (found as `discoverTools` finds tool classes), named by
 * `nameOf`, in Nest's module order (of `modules` only, when given); a static one Nest left without
 * an object instance is a `resolve-failed` issue naming `decorator`, the class and the module.
 * Internal to the module.
 */
export function discoverMarked(
  discovery: DiscoveryService,
  marked: (cls: Function) => boolean,
  nameOf: (cls: Function) => string,
  decorator: string,
  issues: ContractIssue[],
  modules?: readonly Function[],
): DiscoveredTool[] {
  const found: DiscoveredTool[] = [];
  for (const wrapper of discovery.getProviders(modules === undefined ? undefined : { include: [...modules] })) {
    const cls = markedClassOf(wrapper, marked);
    if (cls === undefined) continue;
    const moduleName = wrapper.host?.name ?? '(unknown module)';
    const perCall = wrapper.isTransient || !wrapper.isDependencyTreeStatic();
    const instance = perCall ? undefined : (wrapper.instance as unknown);
    if (!perCall && (typeof instance !== 'object' || instance === null)) {
      issues.push({
        code: 'resolve-failed',
        className: cls.name,
        message: `ToolwrightModule: the ${decorator} provider ${cls.name} in module ${moduleName} has no instance (Nest made ${kindOf(instance)}): provide the class itself (providers: [${cls.name}]) or a factory that returns an instance of it`,
      });
      continue;
    }
    found.push({ cls, name: nameOf(cls), moduleName, wrapper, perCall, instance: instance as object | undefined });
  }
  return found;
}

/** The `marked` class behind a provider (its class, its token, or its instance's class), or `undefined`. */
function markedClassOf(wrapper: InstanceWrapper, marked: (cls: Function) => boolean): Function | undefined {
  const candidates: unknown[] = [];
  if (!wrapper.isFactory && !wrapper.isAlias) candidates.push(wrapper.metatype);
  candidates.push(wrapper.token);
  if (!wrapper.isTransient && wrapper.isDependencyTreeStatic()) {
    const instance = wrapper.instance as unknown;
    if (typeof instance === 'object' && instance !== null) candidates.push(instance.constructor);
  }
  for (const candidate of candidates) {
    if (typeof candidate === 'function' && marked(candidate)) return candidate;
  }
  return undefined;
}

/** One `duplicate-name` issue per tool name two or more providers share. */
function duplicateIssues(found: readonly DiscoveredTool[]): ContractIssue[] {
  const byName = new Map<string, DiscoveredTool[]>();
  for (const tool of found) byName.set(tool.name, [...(byName.get(tool.name) ?? []), tool]);
  const issues: ContractIssue[] = [];
  for (const [name, tools] of byName) {
    if (tools.length < 2) continue;
    const where = tools.map((tool) => `class ${tool.cls.name} in module ${tool.moduleName}`).join(' and ');
    issues.push({
      code: 'duplicate-name',
      className: '',
      message: `ToolwrightModule: tool name ${JSON.stringify(name)} is provided ${tools.length} times (${where}): give all but one another name with @Tool({ name: '...' })`,
    });
  }
  return issues;
}

/** The prefixes of the tokens Nest registers global enhancers (`APP_GUARD`, ...) under: `APP_GUARD (UUID: ...)`. */
const GLOBAL_ENHANCER_PREFIXES = [APP_GUARD, APP_INTERCEPTOR, APP_FILTER].map((type) => `${type} (UUID: `);

/**
 * The global guards, interceptors and exception filters (`APP_GUARD`, `APP_INTERCEPTOR`,
 * `APP_FILTER` providers) that are request-scoped or transient, in every module. Nest makes
 * them per request, so a tool call must have them made for its own context id before its
 * handler is built; a static context skips them (Nest's own routes get them through the
 * controllers, which tools are not).
 */
export function scopedGlobalEnhancers(modules: ModulesContainer): InstanceWrapper[] {
  const found: InstanceWrapper[] = [];
  for (const module of modules.values()) {
    for (const [token, wrapper] of module.injectables) {
      if (typeof token !== 'string' || !GLOBAL_ENHANCER_PREFIXES.some((prefix) => token.startsWith(prefix))) continue;
      if (wrapper.isTransient || !wrapper.isDependencyTreeStatic()) found.push(wrapper);
    }
  }
  return found;
}

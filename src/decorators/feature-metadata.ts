import type { ResourceAnnotations } from '../contract/index.js';
import { TOOL_KEY, type Class } from './metadata.js';

/*
 * Typed access to what `@StaticResource`, `@ResourceTemplate`, `@Prompt` and `@Complete` leave
 * on classes, stored as the tool decorators store theirs: on the class itself, under
 * `Symbol.for('toolwright/...')` keys, as non-enumerable properties, read from the class itself
 * only (a subclass that wants to be a resource or a prompt says so itself).
 */

/** The options of `@StaticResource`. */
export interface StaticResourceOptions {
  /** The resource's absolute URI (`file:///notes.txt`, `config://app`). */
  readonly uri: string;
  /** The resource's name; defaults to the class name in snake_case without a trailing `Resource`. */
  readonly name?: string;
  readonly title?: string;
  readonly description?: string;
  /** The MIME type of its content (`text/plain`, `application/json`, ...). */
  readonly mimeType?: string;
  /** Its size in bytes, when known. */
  readonly size?: number;
  readonly annotations?: ResourceAnnotations;
}

/** The options of `@ResourceTemplate`. */
export interface ResourceTemplateOptions {
  /** An RFC 6570 URI template with at least one variable (`users://{id}/profile`). */
  readonly uriTemplate: string;
  /** The template's name; defaults to the class name in snake_case without a trailing `Template` or `Resource`. */
  readonly name?: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly annotations?: ResourceAnnotations;
  /**
   * The class of the template's variables (one property per variable, validated like a tool's
   * arguments); without it, `read` receives the variables as strings (lists for exploded ones).
   */
  readonly args?: Class;
}

/** The options of `@Prompt`. */
export interface PromptOptions {
  /** The prompt's name; defaults to the class name in snake_case without a trailing `Prompt`. */
  readonly name?: string;
  readonly title?: string;
  /** What the prompt is for, shown to the user who picks it. Required by `compilePrompts`. */
  readonly description: string;
  /** The arguments class: each property is one MCP prompt argument (a named string). */
  readonly args?: Class;
}

/** Which kind of served thing a class was decorated as. */
export type FeatureKind = 'tool' | 'static-resource' | 'resource-template' | 'prompt';

export const STATIC_RESOURCE_KEY = Symbol.for('toolwright/static-resource');
export const RESOURCE_TEMPLATE_KEY = Symbol.for('toolwright/resource-template');
export const PROMPT_KEY = Symbol.for('toolwright/prompt');
export const COMPLETERS_KEY = Symbol.for('toolwright/completers');

function own<T>(target: object, key: symbol): T | undefined {
  return Object.prototype.hasOwnProperty.call(target, key) ? (target as Record<symbol, T>)[key] : undefined;
}

function setOwn(target: object, key: symbol, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: false, configurable: true, writable: false });
}

/** The `@StaticResource` options of `cls`, or `undefined`. */
export function getStaticResourceOptions(cls: Function): StaticResourceOptions | undefined {
  return own<StaticResourceOptions>(cls, STATIC_RESOURCE_KEY);
}

export function setStaticResourceOptions(cls: Function, options: StaticResourceOptions): void {
  setOwn(cls, STATIC_RESOURCE_KEY, Object.freeze({ ...options }));
}

/** The `@ResourceTemplate` options of `cls`, or `undefined`. */
export function getResourceTemplateOptions(cls: Function): ResourceTemplateOptions | undefined {
  return own<ResourceTemplateOptions>(cls, RESOURCE_TEMPLATE_KEY);
}

export function setResourceTemplateOptions(cls: Function, options: ResourceTemplateOptions): void {
  setOwn(cls, RESOURCE_TEMPLATE_KEY, Object.freeze({ ...options }));
}

/** The `@Prompt` options of `cls`, or `undefined`. */
export function getPromptOptions(cls: Function): PromptOptions | undefined {
  return own<PromptOptions>(cls, PROMPT_KEY);
}

export function setPromptOptions(cls: Function, options: PromptOptions): void {
  setOwn(cls, PROMPT_KEY, Object.freeze({ ...options }));
}

/** The methods `@Complete` marked on `cls`, by the argument (or variable) each completes; empty when none. */
export function getCompleters(cls: Function): ReadonlyMap<string, string | symbol> {
  return own<ReadonlyMap<string, string | symbol>>(cls, COMPLETERS_KEY) ?? new Map();
}

/** Records `method` as the completer of `argument` on `cls` (a fresh frozen-by-convention map each time). */
export function addCompleter(cls: Function, argument: string, method: string | symbol): void {
  const next = new Map(getCompleters(cls));
  next.set(argument, method);
  setOwn(cls, COMPLETERS_KEY, next);
}

/** What `cls` was decorated as (`@Tool`, `@StaticResource`, `@ResourceTemplate`, `@Prompt`), or `undefined`. */
export function featureKindOf(cls: Function): FeatureKind | undefined {
  if (own(cls, TOOL_KEY) !== undefined) return 'tool';
  if (own(cls, STATIC_RESOURCE_KEY) !== undefined) return 'static-resource';
  if (own(cls, RESOURCE_TEMPLATE_KEY) !== undefined) return 'resource-template';
  if (own(cls, PROMPT_KEY) !== undefined) return 'prompt';
  return undefined;
}

/** The decorator that marks each kind, for messages. */
export const DECORATOR_OF: Readonly<Record<FeatureKind, string>> = {
  tool: '@Tool()',
  'static-resource': '@StaticResource()',
  'resource-template': '@ResourceTemplate()',
  prompt: '@Prompt()',
};

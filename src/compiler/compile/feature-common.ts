import {
  ContractError,
  type CallContext,
  type CompletionOutput,
  type CompletionRequest,
  type ContractIssue,
  type Requirement,
} from '../../contract/index.js';
import { getClaims, getCompleters, getFactsMethod, type Class } from '../../decorators/index.js';
import { kindOf, errorText } from '../../util/describe.js';
import type { ResolveForCall } from './build-tool.js';
import { checkFeatureOptions, type FeatureCompileOptions } from './feature-options.js';
import type { StringParam } from './string-params.js';

/*
 * What `compileResources` and `compilePrompts` share: the claims a resource or prompt class may
 * carry, the instance of a call, and the completion of arguments and variables.
 */

/** The claims of a tool that mean nothing for a resource or a prompt, with the decorator that records each. */
const TOOL_ONLY_CLAIMS: readonly (readonly [key: string, decorator: string])[] = [
  ['annotations', '@ReadOnly(), @Destructive(), @Idempotent() and @OpenWorld()'],
  ['sequential', '@Sequential()'],
  ['barrier', '@Barrier()'],
  ['resource', '@Resource(key)'],
  ['flow', '@Flow()'],
  ['replay', '@Replay()'],
  ['scopes', '@Scopes()'],
  ['task', '@TaskSupport()'],
];

/** The claims a resource, template or prompt class carries onto what is compiled from it. */
export interface FeatureClaims {
  readonly timeoutMs?: number;
  readonly maxOutputChars?: number;
  readonly requires?: readonly Requirement[];
}

/**
 * The claims of `cls` that apply to a resource or prompt (`@Timeout`, `@MaxOutput`,
 * `@Requires`), with a `not-applicable-claim` issue for each tool-only claim or `@Facts` it
 * carries (`what` names the kind: `a resource`, `a prompt`).
 */
export function featureClaimsOf(
  cls: Function,
  className: string,
  what: string,
  issues: ContractIssue[],
): FeatureClaims {
  const claims = getClaims(cls) as Record<string, unknown>;
  for (const [key, decorator] of TOOL_ONLY_CLAIMS) {
    if (claims[key] === undefined) continue;
    issues.push({
      code: 'not-applicable-claim',
      className,
      message: `class ${className}: ${decorator} ${key === 'annotations' ? 'are tool hints' : 'is a claim of tools'}, which means nothing for ${what}: remove it${key === 'scopes' ? ' (guard it with @Requires and a permission policy instead)' : ''}`,
    });
  }
  const facts = getFactsMethod(cls);
  if (facts !== undefined)
    issues.push({
      code: 'not-applicable-claim',
      className,
      member: String(facts),
      message: `class ${className}: @Facts() answers the facts claim of a tool call, which means nothing for ${what}: remove it`,
    });
  const { timeoutMs, maxOutputChars, requires } = claims as FeatureClaims;
  return {
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(maxOutputChars === undefined ? {} : { maxOutputChars }),
    ...(requires === undefined ? {} : { requires }),
  };
}

type Methods = Record<string | symbol, (...args: unknown[]) => unknown>;

/** How the instance of each call is found: made once at compile time, or per call by `resolveForCall`. */
export interface InstanceSource {
  readonly cls: Function;
  readonly className: string;
  readonly instance: object | undefined;
  readonly resolveForCall: ResolveForCall | undefined;
  /** The method the class must have (`read`, `messages`). */
  readonly method: string;
}

/**
 * The instance of one call: the compile-time instance, or `resolveForCall(cls, ctx)`'s answer.
 * A resolver that fails rejects with `class <Name>: resolveForCall() failed: <why>`; an answer
 * without the method rejects with a `TypeError` naming what came back.
 */
export async function instanceOfCall(source: InstanceSource, ctx: CallContext): Promise<Methods> {
  if (source.instance !== undefined) return source.instance as Methods;
  let made: unknown;
  try {
    made = await source.resolveForCall!(source.cls as Class, ctx);
  } catch (err) {
    throw new Error(`class ${source.className}: resolveForCall() failed: ${errorText(err)}`, { cause: err });
  }
  if (typeof made !== 'object' || made === null || typeof (made as Methods)[source.method] !== 'function')
    throw new TypeError(
      `class ${source.className}: resolveForCall() returned ${kindOf(made)} without a ${source.method}() method; return an instance of ${source.className}`,
    );
  return made as Methods;
}

/**
 * One `unknown-completion-argument` issue per `@Complete` of `cls` that names no argument (or
 * variable) of `names`, or marks something that is not a method.
 */
export function completerIssues(
  cls: Function,
  className: string,
  names: readonly string[],
  what: 'argument' | 'variable',
): ContractIssue[] {
  const issues: ContractIssue[] = [];
  for (const [argument, method] of getCompleters(cls)) {
    if (!names.includes(argument)) {
      issues.push({
        code: 'unknown-completion-argument',
        className,
        member: String(method),
        message: `class ${className}: @Complete(${JSON.stringify(argument)}) on ${String(method)}() names no ${what} of it (${names.length === 0 ? `it has no ${what}s` : `its ${what}s: ${names.join(', ')}`}): name one of them`,
      });
    } else if (typeof (cls.prototype as Methods)[method] !== 'function') {
      issues.push({
        code: 'unknown-completion-argument',
        className,
        member: String(method),
        message: `class ${className}: @Complete(${JSON.stringify(argument)}) marks ${String(method)}, which is not a method: mark a method (value, request, ctx) => values`,
      });
    }
  }
  return issues;
}

/**
 * The `complete` function of a compiled prompt or template, or `undefined` when nothing of it
 * completes: each `@Complete` method answers its argument (called with the typed value, the
 * request and the context, on the call's instance); an enum argument without one completes from
 * its values (those that start with the typed value, ignoring case, in the enum's order); any
 * other argument answers no values.
 */
export function completeOf(
  cls: Function,
  source: InstanceSource,
  params: readonly StringParam[],
): ((request: CompletionRequest, ctx: CallContext) => Promise<CompletionOutput>) | undefined {
  const methods = getCompleters(cls);
  const choices = new Map<string, readonly string[]>();
  for (const param of params)
    if (param.choices !== undefined && !methods.has(param.name)) choices.set(param.name, param.choices);
  if (methods.size === 0 && choices.size === 0) return undefined;
  return async (request, ctx) => {
    const method = methods.get(request.argument);
    if (method !== undefined) {
      const instance = await instanceOfCall(source, ctx);
      return (await instance[method]!.call(instance, request.value, request, ctx)) as CompletionOutput;
    }
    const values = choices.get(request.argument);
    if (values === undefined) return [];
    const typed = request.value.toLowerCase();
    return values.filter((value) => value.toLowerCase().startsWith(typed));
  };
}

/** One item of a set while it is being compiled: its key for the duplicate check, where it came from, what it made. */
export interface SetEntry<T> {
  readonly key: string | undefined;
  readonly source: string;
  readonly made: T | undefined;
}

/** What `compileSet` needs to know of one kind of thing (resources, prompts). */
export interface SetKind<T> {
  /** The function's name in messages (`compilePrompts()`). */
  readonly where: string;
  /** What its array holds, for the `TypeError` (`prompt classes, instances and contract prompts`). */
  readonly holds: string;
  /** What `ContractError`'s message says was compiled (`the prompts`). */
  readonly subject: string;
  /** True for a class decorated as this kind. */
  marked(cls: Function): boolean;
  compileClass(
    cls: Function,
    given: object | undefined,
    options: FeatureCompileOptions,
    issues: ContractIssue[],
  ): SetEntry<T>;
  /** True for an object to check as a hand-built value of this kind. */
  looksHandBuilt(value: Record<string, unknown>): boolean;
  compileHandBuilt(value: Record<string, unknown>, index: number, issues: ContractIssue[]): SetEntry<T>;
  /** The issue of item `index`, which is none of these. */
  notOne(index: number, value: unknown): ContractIssue;
  /** The issue of a key used by more than one item (`sources` names each, in order). */
  duplicate(key: string, sources: readonly string[]): ContractIssue;
}

/**
 * Compiles a set of one kind (see `compileResources`, `compilePrompts`): checks the array and the
 * options (a `TypeError` at once), compiles each item (a class, an instance of a marked class, a
 * hand-built value), and throws one `ContractError` with every problem, duplicates included;
 * else returns what was made, frozen, in order.
 */
export function compileSet<T>(
  sources: readonly unknown[],
  options: FeatureCompileOptions,
  kind: SetKind<T>,
): readonly T[] {
  if (!Array.isArray(sources))
    throw new TypeError(`${kind.where} takes an array of ${kind.holds}, got ${kindOf(sources)}`);
  checkFeatureOptions(options, kind.where);
  const issues: ContractIssue[] = [];
  const entries = sources.map((source, index): SetEntry<T> => {
    if (typeof source === 'function') return kind.compileClass(source, undefined, options, issues);
    if (typeof source === 'object' && source !== null) {
      const cls = (source as { constructor?: unknown }).constructor;
      if (typeof cls === 'function' && kind.marked(cls)) return kind.compileClass(cls, source, options, issues);
      if (kind.looksHandBuilt(source as Record<string, unknown>))
        return kind.compileHandBuilt(source as Record<string, unknown>, index, issues);
    }
    issues.push(kind.notOne(index, source));
    return { key: undefined, source: `item ${index}`, made: undefined };
  });
  const byKey = new Map<string, string[]>();
  for (const entry of entries)
    if (entry.key !== undefined) byKey.set(entry.key, [...(byKey.get(entry.key) ?? []), entry.source]);
  for (const [key, where] of byKey) if (where.length > 1) issues.push(kind.duplicate(key, where));
  if (issues.length > 0) throw new ContractError(issues, kind.subject);
  return Object.freeze(entries.map((entry) => entry.made!));
}

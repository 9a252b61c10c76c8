import type {
  CallContext,
  CompletionOutput,
  CompletionRequest,
  ContractIssue,
  Requirement,
} from '../../contract/index.js';
import { getClaims, getCompleters, getFactsMethod, type Class } from '../../decorators/index.js';
import { kindOf, messageOf } from '../../util/describe.js';
import type { ResolveForCall } from './build-tool.js';
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
    throw new Error(`class ${source.className}: resolveForCall() failed: ${messageOf(err)}`, { cause: err });
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

import type { CompileOptions, SchemaValidator } from '../compiler/index.js';
import { PermissionPolicy, type CallCoreOptions } from '../runtime/index.js';
import { kindOf } from '../util/describe.js';
import {
  TOOLWRIGHT_CALL_OPTIONS,
  TOOLWRIGHT_COMPILE_OPTIONS,
  TOOLWRIGHT_OUTPUT_LIMITS,
  TOOLWRIGHT_POLICY,
  TOOLWRIGHT_VALIDATOR,
  type ToolwrightOutputLimits,
} from './options.js';

/** Finds the provider of a token anywhere in the application (`undefined` when there is none). */
export type ProviderLookup = (token: symbol) => unknown;

const TOKEN_NAMES = new Map<symbol, string>([
  [TOOLWRIGHT_CALL_OPTIONS, 'TOOLWRIGHT_CALL_OPTIONS'],
  [TOOLWRIGHT_COMPILE_OPTIONS, 'TOOLWRIGHT_COMPILE_OPTIONS'],
  [TOOLWRIGHT_OUTPUT_LIMITS, 'TOOLWRIGHT_OUTPUT_LIMITS'],
  [TOOLWRIGHT_POLICY, 'TOOLWRIGHT_POLICY'],
  [TOOLWRIGHT_VALIDATOR, 'TOOLWRIGHT_VALIDATOR'],
]);

/** The object provided under `token`, or `undefined`; a `TypeError` naming the token when it is not an object. */
function providedObject(lookup: ProviderLookup, token: symbol): Record<string, unknown> | undefined {
  const value = lookup(token);
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TypeError(
      `ToolwrightModule: the ${TOKEN_NAMES.get(token)} provider must be an object, got ${kindOf(value)}`,
    );
  }
  return value as Record<string, unknown>;
}

/**
 * One option, taken from the first of `sources` that gives it; a `TypeError` naming both tokens
 * when two of them give it (`ToolwrightModule: "policy" is provided by TOOLWRIGHT_CALL_OPTIONS and
 * by TOOLWRIGHT_POLICY; provide it once`).
 */
function single(option: string, sources: readonly (readonly [symbol, unknown])[]): unknown {
  const given = sources.filter(([, value]) => value !== undefined);
  if (given.length > 1) {
    throw new TypeError(
      `ToolwrightModule: "${option}" is provided by ${given.map(([token]) => TOKEN_NAMES.get(token)).join(' and by ')}; provide it once`,
    );
  }
  return given[0]?.[1];
}

/**
 * The validator the application provides (`TOOLWRIGHT_VALIDATOR`, or a `validator` member of the
 * call or compile options), or `undefined`.
 */
function validatorOf(lookup: ProviderLookup): SchemaValidator | undefined {
  return single('validator', [
    [TOOLWRIGHT_VALIDATOR, lookup(TOOLWRIGHT_VALIDATOR)],
    [TOOLWRIGHT_CALL_OPTIONS, providedObject(lookup, TOOLWRIGHT_CALL_OPTIONS)?.validator],
    [TOOLWRIGHT_COMPILE_OPTIONS, providedObject(lookup, TOOLWRIGHT_COMPILE_OPTIONS)?.validator],
  ]) as SchemaValidator | undefined;
}

/**
 * The options every discovered tool is compiled with: the `TOOLWRIGHT_COMPILE_OPTIONS` provider,
 * with the application's validator (see `validatorOf`). Throws a `TypeError` for options that set
 * `resolve` or `resolveForCall` (the module makes the instances through Nest).
 */
export function compileOptionsOf(lookup: ProviderLookup): Omit<CompileOptions, 'resolve' | 'resolveForCall'> {
  const given = providedObject(lookup, TOOLWRIGHT_COMPILE_OPTIONS) ?? {};
  if ('resolve' in given || 'resolveForCall' in given) {
    throw new TypeError(
      'ToolwrightModule: the TOOLWRIGHT_COMPILE_OPTIONS provider must not set "resolve" or "resolveForCall": the module makes the instances through Nest',
    );
  }
  const validator = validatorOf(lookup);
  return { ...given, ...(validator === undefined ? {} : { validator }) };
}

/**
 * The call core's options of every served tool: the `TOOLWRIGHT_CALL_OPTIONS` provider, with the
 * policy of `TOOLWRIGHT_POLICY` (which must be a `PermissionPolicy`), the `maxOutputChars` of
 * `TOOLWRIGHT_OUTPUT_LIMITS` and the application's validator. An option given by two providers
 * is a `TypeError` naming both (see `single`); bad values are left to the call core, which names
 * the option when the tools are prepared.
 */
export function callOptionsOf(lookup: ProviderLookup): CallCoreOptions {
  const given = providedObject(lookup, TOOLWRIGHT_CALL_OPTIONS) ?? {};
  const policy = lookup(TOOLWRIGHT_POLICY);
  if (policy !== undefined && !(policy instanceof PermissionPolicy))
    throw new TypeError(
      'ToolwrightModule: the TOOLWRIGHT_POLICY provider must be a PermissionPolicy (see createPolicy)',
    );
  const limits = providedObject(lookup, TOOLWRIGHT_OUTPUT_LIMITS) as ToolwrightOutputLimits | undefined;
  const options: Record<string, unknown> = { ...given };
  options.policy = single('policy', [
    [TOOLWRIGHT_CALL_OPTIONS, given.policy],
    [TOOLWRIGHT_POLICY, policy],
  ]);
  options.maxOutputChars = single('maxOutputChars', [
    [TOOLWRIGHT_CALL_OPTIONS, given.maxOutputChars],
    [TOOLWRIGHT_OUTPUT_LIMITS, limits?.maxOutputChars],
  ]);
  options.validator = validatorOf(lookup);
  for (const key of Object.keys(options)) if (options[key] === undefined) delete options[key];
  return options as CallCoreOptions;
}

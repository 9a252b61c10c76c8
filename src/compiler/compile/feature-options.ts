import { kindOf } from '../../util/describe.js';
import { isPositiveInteger } from '../../util/limits.js';
import { checkValidatorOption } from '../validation/validator.js';
import type { CompileOptions } from './compile.js';

/**
 * The options of `compileResources` and `compilePrompts`: how instances are made (`resolve`, or
 * `resolveForCall` for one per call) and how the arguments (or variables) classes are validated
 * (`validator`, `maxDepth`), exactly as for `compile`.
 */
export type FeatureCompileOptions = Pick<CompileOptions, 'resolve' | 'resolveForCall' | 'validator' | 'maxDepth'>;

const KNOWN: ReadonlySet<string> = new Set(['resolve', 'resolveForCall', 'validator', 'maxDepth']);

/** Throws a `TypeError` beginning with `where` naming a bad option, before any class is read. */
export function checkFeatureOptions(options: FeatureCompileOptions, where: string): void {
  if (typeof options !== 'object' || options === null)
    throw new TypeError(`${where}: the options must be an object, got ${kindOf(options)}`);
  for (const key of Object.keys(options))
    if (!KNOWN.has(key))
      throw new TypeError(`${where}: unknown option ${JSON.stringify(key)} (known options: ${[...KNOWN].join(', ')})`);
  if (options.resolve !== undefined && typeof options.resolve !== 'function')
    throw new TypeError(`${where}: "resolve" must be a function (cls) => instance, got ${kindOf(options.resolve)}`);
  if (options.resolveForCall !== undefined && typeof options.resolveForCall !== 'function')
    throw new TypeError(
      `${where}: "resolveForCall" must be a function (cls, ctx) => instance, got ${kindOf(options.resolveForCall)}`,
    );
  if (options.resolve !== undefined && options.resolveForCall !== undefined)
    throw new TypeError(
      `${where}: give "resolve" (one instance per class) or "resolveForCall" (one per call), not both`,
    );
  checkValidatorOption(options.validator, where);
  if (options.maxDepth !== undefined && !isPositiveInteger(options.maxDepth))
    throw new TypeError(
      `${where}: "maxDepth" must be a positive integer (the deepest nesting of arguments accepted), got ${String(options.maxDepth)}`,
    );
}

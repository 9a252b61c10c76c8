import { DecoratorError, isJsonObject } from '../contract/index.js';
import { kindOf } from '../util/describe.js';

/** Describes a decorator target in an error message ("member Foo.bar", "class Foo", ...). */
export function describeTarget(args: readonly unknown[]): string {
  const [target, key] = args;
  const owner =
    typeof target === 'function'
      ? target.name
      : ((target as { constructor?: { name?: string } } | undefined)?.constructor?.name ?? typeof target);
  if (key === undefined)
    return typeof target === 'function' ? `class ${owner || '(anonymous)'}` : String(typeof target);
  return `member ${owner}.${String(key)}`;
}

/**
 * Checks that a legacy decorator was applied to a class and returns the class; throws a
 * `DecoratorError` naming the decorator and where it landed otherwise.
 */
export function classTarget(decorator: string, args: readonly unknown[]): Function {
  if (args.length === 1 && typeof args[0] === 'function') return args[0];
  throw new DecoratorError(`${decorator} decorates a class, but it was applied to ${describeTarget(args)}`);
}

/** Checks that a legacy decorator was applied to an instance property; returns the class and the name. */
export function propertyTarget(decorator: string, args: readonly unknown[]): { cls: Function; property: string } {
  return { cls: propertyClass(decorator, args[0], args[1], args[2]), property: args[1] as string };
}

/**
 * `propertyTarget` for a decorator that takes its three arguments one by one: checks that it was
 * applied to an instance property (`key`, then, is its name) and returns the class.
 */
export function propertyClass(decorator: string, target: unknown, key: unknown, descriptor: unknown): Function {
  if (
    typeof target === 'object' &&
    target !== null &&
    typeof key === 'string' &&
    (descriptor === undefined ||
      (typeof descriptor === 'object' &&
        descriptor !== null &&
        !('value' in descriptor && typeof (descriptor as PropertyDescriptor).value === 'function')))
  ) {
    return (target as { constructor: Function }).constructor;
  }
  throw new DecoratorError(
    `${decorator} decorates an instance property of an arguments class, but it was applied to ${describeTarget([target, key])}`,
  );
}

/** Checks that a legacy decorator was applied to an instance method; returns the class and the name. */
export function methodTarget(decorator: string, args: readonly unknown[]): { cls: Function; method: string | symbol } {
  const [target, key, descriptor] = args;
  if (
    typeof target === 'object' &&
    target !== null &&
    (typeof key === 'string' || typeof key === 'symbol') &&
    typeof descriptor === 'object' &&
    descriptor !== null &&
    typeof (descriptor as PropertyDescriptor).value === 'function'
  ) {
    return { cls: (target as { constructor: Function }).constructor, method: key };
  }
  throw new DecoratorError(`${decorator} decorates an instance method, but it was applied to ${describeTarget(args)}`);
}

/** Throws unless `options` is a plain object whose keys are all in `allowed`. */
export function plainOptions(decorator: string, options: unknown, allowed: readonly string[]): Record<string, unknown> {
  if (!isJsonObject(options)) {
    throw new DecoratorError(`${decorator} takes an options object, got ${kindOf(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (!allowed.includes(key))
      throw new DecoratorError(`${decorator} has no option "${key}" (known options: ${allowed.join(', ')})`);
  }
  return options as Record<string, unknown>;
}

/** Throws unless `value` is a boolean or undefined. */
export function optionalBoolean(decorator: string, name: string, value: unknown): void {
  if (value !== undefined && typeof value !== 'boolean')
    throw new DecoratorError(`${decorator}: "${name}" must be a boolean, got ${kindOf(value)}`);
}

/** Throws unless `value` is a string or undefined. */
export function optionalString(decorator: string, name: string, value: unknown): void {
  if (value !== undefined && typeof value !== 'string')
    throw new DecoratorError(`${decorator}: "${name}" must be a string, got ${kindOf(value)}`);
}

/**
 * Runs a decorator factory's argument checks at once and returns a function that, when the
 * decorator is applied, either returns the checked value or throws the problem found, now naming
 * where the decorator was applied: `@Tool(): "description" is required ...` becomes
 * `@Tool() on class FooTool: "description" is required ...`. A decorator factory is applied as
 * soon as the class is defined, so a mistake still fails while the class is being defined; the
 * error only waits long enough to name the class. Errors that are not a `DecoratorError` are
 * thrown at once, unchanged.
 */
export function checkOnApply<T>(decorator: string, check: () => T): (args: readonly unknown[]) => T {
  const checked = checkNow(decorator, check, undefined);
  if (checked instanceof DeferredProblem) return (args) => checked.throwAt(args);
  return () => checked;
}

/**
 * `checkOnApply` without its closures, for the decorators applied most: `check(arg)`'s answer, or
 * the `DeferredProblem` the decorator throws (with `throwAt`) when it is applied.
 */
export function checkNow<A, T>(decorator: string, check: (arg: A) => T, arg: A): T | DeferredProblem {
  try {
    return check(arg);
  } catch (err) {
    if (!(err instanceof DecoratorError)) throw err;
    const rest = err.message.startsWith(`${decorator}: `)
      ? err.message.slice(decorator.length + 2)
      : err.message.startsWith(`${decorator} `)
        ? err.message.slice(decorator.length + 1)
        : err.message;
    return new DeferredProblem(decorator, rest);
  }
}

/**
 * What `checkNow` answered, for a decorator being applied to `args`: the checked value, or its
 * `DeferredProblem` thrown, naming where the decorator landed.
 */
export function checkedFor<T>(checked: T | DeferredProblem, args: readonly unknown[]): T {
  return checked instanceof DeferredProblem ? checked.throwAt(args) : checked;
}

/** A problem `checkNow` found in a decorator factory's argument, thrown when the decorator is applied. */
export class DeferredProblem {
  constructor(
    private readonly decorator: string,
    private readonly rest: string,
  ) {}

  /** Throws the problem as a `DecoratorError` naming where the decorator landed (the decorator's `args`). */
  throwAt(args: readonly unknown[]): never {
    throw new DecoratorError(`${this.decorator} on ${describeTarget(args)}: ${this.rest}`);
  }
}

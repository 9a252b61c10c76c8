import { DecoratorError } from '../contract/index.js';
import { checkOnApply, methodTarget } from './guards.js';
import { addCompleter, getCompleters } from './feature-metadata.js';
import { shown } from './feature-options.js';

const DECORATOR = '@Complete()';

/**
 * Marks the method that completes one argument of a `@Prompt` class, or one variable of a
 * `@ResourceTemplate` class (MCP `completion/complete`): `method(value, request, ctx)` gets what
 * the user typed so far, the whole request (`{ argument, value, arguments }`, the other
 * arguments already filled in) and the call context, and returns the values (best first) or
 * `{ values, total?, hasMore? }`; more than 100 values are cut to 100 with `hasMore: true`.
 * `compilePrompts` and `compileResources` check that the argument exists. Throws a
 * `DecoratorError` at once for an empty name, a target that is not a method, or a second
 * method for the same argument.
 */
export function Complete(argument: string): MethodDecorator {
  const checked = checkOnApply(DECORATOR, () => {
    if (typeof argument !== 'string' || argument.trim() === '')
      throw new DecoratorError(
        `${DECORATOR}: the argument (or variable) to complete must be a non-empty string, got ${shown(argument)}`,
      );
    return argument;
  });
  return (...args: unknown[]) => {
    const { cls, method } = methodTarget(DECORATOR, args);
    const name = checked(args);
    const existing = getCompleters(cls).get(name);
    if (existing !== undefined && existing !== method)
      throw new DecoratorError(
        `${DECORATOR}: ${cls.name} already completes ${JSON.stringify(name)} with ${String(existing)}(); one method completes one argument`,
      );
    addCompleter(cls, name, method);
  };
}

/** The plain-function twin of `@Complete()`: marks `method` of `cls` as the completer of `argument`. */
export function defineComplete(cls: Function, argument: string, method: string): void {
  const descriptor = Object.getOwnPropertyDescriptor(cls.prototype, method);
  Complete(argument)(cls.prototype, method, descriptor ?? { value: undefined });
}

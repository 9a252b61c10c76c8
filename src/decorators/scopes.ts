import { DecoratorError } from '../contract/index.js';
import { classTarget } from './guards.js';
import { addClaims, getClaims } from './metadata.js';

/** An RFC 6749 scope token: printable ASCII without space, `"` or `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** Whether `value` is an RFC 6749 scope token (a non-empty string of printable ASCII without space, `"` or `\`). */
export function isScopeToken(value: unknown): value is string {
  return typeof value === 'string' && SCOPE_TOKEN.test(value);
}

/**
 * Checks scope names for `decorator` and returns them frozen, without duplicates, in the order
 * given. Throws a `DecoratorError` naming the decorator when none is given or one is not an
 * RFC 6749 scope token (an empty string, a space, a quote, a backslash, a non-string).
 */
export function checkScopes(
  decorator: string,
  scopes: readonly unknown[],
  example = decorator.replace('()', "('issues:write')"),
): readonly string[] {
  if (scopes.length === 0) throw new DecoratorError(`${decorator}: name at least one scope, such as ${example}`);
  for (const scope of scopes) {
    if (!isScopeToken(scope)) {
      throw new DecoratorError(
        `${decorator}: a scope must be a non-empty string of printable ASCII without spaces, quotes or backslashes (RFC 6749), got ${JSON.stringify(scope) ?? typeof scope}`,
      );
    }
  }
  return Object.freeze([...new Set(scopes as readonly string[])]);
}

/**
 * States the OAuth scopes a caller's token must hold to call the tool (all of them; the
 * contract's `scopes`). An HTTP edge served with `auth` refuses a call whose token lacks one
 * with `403 insufficient_scope` before `execute` runs; hosts without a principal (stdio, in
 * process) do not check scopes. Used twice on a class, the scopes add up. Throws a
 * `DecoratorError` at once for no scope, a scope that is not an RFC 6749 scope token, or a
 * non-class target.
 */
export function Scopes(...scopes: string[]): ClassDecorator {
  const checked = checkScopes('@Scopes()', scopes);
  return (...args: unknown[]) => {
    const cls = classTarget('@Scopes()', args);
    const current = getClaims(cls).scopes ?? [];
    addClaims(cls, { scopes: Object.freeze([...new Set([...current, ...checked])]) });
  };
}

/** The plain-function twin of `@Scopes(...)`: states the scopes the tool class `cls` needs. */
export function defineScopes(cls: Function, ...scopes: string[]): void {
  Scopes(...scopes)(cls);
}

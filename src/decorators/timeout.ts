import { DecoratorError } from '../contract/index.js';
import { MAX_TIMEOUT_MS } from '../util/limits.js';
import { checkOnApply, classTarget } from './guards.js';
import { addClaims } from './metadata.js';

function checkMs(decorator: string, ms: unknown): number {
  if (typeof ms !== 'number' || !Number.isInteger(ms) || ms < 1 || ms > MAX_TIMEOUT_MS) {
    throw new DecoratorError(
      `${decorator}: the limit must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}, got ${typeof ms === 'number' ? String(ms) : (JSON.stringify(ms) ?? typeof ms)}`,
    );
  }
  return ms;
}

/**
 * Gives every call of the tool a time limit in milliseconds (the contract's `timeoutMs`). When
 * it passes, the host aborts the call's signal and completes the call with a timeout error,
 * whether or not the tool stops. It wins over a host's default limit. Throws a `DecoratorError`
 * naming the class, as the class is defined, for anything but a whole number from 1 to
 * 2147483647, or on a non-class target.
 */
export function Timeout(ms: number): ClassDecorator {
  const checked = checkOnApply('@Timeout()', () => checkMs('@Timeout()', ms));
  return (...args: unknown[]) => {
    const cls = classTarget('@Timeout()', args);
    addClaims(cls, { timeoutMs: checked(args) });
  };
}

/** The plain-function twin of `@Timeout(ms)`: gives the tool class `cls` a time limit. */
export function defineTimeout(cls: Function, ms: number): void {
  Timeout(ms)(cls);
}

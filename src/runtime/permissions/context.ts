import type { CallContext } from '../../contract/index.js';
import { carryMember } from '../../contract/internal.js';

/**
 * A copy of `ctx` with some members replaced, frozen like the contexts `createCallContext`
 * makes. Every enumerable member of `ctx` (own or inherited) is carried over, so a host's
 * additions survive: an own getter stays a getter (an executor's lazy `signal` stays lazy), every
 * other member is copied by value. `ctx` itself is never changed.
 */
export function contextWith(ctx: CallContext, overrides: Partial<CallContext>): CallContext {
  const source = ctx as unknown as Record<string, unknown>;
  const copy: Record<string, unknown> = {};
  for (const key in source) {
    if (Object.prototype.hasOwnProperty.call(overrides, key)) continue;
    carryMember(source, copy, key);
  }
  return Object.freeze(Object.assign(copy, overrides)) as unknown as CallContext;
}

/** Throws the signal's reason (or `the call was cancelled`) when `signal` has fired. */
export function throwIfAborted(signal: AbortSignal): void {
  if (!signal.aborted) return;
  throw signal.reason instanceof Error ? signal.reason : new Error('the call was cancelled');
}

import type { CallContext } from '../../contract/index.js';

/**
 * A copy of `ctx` with some members replaced, frozen like the contexts `createCallContext`
 * makes. Every member of `ctx` is carried over, so a host's additions survive: own members with
 * their descriptors (a lazy `signal` getter stays lazy), inherited enumerable ones by value.
 * `ctx` itself is never changed.
 */
export function contextWith(ctx: CallContext, overrides: Partial<CallContext>): CallContext {
  const copy: Record<string, unknown> = {};
  for (const key in ctx) {
    if (!Object.prototype.hasOwnProperty.call(ctx, key)) copy[key] = (ctx as unknown as Record<string, unknown>)[key];
  }
  const descriptors: Record<string, PropertyDescriptor> = Object.getOwnPropertyDescriptors(ctx);
  for (const key of Object.keys(overrides)) delete descriptors[key];
  Object.defineProperties(copy, descriptors);
  for (const [key, value] of Object.entries(overrides)) Object.defineProperty(copy, key, { value, enumerable: true, configurable: false, writable: false });
  return Object.freeze(copy) as unknown as CallContext;
}

/** Throws the signal's reason (or `the call was cancelled`) when `signal` has fired. */
export function throwIfAborted(signal: AbortSignal): void {
  if (!signal.aborted) return;
  throw signal.reason instanceof Error ? signal.reason : new Error('the call was cancelled');
}

import type { CallContext } from '../../contract/index.js';

/**
 * A copy of `ctx` with some members replaced, frozen like the contexts `createCallContext`
 * makes. Every member of `ctx` (own or inherited, as `for...in` lists them) is carried over, so
 * a host's additions survive; `ctx` itself is never changed.
 */
export function contextWith(ctx: CallContext, overrides: Partial<CallContext>): CallContext {
  const copy: Record<string, unknown> = {};
  for (const key in ctx) copy[key] = (ctx as unknown as Record<string, unknown>)[key];
  return Object.freeze(Object.assign(copy, overrides)) as unknown as CallContext;
}

/** Throws the signal's reason (or `the call was cancelled`) when `signal` has fired. */
export function throwIfAborted(signal: AbortSignal): void {
  if (!signal.aborted) return;
  throw signal.reason instanceof Error ? signal.reason : new Error('the call was cancelled');
}

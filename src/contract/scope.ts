/**
 * Whose state something is: one vocabulary for every piece of state that belongs to someone
 * (remembered permission decisions, server-side scheduling).
 *
 * - `'session'`: one client connection (a stdio process, one streamable HTTP session). A
 *   stateless request has no session of its own.
 * - `'principal'`: the authenticated user or agent behind the call, across its sessions (set by
 *   an auth layer as `ctx.principal`); without one, the session.
 * - `'server'`: everyone served by the same process shares it.
 */
export type StateScope = 'session' | 'principal' | 'server';

/** The scopes, in order from narrowest to widest. */
export const STATE_SCOPES: readonly StateScope[] = Object.freeze(['session', 'principal', 'server']);

/** True for one of `STATE_SCOPES`. */
export function isStateScope(value: unknown): value is StateScope {
  return value === 'session' || value === 'principal' || value === 'server';
}

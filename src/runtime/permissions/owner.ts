import { principalKey, type CallContext, type Session, type StateScope } from '../../contract/index.js';

/**
 * Who a remembered ("always") permission decision belongs to:
 * - `server`: the policy-wide memory, shared by every caller;
 * - `principal`: one authenticated principal, by its id, across its sessions;
 * - `session`: one connection, by its session object (kept in a `WeakMap`, so it goes away
 *   with the connection);
 * - `none`: nobody the decision could be kept for (a stateless HTTP request without a
 *   principal): "always" is applied as "once", never wider.
 */
export type DecisionOwner =
  | { readonly kind: 'server' }
  | { readonly kind: 'principal'; readonly id: string }
  | { readonly kind: 'session'; readonly session: Session }
  | { readonly kind: 'none' };

/** The policy-wide owner. */
export const SERVER_OWNER: DecisionOwner = Object.freeze({ kind: 'server' });
const NO_OWNER: DecisionOwner = Object.freeze({ kind: 'none' });

/**
 * The id of the principal a call runs for, or `undefined`: the context's `principal`, when an
 * auth layer set one, given as a non-empty string or as an object with a non-empty string `id`.
 */
export function principalIdOf(ctx: CallContext | undefined): string | undefined {
  const principal = ctx?.principal;
  return principal === undefined ? undefined : principalKey(principal);
}

/**
 * True for the session of a stateless HTTP request: an `http` session without an id (a fresh
 * session object per request, so nothing could be remembered for it).
 */
function isStatelessSession(session: Session): boolean {
  return session.transport === 'http' && session.id === '';
}

/**
 * Whom an "always" answer given on `ctx` belongs to, under `scope`:
 * - `'server'`: the policy-wide memory, whoever asked.
 * - `'principal'` (and the default, `undefined`): the call's principal when it has one, else
 *   as `'session'`.
 * - `'session'`: the call's session; a stateless HTTP request (no session id) has none, so its
 *   "always" counts as "once".
 * A call with no session at all runs in process (the executor, the CLI): the process is its
 * only user, so its decisions go to the policy-wide memory under every scope.
 */
export function decisionOwnerOf(ctx: CallContext | undefined, scope: StateScope | undefined): DecisionOwner {
  if (scope === 'server') return SERVER_OWNER;
  if (scope !== 'session') {
    const principal = principalIdOf(ctx);
    if (principal !== undefined) return { kind: 'principal', id: principal };
  }
  const session = ctx?.session;
  if (session === undefined) return SERVER_OWNER;
  if (isStatelessSession(session)) return NO_OWNER;
  return { kind: 'session', session };
}

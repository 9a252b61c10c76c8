import type { Principal } from './context.js';

/**
 * The identity key of a principal: its issuer and subject, as one string (a JSON array). Two
 * tokens of one user (a refreshed token, another client of the same user) share it; tokens of two
 * users, or of two issuers, never do. A principal whose token named no user (`clientOnly`: the
 * subject is the client id) has a key of its own (`[issuer, subject, "client"]`), so a client
 * whose id equals a user's `sub` never shares that user's sessions or remembered answers. Use it
 * to key per-user state (a session's owner, remembered permission decisions with scope
 * `'principal'`), never the token itself.
 */
export function principalKey(principal: Pick<Principal, 'issuer' | 'subject' | 'clientOnly'>): string {
  return principal.clientOnly === true
    ? JSON.stringify([principal.issuer ?? '', principal.subject, 'client'])
    : JSON.stringify([principal.issuer ?? '', principal.subject]);
}

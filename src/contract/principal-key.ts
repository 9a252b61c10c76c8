import type { Principal } from './context.js';

/**
 * The identity key of a principal: its issuer and subject, as one string (a JSON array). Two
 * tokens of one user (a refreshed token, another client of the same user) share it; tokens of two
 * users, or of two issuers, never do. Use it to key per-user state (a session's owner,
 * remembered permission decisions with scope `'principal'`), never the token itself.
 */
export function principalKey(principal: Pick<Principal, 'issuer' | 'subject'>): string {
  return JSON.stringify([principal.issuer ?? '', principal.subject]);
}

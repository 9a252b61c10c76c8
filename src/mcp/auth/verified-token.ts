import type { JsonObject } from '../../contract/index.js';

/**
 * What a token verifier learned from an access token it accepted. The HTTP edge then checks,
 * the same way for every verifier: `audience` must name this server's resource URL, `issuer`
 * (when both the token and the options name one) must be the configured issuer, the token must
 * name a `subject` or a `clientId` (a token naming neither is refused: it would be nobody's,
 * and two such tokens would share one principal), `expiresAt` must be present and in the
 * future, and the server's required scopes must be in `scopes`.
 */
export interface VerifiedToken {
  /** The user the token speaks for (`sub`); absent (or `''`) for a token that names no user. */
  readonly subject?: string;
  /** The OAuth client the token was issued to (`client_id`, `azp`); `''` when it names none. */
  readonly clientId: string;
  /** The scopes granted. */
  readonly scopes: readonly string[];
  /** Expiry in seconds since the epoch (`exp`); a token without one is refused. */
  readonly expiresAt: number | undefined;
  /** The audiences the token was issued for (`aud`). */
  readonly audience: readonly string[];
  /** The issuer (`iss`), when the token names one. */
  readonly issuer?: string;
  /** Every claim, for `ctx.principal.claims`. */
  readonly claims: JsonObject;
}

/**
 * Verifies one access token (the string after `Bearer `). Resolves what the token says, or
 * rejects with `invalidToken(description)` for a token it refuses (bad signature, unknown,
 * revoked, expired); any other rejection (the issuer's keys cannot be fetched, ...) answers the
 * request `500 server_error`. `jwtVerifier` and `introspectionVerifier` build one; a host may
 * write its own.
 */
export type TokenVerifier = (token: string) => Promise<VerifiedToken>;

/**
 * A token verifier's refusal of a token: the request is answered `401 invalid_token` with the
 * message as description.
 */
export class TokenRejectedError extends Error {
  override readonly name = 'TokenRejectedError';
  readonly code = 'invalid_token';
}

/** The rejection a `TokenVerifier` uses for a token it refuses: `401 invalid_token` with `description`. */
export function invalidToken(description: string): TokenRejectedError {
  return new TokenRejectedError(description);
}

/**
 * Who a verified token speaks for: its `subject`, else its `clientId` (a client-credentials
 * token's subject is its client), or `undefined` when it names neither (empty strings count as
 * absent). The HTTP edge refuses a token without one; `principalOfToken` never builds a
 * principal without one.
 */
export function identityOf(token: Pick<VerifiedToken, 'subject' | 'clientId'>): string | undefined {
  if (typeof token.subject === 'string' && token.subject !== '') return token.subject;
  if (typeof token.clientId === 'string' && token.clientId !== '') return token.clientId;
  return undefined;
}

/** The scopes of a `scope` claim (space-separated, RFC 8693/9068) or an `scp` array, in order. */
export function scopesOfClaims(claims: JsonObject): string[] {
  if (typeof claims.scope === 'string') return claims.scope.split(' ').filter((s) => s !== '');
  if (Array.isArray(claims.scp)) return claims.scp.filter((s): s is string => typeof s === 'string');
  return [];
}

/** The audiences of an `aud` claim (a string or an array of strings). */
export function audiencesOfClaims(claims: JsonObject): string[] {
  if (typeof claims.aud === 'string') return [claims.aud];
  if (Array.isArray(claims.aud)) return claims.aud.filter((a): a is string => typeof a === 'string');
  return [];
}

/** Builds a `VerifiedToken` from a JWT payload or an RFC 7662 introspection answer. */
export function verifiedTokenOfClaims(claims: JsonObject): VerifiedToken {
  const clientId =
    typeof claims.client_id === 'string' ? claims.client_id : typeof claims.azp === 'string' ? claims.azp : '';
  return {
    ...(typeof claims.sub === 'string' && claims.sub !== '' ? { subject: claims.sub } : {}),
    clientId,
    scopes: scopesOfClaims(claims),
    expiresAt: typeof claims.exp === 'number' ? claims.exp : undefined,
    audience: audiencesOfClaims(claims),
    ...(typeof claims.iss === 'string' ? { issuer: claims.iss } : {}),
    claims,
  };
}

import type { JWTVerifyGetKey } from 'jose';
import type { JsonObject } from '../../contract/index.js';
import { discoverAuthorizationServer } from './discovery.js';
import { invalidToken, verifiedTokenOfClaims, type TokenVerifier } from './verified-token.js';

/** Options of `jwtVerifier`. */
export interface JwtVerifierOptions {
  /** The authorization server's issuer identifier; its metadata names the JWKS when `jwksUri` is not given. */
  readonly issuer: string;
  /**
   * The issuer's JSON Web Key Set URL. Default: `jwks_uri` from the issuer's metadata (RFC 8414,
   * then OpenID discovery).
   */
  readonly jwksUri?: string;
  /** The signature algorithms accepted. Default: the asymmetric ones jose supports (never `none`, never HMAC). */
  readonly algorithms?: readonly string[];
  /** Seconds of clock skew tolerated on `exp` and `nbf`. Default 0. */
  readonly clockToleranceSec?: number;
  /** The current time in milliseconds since the epoch, for the `exp` and `nbf` checks. Default `Date.now`. */
  readonly now?: () => number;
}

const ASYMMETRIC_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
];

/**
 * A `TokenVerifier` for JWT access tokens (RFC 9068) signed by the issuer's keys, checked with
 * `jose`: the signature against the issuer's JWKS (fetched once, cached, refetched for an
 * unknown key id), the algorithm, `exp` and `nbf`. The audience and the issuer are checked by
 * the HTTP edge, the same way for every verifier. Refuses, as `401 invalid_token`:
 * `Token has expired`, `Token is not valid yet`, `Token signature is invalid` (also for a key
 * the issuer does not publish), `Token is not a valid JWT: <why>`. A JWKS or metadata that
 * cannot be fetched rejects with a plain error (the request gets `500 server_error`).
 */
export function jwtVerifier(options: JwtVerifierOptions): TokenVerifier {
  if (typeof options.issuer !== 'string' || options.issuer === '')
    throw new TypeError("jwtVerifier: issuer must be the authorization server's issuer URL");
  const now = options.now ?? Date.now;
  let keys: JWTVerifyGetKey | undefined;
  const keySet = async (jose: Jose): Promise<JWTVerifyGetKey> => {
    if (keys !== undefined) return keys;
    const jwksUri = options.jwksUri ?? (await discoverAuthorizationServer(options.issuer)).jwks_uri;
    if (typeof jwksUri !== 'string')
      throw new Error(`jwtVerifier: the metadata of ${options.issuer} names no jwks_uri; pass jwksUri`);
    keys = jose.createRemoteJWKSet(new URL(jwksUri));
    return keys;
  };
  return async (token: string) => {
    // jose is loaded on first use, so a server without auth never pays for it.
    const jose = await import('jose');
    const getKey = await keySet(jose);
    try {
      const { payload } = await jose.jwtVerify(token, getKey, {
        algorithms: [...(options.algorithms ?? ASYMMETRIC_ALGORITHMS)],
        clockTolerance: options.clockToleranceSec ?? 0,
        currentDate: new Date(now()),
      });
      return verifiedTokenOfClaims(payload as JsonObject);
    } catch (error) {
      throw refusalOf(jose.errors, error);
    }
  };
}

type Jose = typeof import('jose');

/** Maps jose's errors to `invalid_token` refusals; anything else (a network failure) passes unchanged. */
function refusalOf(joseErrors: Jose['errors'], error: unknown): unknown {
  if (error instanceof joseErrors.JWTExpired) return invalidToken('Token has expired');
  if (error instanceof joseErrors.JWTClaimValidationFailed && error.claim === 'nbf')
    return invalidToken('Token is not valid yet');
  if (error instanceof joseErrors.JWSSignatureVerificationFailed || error instanceof joseErrors.JWKSNoMatchingKey)
    return invalidToken('Token signature is invalid');
  if (
    error instanceof joseErrors.JWTInvalid ||
    error instanceof joseErrors.JWSInvalid ||
    error instanceof joseErrors.JOSEAlgNotAllowed ||
    error instanceof joseErrors.JWTClaimValidationFailed ||
    error instanceof joseErrors.JOSENotSupported
  ) {
    return invalidToken(`Token is not a valid JWT: ${error.message}`);
  }
  return error;
}

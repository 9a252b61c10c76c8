import type { JWTHeaderParameters, JWTVerifyGetKey } from 'jose';
import type { JsonObject } from '../../contract/index.js';
import { discoverAuthorizationServer } from './discovery.js';
import { FetchGuard, failedFetchCacheMsOf } from './fetch-guard.js';
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
  /**
   * The current time in milliseconds since the epoch, for the `exp` and `nbf` checks and
   * `failedFetchCacheMs`. Default `Date.now`.
   */
  readonly now?: () => number;
  /**
   * Require the `typ` header RFC 9068 §2.1 gives JWT access tokens: `at+jwt` (or
   * `application/at+jwt`). Default `true`: a JWT of another type (an ID token, `typ: JWT`) is
   * refused even when signed by the issuer. Set `false` only for an issuer that does not type
   * its access tokens: a `typ` of `JWT` (or `application/jwt`) or none is then accepted too (any
   * other `typ` still is not), and nothing but the audience check tells such an issuer's ID
   * tokens from its access tokens.
   */
  readonly requireAtJwtTyp?: boolean;
  /**
   * How long a failed fetch of the issuer's metadata or JWKS is remembered, in milliseconds:
   * requests in that window are answered `500` at once, without fetching again. Default 5,000
   * (`DEFAULT_FAILED_FETCH_CACHE_MS`); 0 remembers nothing. Concurrent fetches are always
   * coalesced into one.
   */
  readonly failedFetchCacheMs?: number;
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
 * A `TokenVerifier` for JWT access tokens following the JWT access-token profile (RFC 9068),
 * signed by the issuer's keys, checked with `jose`: the `typ` header (`at+jwt`, see
 * `requireAtJwtTyp`), the algorithm, the signature against the issuer's JWKS (fetched when
 * first needed, cached, refetched for an unknown key id at most every 30 s), `iss` (required,
 * exactly the issuer), `exp` (required) and `nbf`. The audience, a subject or client id, and
 * the expiry again are checked by the HTTP edge, the same way for every verifier. Refuses, as
 * `401 invalid_token`: `Token has expired`, `Token is not valid yet`, `Token has no expiration
 * time`, `Token has no issuer (iss)`, `Token was not issued by <issuer>`, `Token is not a JWT
 * access token: typ is "JWT", expected "at+jwt" (RFC 9068)` (or `typ is missing`), `Token
 * signature is invalid` (also for a key the issuer does not publish), `Token is not a valid
 * JWT: <why>`. A token that is refused for its form, type or algorithm never causes a fetch.
 * A JWKS or metadata that cannot be fetched rejects with a plain error (the request gets
 * `500 server_error`); that failure is remembered for `failedFetchCacheMs` and concurrent
 * fetches are coalesced (see `FetchGuard`), so garbage tokens sent while the issuer is down
 * cause at most one metadata attempt (two URLs) and one JWKS fetch per window. Throws a
 * `TypeError` naming the option for a missing issuer or a bad `failedFetchCacheMs`.
 */
export function jwtVerifier(options: JwtVerifierOptions): TokenVerifier {
  if (typeof options.issuer !== 'string' || options.issuer === '')
    throw new TypeError("jwtVerifier: issuer must be the authorization server's issuer URL");
  const now = options.now ?? Date.now;
  const guard = new FetchGuard(failedFetchCacheMsOf('jwtVerifier', options.failedFetchCacheMs), now);
  const requireAtJwtTyp = options.requireAtJwtTyp ?? true;
  let keys: JWTVerifyGetKey | undefined;
  const keySet = async (jose: Jose): Promise<JWTVerifyGetKey> => {
    if (keys !== undefined) return keys;
    const jwksUri =
      options.jwksUri ??
      (await guard.shared('metadata', async () => {
        const found = (await discoverAuthorizationServer(options.issuer)).jwks_uri;
        if (typeof found !== 'string')
          throw new Error(`jwtVerifier: the metadata of ${options.issuer} names no jwks_uri; pass jwksUri`);
        return found;
      }));
    keys ??= jose.createRemoteJWKSet(new URL(jwksUri), {
      // jose coalesces concurrent JWKS fetches itself; the guard adds the memory of a failure.
      [jose.customFetch]: async (url, init) => {
        const body = await guard.shared('jwks', async () => {
          const response = await fetch(url, init);
          if (response.status !== 200) {
            await response.body?.cancel();
            throw new Error(`jwtVerifier: the JWKS at ${url} answered HTTP ${response.status}`);
          }
          return response.text();
        });
        return new Response(body, { status: 200, headers: { 'Content-Type': 'application/json' } });
      },
    });
    return keys;
  };
  return async (token: string) => {
    // jose is loaded on first use, so a server without auth never pays for it.
    const jose = await import('jose');
    // jose checks the form and the algorithm before it asks for a key; the type is checked here,
    // so keys are fetched only for a token that could be one of the issuer's access tokens.
    const getKey: JWTVerifyGetKey = async (header, jws) => {
      const typProblem = typProblemOf(header, requireAtJwtTyp);
      if (typProblem !== undefined) throw invalidToken(`Token is not a JWT access token: ${typProblem} (RFC 9068)`);
      return (await keySet(jose))(header, jws);
    };
    try {
      const { payload } = await jose.jwtVerify(token, getKey, {
        algorithms: [...(options.algorithms ?? ASYMMETRIC_ALGORITHMS)],
        clockTolerance: options.clockToleranceSec ?? 0,
        currentDate: new Date(now()),
        issuer: options.issuer,
        requiredClaims: ['exp'],
      });
      return verifiedTokenOfClaims(payload as JsonObject);
    } catch (error) {
      throw refusalOf(jose.errors, error, options.issuer);
    }
  };
}

type Jose = typeof import('jose');

/** Why a JWT's `typ` header is not an access token's, or `undefined` when it is. */
function typProblemOf(header: JWTHeaderParameters, requireAtJwtTyp: boolean): string | undefined {
  const typ = header.typ;
  const normalised = typeof typ === 'string' ? typ.toLowerCase().replace(/^application\//, '') : undefined;
  if (normalised === 'at+jwt') return undefined;
  if (!requireAtJwtTyp && (typ === undefined || normalised === 'jwt')) return undefined;
  const expected = requireAtJwtTyp ? '"at+jwt"' : '"at+jwt", "JWT" or none';
  return `${typ === undefined ? 'typ is missing' : `typ is ${JSON.stringify(typ)}`}, expected ${expected}`;
}

/**
 * Maps jose's errors to `invalid_token` refusals; anything else (a network failure, our own
 * refusals) passes unchanged.
 */
function refusalOf(joseErrors: Jose['errors'], error: unknown, issuer: string): unknown {
  if (error instanceof joseErrors.JWTExpired) return invalidToken('Token has expired');
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    if (error.claim === 'nbf') return invalidToken('Token is not valid yet');
    if (error.claim === 'exp' && error.reason === 'missing') return invalidToken('Token has no expiration time');
    if (error.claim === 'iss')
      return invalidToken(
        error.reason === 'missing' ? 'Token has no issuer (iss)' : `Token was not issued by ${issuer}`,
      );
  }
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

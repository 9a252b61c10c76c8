import { isJsonObject, type JsonObject } from '../../contract/index.js';
import { discoverAuthorizationServer } from './discovery.js';
import { FetchGuard, failedFetchCacheMsOf } from './fetch-guard.js';
import { invalidToken, verifiedTokenOfClaims, type TokenVerifier } from './verified-token.js';

/** Options of `introspectionVerifier`. */
export interface IntrospectionVerifierOptions {
  /** The authorization server's issuer identifier; its metadata names the endpoint when `endpoint` is not given. */
  readonly issuer: string;
  /** The RFC 7662 introspection endpoint. Default: `introspection_endpoint` from the issuer's metadata. */
  readonly endpoint?: string;
  /** This resource server's client id at the authorization server (HTTP Basic authentication). */
  readonly clientId: string;
  /** Its client secret. */
  readonly clientSecret: string;
  /** The longest one introspection request may take, in milliseconds. Default 10 000. */
  readonly timeoutMs?: number;
  /**
   * The current time in milliseconds since the epoch, for the `nbf` check and `failedFetchCacheMs`.
   * Default `Date.now`.
   */
  readonly now?: () => number;
  /**
   * How long a failed fetch of the issuer's metadata (to find the endpoint, when `endpoint` is
   * not given) is remembered, in milliseconds: requests in that window are answered `500` at
   * once, without fetching again. Default 5,000 (`DEFAULT_FAILED_FETCH_CACHE_MS`); 0 remembers
   * nothing. Concurrent fetches are always coalesced into one.
   */
  readonly failedFetchCacheMs?: number;
}

/**
 * A `TokenVerifier` that asks the authorization server about each token (RFC 7662 token
 * introspection: a form POST of `token` and `token_type_hint=access_token`, authenticated with
 * HTTP Basic as `clientId`/`clientSecret`). An answer `active: false` refuses the token as
 * `401 invalid_token` `Token is not active`, and one whose `nbf` is still to come as `Token is
 * not valid yet` (an authorization server should say `active: false` then; this does not rely
 * on it); the answer's `sub`, `client_id`, `scope`, `exp`, `aud` and `iss` become the verified
 * token (the edge then checks audience, issuer, expiry and that it names a subject or client).
 * An endpoint that fails or does not answer a JSON object rejects with a plain error naming it
 * (the request gets `500 server_error`). Answers are not cached: every request asks, once (a
 * failure is not remembered either, since a token could cause one). The endpoint is looked up
 * in the issuer's metadata once (concurrent lookups coalesced); a failed lookup is remembered
 * for `failedFetchCacheMs` (see `FetchGuard`).
 */
export function introspectionVerifier(options: IntrospectionVerifierOptions): TokenVerifier {
  if (typeof options.clientId !== 'string' || typeof options.clientSecret !== 'string')
    throw new TypeError('introspectionVerifier: clientId and clientSecret must be strings');
  const timeoutMs = options.timeoutMs ?? 10_000;
  const now = options.now ?? Date.now;
  const guard = new FetchGuard(failedFetchCacheMsOf('introspectionVerifier', options.failedFetchCacheMs), now);
  const basic = `Basic ${Buffer.from(`${encodeURIComponent(options.clientId)}:${encodeURIComponent(options.clientSecret)}`).toString('base64')}`;
  let endpoint: string | undefined = options.endpoint;
  return async (token: string) => {
    endpoint ??= await guard.shared('metadata', async () => {
      const found = (await discoverAuthorizationServer(options.issuer)).introspection_endpoint;
      if (typeof found !== 'string')
        throw new Error(
          `introspectionVerifier: the metadata of ${options.issuer} names no introspection_endpoint; pass endpoint`,
        );
      return found;
    });
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: {
        Authorization: basic,
        'Content-Type': 'application/x-www-form-urlencoded',
        Accept: 'application/json',
      },
      body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) throw new Error(`token introspection at ${endpoint} answered HTTP ${response.status}`);
    const answer: unknown = await response.json().catch(() => undefined);
    if (!isJsonObject(answer)) throw new Error(`token introspection at ${endpoint} did not answer a JSON object`);
    if (answer.active !== true) throw invalidToken('Token is not active');
    if (typeof answer.nbf === 'number' && answer.nbf * 1000 > now()) throw invalidToken('Token is not valid yet');
    return verifiedTokenOfClaims(answer as JsonObject);
  };
}

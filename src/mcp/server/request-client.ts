import { principalKey } from '../../contract/index.js';
import { principalOf, type AuthInfoLike } from '../auth/principal.js';

/**
 * Whom a request counts against for the bounds kept per client (`maxSessionsPerPrincipal`,
 * `maxSessionsPerAddress`, `inputRounds.maxParkedPerClient`): its verified principal when it has
 * one, else the address it came from. The key is `principal <principalKey>` or `address
 * <address>` (an IPv6 address by its /64 prefix), so a principal and an address never share one.
 */
export interface RequestClient {
  readonly kind: 'principal' | 'address';
  readonly key: string;
  /** The address as counted (`kind: 'address'`), shown in the refusal; `''` for a principal. */
  readonly address: string;
}

/** The client key of a principal's requests (see `RequestClient`). */
export function principalClientKey(principal: string): string {
  return `principal ${principal}`;
}

/** The client of a request with this auth info, else of one from `address` (see `RequestClient`). */
export function requestClient(authInfo: AuthInfoLike | undefined, address: string): RequestClient {
  const principal = principalOf(authInfo);
  if (principal !== undefined)
    return { kind: 'principal', key: principalClientKey(principalKey(principal)), address: '' };
  return { kind: 'address', key: `address ${address}`, address };
}

const recorded = new WeakMap<object, string>();

/**
 * Records the client key of the request the HTTP edge hands the SDK (a web `Request` it built, or
 * the `node:http` request itself), so that the handler serving it (which sees the request as
 * `ctx.http.req`) can tell whom a parked call counts against.
 */
export function recordRequestClient(request: object, key: string): void {
  recorded.set(request, key);
}

/** The client key recorded for `request` (see `recordRequestClient`), else `undefined`. */
export function recordedClientOf(request: unknown): string | undefined {
  return typeof request === 'object' && request !== null ? recorded.get(request) : undefined;
}

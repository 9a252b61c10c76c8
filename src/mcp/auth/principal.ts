import { isJsonObject, ToolwrightError, type JsonObject, type Principal } from '../../contract/index.js';
import { deepFreeze } from '../../util/freeze.js';
import { identityOf, type VerifiedToken } from './verified-token.js';

/**
 * The SDK's `AuthInfo` shape (identical in `@modelcontextprotocol/sdk` 1.x and
 * `@modelcontextprotocol/server` 2.x), as far as toolwright reads it: what a transport hands
 * request handlers as `authInfo`.
 */
export interface AuthInfoLike {
  readonly token: string;
  readonly clientId: string;
  readonly scopes: readonly string[];
  readonly expiresAt?: number;
  readonly resource?: URL;
  readonly extra?: Record<string, unknown>;
}

/** Why a token that names neither a subject nor a client is refused. */
export const NO_IDENTITY =
  'the access token names neither a subject (sub) nor a client (client_id), so it belongs to no principal';

/** Where the HTTP edge keeps the principal it built on the `AuthInfo` it hands the transport. */
export const PRINCIPAL_EXTRA_KEY = 'toolwright/principal';

/**
 * The frozen principal of a verified token (`subject` falls back to the client id, and the
 * principal is then `clientOnly`). Throws a
 * `ToolwrightError` with the code `principal-without-identity` for a token that names neither
 * a subject nor a client id: such a principal would be nobody's, and every such token would
 * share it (its sessions, its remembered answers).
 */
export function principalOfToken(token: VerifiedToken): Principal {
  const subject = identityOf(token);
  if (subject === undefined) throw new ToolwrightError('principal-without-identity', NO_IDENTITY);
  return deepFreeze({
    subject,
    ...(subject !== token.subject ? { clientOnly: true } : {}),
    clientId: token.clientId,
    scopes: [...token.scopes],
    ...(token.expiresAt !== undefined ? { expiresAt: token.expiresAt } : {}),
    ...(token.issuer !== undefined ? { issuer: token.issuer } : {}),
    claims: structuredClone(token.claims),
  });
}

/**
 * The principal of a request's `AuthInfo`: the one toolwright's HTTP edge built, or, for an
 * `AuthInfo` another middleware made (the SDK's `requireBearerAuth` in front of
 * `createHttpHandler`), one built from it (`subject` from `extra.sub`, else the client id;
 * `claims` from `extra`). `undefined` when there is none (stdio, HTTP without auth). Throws
 * (`principal-without-identity`, see `principalOfToken`) for an `AuthInfo` that names neither
 * a subject nor a client: the request then fails rather than run as nobody.
 */
export function principalOf(authInfo: AuthInfoLike | undefined): Principal | undefined {
  if (authInfo === undefined) return undefined;
  const built = authInfo.extra?.[PRINCIPAL_EXTRA_KEY];
  if (built !== undefined) return built as Principal;
  const extra: JsonObject = isJsonObject(authInfo.extra) ? (authInfo.extra as JsonObject) : {};
  return principalOfToken({
    ...(typeof extra.sub === 'string' ? { subject: extra.sub } : {}),
    clientId: authInfo.clientId,
    scopes: authInfo.scopes,
    expiresAt: authInfo.expiresAt,
    audience: authInfo.resource === undefined ? [] : [authInfo.resource.href],
    ...(typeof extra.iss === 'string' ? { issuer: extra.iss } : {}),
    claims: extra,
  });
}

/**
 * True when `authInfo` (another middleware's, see `principalOf`) names neither a subject
 * (`extra.sub`) nor a client: `principalOf` would throw for it. The HTTP edge answers such a
 * request `401` before it reaches a server, so it never runs as nobody and never fails later as
 * an internal error.
 */
export function namesNobody(authInfo: AuthInfoLike | undefined): boolean {
  if (authInfo === undefined || authInfo.extra?.[PRINCIPAL_EXTRA_KEY] !== undefined) return false;
  const sub = authInfo.extra?.sub;
  return (
    identityOf({ ...(typeof sub === 'string' ? { subject: sub } : {}), clientId: authInfo.clientId }) === undefined
  );
}

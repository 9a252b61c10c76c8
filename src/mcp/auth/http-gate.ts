import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo, OAuthMetadata } from '@modelcontextprotocol/server';
import { principalKey, type Principal } from '../../contract/index.js';
import type { AuthOptions } from './options.js';
import { PRINCIPAL_EXTRA_KEY, principalOf, principalOfToken } from './principal.js';
import {
  defaultScopesSupported,
  issuerProblemOf,
  PROTECTED_RESOURCE_METADATA_PATH,
  serveMetadata,
} from './metadata.js';
import { sendOAuthError } from './send-response.js';
import { sendWebResponse } from '../transports/http/web-bridge.js';
import { missingScopes } from './tool-scopes.js';
import { identityOf, TokenRejectedError, type VerifiedToken } from './verified-token.js';

type Sdk = typeof import('@modelcontextprotocol/server');
let sdkLoading: Promise<Sdk> | undefined;
/** The SDK's auth helpers, loaded on the first request of a server with `auth` (never without). */
const sdk = (): Promise<Sdk> => (sdkLoading ??= import('@modelcontextprotocol/server'));

/** What the HTTP handler asks of its auth gate. */
export interface AuthGate {
  /**
   * Serves the protected resource metadata, and refuses a request without a valid token.
   * Resolves `true` when it answered the request itself (the handler then stops), `false` when
   * the request may go on; the verified `AuthInfo` is then on `req.auth`, where the SDK's
   * transports read it (so handlers see it as `authInfo`, and calls as `ctx.principal`).
   */
  admit(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
  /**
   * Answers `403 insufficient_scope` and returns `true` when the body calls a tool the token
   * lacks scopes for. `body` is the request's body as the handler parsed it once; the gate reads
   * only the names of the tools it calls.
   */
  refusesCalls(req: IncomingMessage, res: ServerResponse, body: { calledTools(): readonly string[] }): boolean;
  /** Binds a new session to the principal of the request that created it. */
  bindSession(session: object, req: IncomingMessage): void;
  /**
   * Whether a session belongs to another principal than the request's (the handler then answers
   * 404, as for an unknown session).
   */
  refusesSession(session: object, req: IncomingMessage): boolean;
}

/**
 * The HTTP edge's OAuth 2.1 resource server (MCP authorization 2025-11-25, RFC 6750, RFC 9728),
 * built on the SDK's `verifyBearerToken`, `bearerAuthChallengeResponse` and
 * `buildOAuthProtectedResourceMetadata`. Its answers, every body an OAuth error JSON object
 * (`{"error","error_description"}`) and every challenge naming the metadata URL as
 * `resource_metadata` (and the needed scopes as `scope`, when there are any):
 *
 * - `GET`/`HEAD` `/.well-known/oauth-protected-resource` and its path-suffixed form
 *   (`/.well-known/oauth-protected-resource/mcp` for a resource `.../mcp`): `200` with the
 *   metadata (`resource`, `authorization_servers: [issuer]`, `scopes_supported`,
 *   `bearer_methods_supported: ["header"]`, `resource_name`), CORS open; another method `405`.
 * - A token in the query string (`access_token=`): `400 invalid_request` (OAuth 2.1 forbids it).
 * - No `Authorization` header, or another scheme than Bearer: `401` with a challenge carrying no
 *   error (RFC 6750 §3.1), body `{"error":"unauthorized",...}`.
 * - `Bearer` with anything but exactly one token after it (none, `<token> junk`, a character
 *   outside RFC 6750's token68), or a second `Authorization` header: `401 invalid_token`
 *   `Invalid Authorization header: send exactly one token as Authorization: Bearer <token>`.
 * - A token the verifier refuses, of another audience (`Token was not issued for this
 *   resource`; an audience that differs only by a trailing slash or a fragment is this
 *   resource, as the SDK compares them) or issuer (`Token was not issued by <issuer>`), naming
 *   neither a subject nor a client (`Token names neither a subject (sub) nor a client
 *   (client_id)`), expired (`Token has expired`) or without expiry: `401 invalid_token`.
 * - A token without the server's required scopes: `403 insufficient_scope`.
 * - A verifier failure that is not a refusal: `500 server_error` (the error goes to `onError`).
 *
 * Throws at once (a `TypeError` naming the option) for a missing verifier or issuer, and for an
 * issuer that is not HTTPS outside localhost (unless `allowInsecureIssuer`).
 */
export function createAuthGate(options: AuthOptions, onError: (error: Error) => void = () => {}): AuthGate {
  if (typeof options.verifier !== 'function')
    throw new TypeError(
      'auth.verifier must be a function (token) => Promise<VerifiedToken>, such as jwtVerifier({ issuer })',
    );
  if (typeof options.issuer !== 'string' || options.issuer === '')
    throw new TypeError("auth.issuer must be the authorization server's issuer URL");
  if (options.resource === undefined)
    throw new TypeError(
      "auth.resource must be this server's canonical URL (serveHttp and listenHttp default it to the URL they listen on)",
    );
  const requiredScopes = [...(options.requiredScopes ?? [])];
  const metadataOptions = (resource: URL) => ({
    oauthMetadata: { issuer: options.issuer } as OAuthMetadata,
    resourceServerUrl: resource,
    scopesSupported: [...(options.scopesSupported ?? defaultScopesSupported(requiredScopes, options.toolScopes))],
    ...(options.resourceName !== undefined ? { resourceName: options.resourceName } : {}),
    dangerouslyAllowInsecureIssuerUrl: options.allowInsecureIssuer === true,
  });
  const issuerProblem = issuerProblemOf(options.issuer, options.allowInsecureIssuer === true);
  if (issuerProblem !== undefined)
    throw new TypeError(
      `auth.issuer ${JSON.stringify(options.issuer)}: ${issuerProblem} (set allowInsecureIssuer only for tests)`,
    );
  const resourceOf = typeof options.resource === 'function' ? options.resource : () => options.resource as string;
  // Start loading the SDK's helpers now, so the first request does not wait for them; a failure
  // to load shows on that request (500, reported to onError).
  sdk().catch(() => {});
  const sessionOwners = new WeakMap<object, string>();

  /** What depends on the resource URL, rebuilt only when it changes. */
  let resolved:
    { href: string; url: URL; metadataUrl: string; metadataPaths: readonly string[]; metadata: object } | undefined;
  const resolve = async () => {
    const href = resourceOf();
    if (resolved?.href === href) return resolved;
    const { buildOAuthProtectedResourceMetadata, getOAuthProtectedResourceMetadataUrl } = await sdk();
    const url = new URL(href);
    const metadataUrl = getOAuthProtectedResourceMetadataUrl(url);
    const metadata = {
      ...buildOAuthProtectedResourceMetadata(metadataOptions(url)),
      bearer_methods_supported: ['header'],
    };
    resolved = {
      href,
      url,
      metadataUrl,
      metadataPaths: [...new Set([new URL(metadataUrl).pathname, PROTECTED_RESOURCE_METADATA_PATH])],
      metadata,
    };
    return resolved;
  };

  const verifier = {
    verifyAccessToken: async (token: string): Promise<AuthInfo> => {
      const { OAuthError, OAuthErrorCode } = await sdk();
      let verified: VerifiedToken;
      try {
        verified = await options.verifier(token);
      } catch (error) {
        throw error instanceof TokenRejectedError ? new OAuthError(OAuthErrorCode.InvalidToken, error.message) : error;
      }
      if (verified.issuer !== undefined && verified.issuer !== options.issuer) {
        throw new OAuthError(OAuthErrorCode.InvalidToken, `Token was not issued by ${options.issuer}`);
      }
      if (identityOf(verified) === undefined) {
        throw new OAuthError(
          OAuthErrorCode.InvalidToken,
          'Token names neither a subject (sub) nor a client (client_id)',
        );
      }
      const resource = (await resolve()).url;
      const forUs = verified.audience.some((audience) => sameResource(audience, resource.href));
      return {
        token,
        clientId: verified.clientId,
        scopes: [...verified.scopes],
        ...(verified.expiresAt !== undefined ? { expiresAt: verified.expiresAt } : {}),
        ...(forUs ? { resource } : {}),
        extra: { [PRINCIPAL_EXTRA_KEY]: principalOfToken(verified) },
      };
    },
  };

  const challenge = (
    metadataUrl: string,
    error: string | undefined,
    description: string | undefined,
    scopes: readonly string[],
  ): string => {
    const parts: string[] = [];
    if (error !== undefined) parts.push(`error="${quoted(error)}"`);
    if (description !== undefined) parts.push(`error_description="${quoted(description)}"`);
    if (scopes.length > 0) parts.push(`scope="${quoted(scopes.join(' '))}"`);
    parts.push(`resource_metadata="${quoted(metadataUrl)}"`);
    return `Bearer ${parts.join(', ')}`;
  };

  return {
    async admit(req, res) {
      const { url: resource, metadataPaths, metadataUrl, metadata } = await resolve();
      const url = new URL(req.url ?? '/', 'http://resource.invalid');
      if (metadataPaths.includes(url.pathname.replace(/(.)\/$/, '$1'))) {
        serveMetadata(req, res, metadata);
        return true;
      }
      if (url.searchParams.has('access_token')) {
        const description = 'Access tokens are not accepted in the query string; send Authorization: Bearer <token>';
        sendOAuthError(
          res,
          400,
          'invalid_request',
          description,
          challenge(metadataUrl, 'invalid_request', description, requiredScopes),
        );
        return true;
      }
      const header = req.headers.authorization;
      if (header === undefined || !/^bearer(\s|$)/i.test(header)) {
        sendOAuthError(
          res,
          401,
          'unauthorized',
          'Authorization required: send an access token as Authorization: Bearer <token>',
          challenge(metadataUrl, undefined, undefined, requiredScopes),
        );
        return true;
      }
      const token = bearerTokenOf(req);
      if (token === undefined) {
        const description = 'Invalid Authorization header: send exactly one token as Authorization: Bearer <token>';
        sendOAuthError(
          res,
          401,
          'invalid_token',
          description,
          challenge(metadataUrl, 'invalid_token', description, requiredScopes),
        );
        return true;
      }
      const { verifyBearerToken, bearerAuthChallengeResponse, OAuthError } = await sdk();
      try {
        const authInfo = await verifyBearerToken(`Bearer ${token}`, {
          verifier,
          requiredScopes,
          expectedResource: resource,
          resourceMetadataUrl: metadataUrl,
        });
        (req as IncomingMessage & { auth?: AuthInfo }).auth = authInfo;
        return false;
      } catch (error) {
        if (!(error instanceof OAuthError)) onError(error instanceof Error ? error : new Error(String(error)));
        await sendWebResponse(
          res,
          bearerAuthChallengeResponse(error, { requiredScopes, resourceMetadataUrl: metadataUrl }),
        );
        return true;
      }
    },

    refusesCalls(req, res, body) {
      const principal = requestPrincipal(req);
      if (principal === undefined || options.toolScopes === undefined) return false;
      for (const name of body.calledTools()) {
        const needed = options.toolScopes.get(name);
        const missing = missingScopes(needed, principal);
        if (missing.length === 0) continue;
        const description = `Insufficient scope: tool ${JSON.stringify(name)} needs ${missing.join(' ')}`;
        const scopes = [...new Set([...requiredScopes, ...(needed ?? [])])];
        // admit() resolved the resource for this request already.
        sendOAuthError(
          res,
          403,
          'insufficient_scope',
          description,
          challenge(resolved!.metadataUrl, 'insufficient_scope', description, scopes),
        );
        return true;
      }
      return false;
    },

    bindSession(session, req) {
      const principal = requestPrincipal(req);
      if (principal !== undefined) sessionOwners.set(session, principalKey(principal));
    },

    refusesSession(session, req) {
      const owner = sessionOwners.get(session);
      if (owner === undefined) return false;
      const principal = requestPrincipal(req);
      return principal === undefined || principalKey(principal) !== owner;
    },
  };
}

/**
 * The token of a request's one `Authorization: Bearer <token>` header (RFC 6750 §2.1: the
 * scheme, case-insensitive, then one or more spaces, then exactly one token68 of
 * `A-Za-z0-9-._~+/` and trailing `=`), or `undefined` for anything else: no token, a second
 * word (`Bearer <token> junk`), a comma, a character outside token68, or a second
 * `Authorization` header (Node keeps only the first; this reads them all).
 */
function bearerTokenOf(req: IncomingMessage): string | undefined {
  let headers = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2)
    if (req.rawHeaders[i]!.toLowerCase() === 'authorization') headers += 1;
  if (headers !== 1) return undefined;
  return /^bearer +([A-Za-z0-9\-._~+/]+=*)$/i.exec(req.headers.authorization ?? '')?.[1];
}

/** The principal the gate put on an admitted request. */
function requestPrincipal(req: IncomingMessage): Principal | undefined {
  return principalOf((req as IncomingMessage & { auth?: AuthInfo }).auth);
}

/** Compares resource identifiers as the SDK does: ignoring a fragment and one trailing slash. */
function sameResource(a: string, b: string): boolean {
  const comparable = (value: string) =>
    (value.includes('#') ? value.slice(0, value.indexOf('#')) : value).replace(/\/$/, '');
  return comparable(a) === comparable(b);
}

/** An HTTP quoted-string's content: `\` and `"` escaped, non-printable characters replaced by spaces. */
function quoted(value: string): string {
  return value.replaceAll(/[\\"]/g, '\\$&').replaceAll(/[^\u0020-\u007E]/g, ' ');
}

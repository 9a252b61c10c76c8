import type { TokenVerifier } from './verified-token.js';

/**
 * The `auth` option of `serveHttp`, `listenHttp` and `createHttpHandler`: the HTTP edge becomes
 * an OAuth 2.1 resource server (MCP authorization, 2025-11-25). Every request then needs a
 * valid bearer token issued by `issuer` for `resource`; see `createAuthGate` for the answers.
 */
export interface AuthOptions {
  /** Verifies each token: `jwtVerifier(...)`, `introspectionVerifier(...)`, or the host's own function. */
  readonly verifier: TokenVerifier;
  /**
   * The authorization server's issuer identifier (HTTPS, or http on localhost/127.0.0.1; see
   * `allowInsecureIssuer`).
   */
  readonly issuer: string;
  /**
   * This server's canonical URL, e.g. `https://tools.example.com/mcp`: the resource identifier
   * (RFC 8707) tokens must be issued for (their audience); tokens for any other audience are
   * refused. Default with `serveHttp`/`listenHttp`: the URL they listen on. `createHttpHandler`
   * needs it (a string, or a function asked on each request).
   */
  readonly resource?: string | (() => string);
  /** Scopes every request needs; a token without them gets `403 insufficient_scope`. Default none. */
  readonly requiredScopes?: readonly string[];
  /**
   * Scopes advertised as `scopes_supported` in the metadata. Default: the required scopes and every
   * served tool's scopes.
   */
  readonly scopesSupported?: readonly string[];
  /** A human-readable name advertised as `resource_name`. */
  readonly resourceName?: string;
  /** Accept an `http:` issuer on a host other than localhost. For tests only. Default `false`. */
  readonly allowInsecureIssuer?: boolean;
  /**
   * The scopes each served tool needs, by tool name, so a `tools/call` without them is
   * answered `403 insufficient_scope` at the HTTP level (the MCP spec's step-up challenge).
   * `serveHttp` fills it from the tools' `scopes`; set it when using `createHttpHandler` yourself.
   */
  readonly toolScopes?: ReadonlyMap<string, readonly string[]>;
}

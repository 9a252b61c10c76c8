import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson } from '../transports/http/json-response.js';

/** The protected resource metadata path (RFC 9728), without the resource's path suffix. */
export const PROTECTED_RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource';

/**
 * Answers a request for the protected resource metadata document: `GET` and `HEAD` get `200`
 * with the document (CORS open, cacheable for an hour), `OPTIONS` `204` (a CORS preflight), any
 * other method `405` with `Allow: GET, HEAD, OPTIONS` and an OAuth-style JSON error body.
 */
export function serveMetadata(req: IncomingMessage, res: ServerResponse, metadata: object): void {
  const method = req.method ?? 'GET';
  if (method === 'OPTIONS') {
    res.writeHead(204, { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS' });
    res.end();
    return;
  }
  if (method !== 'GET' && method !== 'HEAD') {
    sendJson(
      res,
      405,
      { error: 'method_not_allowed', error_description: `The method ${method} is not allowed for this endpoint` },
      { Allow: 'GET, HEAD, OPTIONS', 'Access-Control-Allow-Origin': '*' },
    );
    return;
  }
  sendJson(
    res,
    200,
    metadata,
    { 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'max-age=3600' },
    method === 'HEAD',
  );
}

/** The default `scopes_supported`: the required scopes, then every tool's, without duplicates. */
export function defaultScopesSupported(
  required: readonly string[],
  toolScopes: ReadonlyMap<string, readonly string[]> | undefined,
): string[] {
  const all = new Set(required);
  for (const scopes of toolScopes?.values() ?? []) for (const scope of scopes) all.add(scope);
  return [...all];
}

/**
 * Why an issuer URL is refused, as the SDK's `buildOAuthProtectedResourceMetadata` would say
 * (checked here at once, before the SDK is loaded on the first request), or `undefined`.
 */
export function issuerProblemOf(issuer: string, allowInsecure: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return 'not a URL';
  }
  if (url.protocol !== 'https:' && url.hostname !== 'localhost' && url.hostname !== '127.0.0.1' && !allowInsecure)
    return 'Issuer URL must be HTTPS';
  if (url.hash !== '') return `Issuer URL must not have a fragment: ${url.href}`;
  if (url.search !== '') return `Issuer URL must not have a query string: ${url.href}`;
  return undefined;
}

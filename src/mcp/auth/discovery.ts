import { isJsonObject, type JsonObject } from '../../contract/index.js';
import { errorText } from '../../util/describe.js';

/** The longest an authorization server's metadata request may take, in milliseconds. */
const DISCOVERY_TIMEOUT_MS = 10_000;

/**
 * Fetches an authorization server's metadata: RFC 8414's
 * `/.well-known/oauth-authorization-server` (path-inserted for an issuer with a path), then
 * OpenID Connect discovery's `<issuer>/.well-known/openid-configuration`. Resolves the first
 * JSON object whose `issuer` is exactly `issuer`; rejects naming both URLs when neither answers
 * so, and when an answer names another issuer (RFC 8414 §3.3 forbids using it).
 */
export async function discoverAuthorizationServer(issuer: string): Promise<JsonObject> {
  const base = new URL(issuer);
  const path = base.pathname === '/' ? '' : base.pathname.replace(/\/$/, '');
  const candidates = [
    new URL(`/.well-known/oauth-authorization-server${path}`, base).href,
    new URL(`${path}/.well-known/openid-configuration`, base).href,
  ];
  const problems: string[] = [];
  for (const url of candidates) {
    let response: Response;
    try {
      response = await fetch(url, {
        headers: { Accept: 'application/json' },
        signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS),
      });
    } catch (error) {
      problems.push(`${url}: ${errorText(error)}`);
      continue;
    }
    if (!response.ok) {
      problems.push(`${url}: HTTP ${response.status}`);
      continue;
    }
    const metadata: unknown = await response.json().catch(() => undefined);
    if (!isJsonObject(metadata)) {
      problems.push(`${url}: not a JSON object`);
      continue;
    }
    if (metadata.issuer !== issuer)
      throw new Error(
        `authorization server metadata at ${url} names issuer ${JSON.stringify(metadata.issuer)}, expected ${JSON.stringify(issuer)}`,
      );
    return metadata;
  }
  throw new Error(`cannot discover the authorization server ${issuer}: ${problems.join('; ')}`);
}

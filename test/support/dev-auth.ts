import { invalidToken, type AuthOptions } from '../../src/mcp/index.js';

/** The issuer and resource `devAuth` tokens are for. */
export const DEV_ISSUER = 'http://127.0.0.1/dev-issuer';
export const DEV_RESOURCE = 'http://127.0.0.1/mcp';

/**
 * An auth gate for tests about principals rather than tokens: `Bearer dev-<subject>` or
 * `Bearer dev-<subject>.<anything>` is a valid token of the principal `<subject>` (issuer
 * `DEV_ISSUER`), every token issued to one OAuth client, `shared-app` (so principals differ by
 * subject only, as the users of one app do); any other token is refused. Two tokens
 * `dev-alice.1` and `dev-alice.2` are two tokens of one principal.
 */
export function devAuth(): AuthOptions {
  return {
    issuer: DEV_ISSUER,
    resource: DEV_RESOURCE,
    verifier: async (token: string) => {
      const match = /^dev-([a-z]+)(?:\.\S+)?$/.exec(token);
      if (match === null) throw invalidToken('not a dev token');
      return {
        subject: match[1]!,
        clientId: 'shared-app',
        scopes: [],
        expiresAt: Math.floor(Date.now() / 1000) + 3600,
        audience: [DEV_RESOURCE],
        issuer: DEV_ISSUER,
        claims: { sub: match[1]!, client_id: 'shared-app', iss: DEV_ISSUER },
      };
    },
  };
}

/** The `Authorization` header of a `devAuth` token. */
export function devBearer(token: string): Record<string, string> {
  return { authorization: `Bearer dev-${token}` };
}

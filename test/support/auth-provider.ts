import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  exportJWK,
  generateKeyPair,
  importJWK,
  SignJWT,
  type JWK,
  type JWTHeaderParameters,
  type JWTPayload,
} from 'jose';
import Provider from 'oidc-provider';

/** The scopes the test authorization server knows. */
export const PROVIDER_SCOPES = ['mcp', 'issues:read', 'issues:write'];

/** One confidential client of the test provider. */
export interface TestClient {
  readonly clientId: string;
  readonly clientSecret: string;
}

/** A real OpenID provider (`oidc-provider`) listening on 127.0.0.1, issuing tokens by client credentials. */
export interface TestProvider {
  readonly issuer: string;
  readonly jwksUri: string;
  readonly tokenEndpoint: string;
  readonly introspectionEndpoint: string;
  /**
   * Clients `alice` and `bob` (different subjects), `opaque` (its tokens are opaque, for
   * introspection) and `rs` (the resource server, for introspection).
   */
  readonly clients: Readonly<Record<'alice' | 'bob' | 'opaque' | 'rs', TestClient>>;
  /** The public client `app` (authorization code with PKCE, no secret), redirecting to `APP_REDIRECT_URI`. */
  readonly appClientId: string;
  /**
   * Plays the user in a browser: follows the authorization URL through the provider's own login
   * and consent pages (its development interactions, any password), as `login`, and resolves the
   * redirect URI it ends at (carrying `code` and `state`). At most 12 steps.
   */
  signIn(authorizationUrl: URL, login: string): Promise<URL>;
  /** A token for `resource` with `scope`, through a real client-credentials grant. */
  token(client: TestClient, options: { resource: string; scope: string }): Promise<string>;
  close(): Promise<void>;
}

/** Where the public client `app` is redirected after sign-in (nothing listens there: `signIn` stops at it). */
export const APP_REDIRECT_URI = 'http://127.0.0.1:9/callback';

/** Signing keys for a provider: one ES256 key pair, as a private JWKS. */
export async function signingKeys(): Promise<{ keys: JWK[] }> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk = await exportJWK(privateKey);
  return { keys: [{ ...jwk, kid: `k-${Math.random().toString(36).slice(2)}`, alg: 'ES256', use: 'sig' }] };
}

/**
 * Signs `claims` as a JWT with the first key of `jwks` (its `kid` and `alg`), with the header
 * `{ typ: 'at+jwt' }` unless `header` says otherwise (`typ: undefined` leaves it out): a token
 * the issuer holding those keys could have issued, with exactly the claims a test wants.
 */
export async function signToken(
  jwks: { keys: JWK[] },
  claims: JWTPayload,
  header: Partial<Pick<JWTHeaderParameters, 'typ' | 'kid'>> = {},
): Promise<string> {
  const jwk = jwks.keys[0]!;
  const protectedHeader: JWTHeaderParameters = { alg: jwk.alg!, kid: jwk.kid, typ: 'at+jwt', ...header };
  if (protectedHeader.typ === undefined) delete protectedHeader.typ;
  return new SignJWT(claims).setProtectedHeader(protectedHeader).sign(await importJWK(jwk, jwk.alg));
}

/**
 * Starts an `oidc-provider` on 127.0.0.1 (port 0). Access tokens are JWTs signed with `jwks`
 * (fresh keys when not given; pass another provider's keys for an "other issuer, same keys"
 * provider) with the requested resource as audience and a 600 s lifetime; client `opaque` gets
 * opaque tokens instead (to be introspected by client `rs`).
 */
export async function startProvider(jwks?: { keys: JWK[] }): Promise<TestProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = (clientId: string): TestClient & Record<string, unknown> => ({
    clientId,
    clientSecret: `${clientId}-secret-0123456789`,
  });
  const clients = { alice: client('alice'), bob: client('bob'), opaque: client('opaque'), rs: client('rs') };
  const provider = new Provider(issuer, {
    clients: [
      ...Object.values(clients).map((c) => ({
        client_id: c.clientId,
        client_secret: c.clientSecret,
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        id_token_signed_response_alg: 'ES256',
        scope: PROVIDER_SCOPES.join(' '),
      })),
      {
        client_id: 'app',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code'],
        response_types: ['code'],
        redirect_uris: [APP_REDIRECT_URI],
        id_token_signed_response_alg: 'ES256',
        scope: PROVIDER_SCOPES.join(' '),
      },
    ],
    cookies: { keys: ['auth-test-cookie-key'] },
    pkce: { required: () => true },
    jwks: jwks ?? (await signingKeys()),
    scopes: PROVIDER_SCOPES,
    ttl: { ClientCredentials: 600 },
    features: {
      devInteractions: { enabled: true },
      clientCredentials: { enabled: true },
      // Any authenticated client may introspect (the resource server `rs` does).
      introspection: { enabled: true, allowedPolicy: () => true },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx: unknown, _client: unknown, oneOf?: string) => oneOf,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, resource: string, c: { clientId: string }) => ({
          scope: PROVIDER_SCOPES.join(' '),
          audience: resource,
          accessTokenTTL: 600,
          accessTokenFormat: c.clientId === 'opaque' ? 'opaque' : 'jwt',
          ...(c.clientId === 'opaque' ? {} : { jwt: { sign: { alg: 'ES256' } } }),
        }),
      },
    },
  });
  // The provider logs configuration advice for development setups; the tests do not need it.
  provider.on('server_error', () => {});
  server.on('request', provider.callback());
  const sockets = new Set<import('node:net').Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return {
    issuer,
    jwksUri: `${issuer}/jwks`,
    tokenEndpoint: `${issuer}/token`,
    introspectionEndpoint: `${issuer}/token/introspection`,
    clients,
    appClientId: 'app',
    async signIn(authorizationUrl, login) {
      const cookies = new Map<string, string>();
      const step = async (url: string, init: RequestInit = {}): Promise<Response> => {
        const response = await fetch(url, {
          ...init,
          redirect: 'manual',
          headers: {
            ...(init.headers as Record<string, string>),
            cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
          },
        });
        for (const line of response.headers.getSetCookie()) {
          const [pair] = line.split(';');
          const at = pair!.indexOf('=');
          cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
        }
        return response;
      };
      let next = authorizationUrl.href;
      for (let steps = 0; steps < 12; steps++) {
        if (next.startsWith(APP_REDIRECT_URI)) return new URL(next);
        let response: Response;
        if (/\/interaction\/[^/]+$/.test(new URL(next).pathname)) {
          const page = await (await step(next)).text();
          const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1] ?? 'consent';
          response = await step(next, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ prompt, login, password: 'any' }).toString(),
          });
        } else {
          response = await step(next);
        }
        const location = response.headers.get('location');
        if (location === null)
          throw new Error(
            `sign-in stopped at ${next}: HTTP ${response.status} ${(await response.text()).slice(0, 200)}`,
          );
        next = new URL(location, issuer).href;
      }
      throw new Error('sign-in did not reach the redirect URI in 12 steps');
    },
    async token(c, { resource, scope }) {
      const response = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          Authorization: `Basic ${Buffer.from(`${c.clientId}:${c.clientSecret}`).toString('base64')}`,
        },
        body: new URLSearchParams({ grant_type: 'client_credentials', resource, scope }).toString(),
      });
      const body = (await response.json()) as { access_token?: string };
      if (!response.ok || typeof body.access_token !== 'string')
        throw new Error(`token request failed: ${response.status} ${JSON.stringify(body)}`);
      return body.access_token;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

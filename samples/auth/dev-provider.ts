import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';

/** The client the development provider knows: a confidential client for the client-credentials grant. */
export const DEV_CLIENT = {
  clientId: 'sample-client',
  clientSecret: 'sample-client-secret-do-not-use-in-production',
} as const;

/** The scopes the development provider grants. */
export const DEV_SCOPES = ['mcp', 'issues:read', 'issues:write'] as const;

/** A running development authorization server. */
export interface DevProvider {
  readonly issuer: string;
  close(): Promise<void>;
}

/**
 * Starts a development OpenID provider (`oidc-provider`, a development dependency of this
 * repository) on 127.0.0.1: one client, `DEV_CLIENT`, allowed the client-credentials grant for
 * the scopes `DEV_SCOPES`; access tokens are ES256 JWTs for the requested resource (RFC 8707),
 * valid for 10 minutes. For trying the sample only: its keys live in memory, its secret is
 * public. Point the sample at a real authorization server with `AUTH_ISSUER` instead.
 */
export async function startDevProvider(port = 0): Promise<DevProvider> {
  const { default: Provider } = await import('oidc-provider');
  const server: Server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: DEV_CLIENT.clientId,
        client_secret: DEV_CLIENT.clientSecret,
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        id_token_signed_response_alg: 'ES256',
        scope: DEV_SCOPES.join(' '),
      },
    ],
    jwks: { keys: [{ ...(await exportJWK(privateKey)), kid: 'dev', alg: 'ES256', use: 'sig' }] },
    scopes: [...DEV_SCOPES],
    ttl: { ClientCredentials: 600 },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx: unknown, _client: unknown, oneOf?: string) => oneOf,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, resource: string) => ({
          scope: DEV_SCOPES.join(' '),
          audience: resource,
          accessTokenTTL: 600,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'ES256' } },
        }),
      },
    },
  });
  server.on('request', provider.callback());
  return {
    issuer,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { JWK } from 'jose';
import { signingKeys } from './auth-provider.js';
import { readAll } from './transport-http-probe.js';

/** One request a `FakeIssuer` received. */
export interface IssuerRequest {
  readonly method: string;
  readonly path: string;
  readonly authorization: string | undefined;
  readonly body: string;
}

/**
 * A hand-written authorization server on 127.0.0.1 that records every request, for what a real
 * provider will not do: go down on command, answer introspection as a lax server would, or play
 * a hostile authorization server. Serves RFC 8414 metadata at both well-known URLs (`issuer`,
 * `jwks_uri`, `introspection_endpoint`, `token_endpoint`), its public keys at `/jwks`,
 * `POST /introspect` from `introspection` (unknown tokens `{"active":false}`) and `POST /token`
 * (always `400 invalid_client`: it only records what it was sent).
 */
export interface FakeIssuer {
  readonly issuer: string;
  /** Its signing keys (private; sign tokens with `signToken`). `/jwks` serves their public halves. */
  readonly keys: { keys: JWK[] };
  /** Every request received, in order. */
  readonly requests: IssuerRequest[];
  /** While `true`, the metadata (both URLs) or the JWKS is answered `503`. */
  readonly down: { metadata: boolean; jwks: boolean };
  /** Introspection answers by token. */
  readonly introspection: Map<string, Record<string, unknown>>;
  /** The requests to `path` so far. */
  count(path: string): number;
  close(): Promise<void>;
}

export const METADATA_PATHS = ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration'];

export async function startFakeIssuer(): Promise<FakeIssuer> {
  const keys = await signingKeys();
  const requests: IssuerRequest[] = [];
  const down = { metadata: false, jwks: false };
  const introspection = new Map<string, Record<string, unknown>>();
  const answer = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readAll(req);
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push({ method: req.method ?? '', path, authorization: req.headers.authorization, body });
    const json = (status: number, value: unknown) => {
      const text = JSON.stringify(value);
      res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
      res.end(text);
    };
    if (METADATA_PATHS.includes(path)) {
      if (down.metadata) return json(503, { error: 'temporarily_unavailable' });
      return json(200, {
        issuer,
        jwks_uri: `${issuer}/jwks`,
        introspection_endpoint: `${issuer}/introspect`,
        token_endpoint: `${issuer}/token`,
        authorization_endpoint: `${issuer}/authorize`,
        response_types_supported: ['code'],
        grant_types_supported: ['client_credentials', 'authorization_code'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      });
    }
    if (path === '/jwks') {
      if (down.jwks) return json(503, { error: 'temporarily_unavailable' });
      return json(200, { keys: keys.keys.map(({ d: _private, ...publicPart }) => publicPart) });
    }
    if (path === '/introspect' && req.method === 'POST') {
      const token = new URLSearchParams(body).get('token') ?? '';
      return json(200, introspection.get(token) ?? { active: false });
    }
    if (path === '/token' && req.method === 'POST') return json(400, { error: 'invalid_client' });
    json(404, { error: 'not_found' });
  };
  // A request that fails to be read (the client went away) ends its response, never the process.
  const server = createServer((req, res) => {
    answer(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return {
    issuer,
    keys,
    requests,
    down,
    introspection,
    count: (path) => requests.filter((r) => r.path === path).length,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

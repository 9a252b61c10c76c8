import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer as createNodeServer } from 'node:http';
import { connect as connectSocket, type AddressInfo } from 'node:net';
import type { JWK, JWTPayload } from 'jose';
import { serveHttp, type HttpHandle } from '../src/index.js';
import {
  createHttpHandler,
  createServer,
  introspectionVerifier,
  jwtVerifier,
  type AuthInfoLike,
  type AuthOptions,
  type VerifiedToken,
} from '../src/mcp/index.js';
import { AUTH_TOOLS } from './support/auth-tools.js';
import { signingKeys, signToken, startProvider, type TestProvider } from './support/auth-provider.js';
import { startFakeIssuer, type FakeIssuer } from './support/auth-fake-issuer.js';
import {
  assertRefusal,
  connectWithToken,
  refusedClient,
  SDK_LINES,
  whoami,
  type ConnectedClient,
} from './support/auth-clients.js';
import { INITIALIZE, initSession, POST_HEADERS, rawRequest } from './support/transport-http-probe.js';

// Access tokens over the wire (issue 20, items 3 and 6): the JWT access-token profile (RFC 9068),
// the Authorization header's form, tokens that name nobody, and expiry and `nbf` for every kind
// of verifier. Tokens are signed with the keys of a real oidc-provider (so they verify against
// its JWKS) with exactly the claims a test wants. Shared by every test: the provider, a strict
// and a lenient (`requireAtJwtTyp: false`) server, a server with a host verifier, and one
// introspecting at a lax authorization server (`FakeIssuer`) that says `active: true` for tokens
// it should not.

const INFO = { name: 'auth-profile', version: '1.0.0' };
let keys: { keys: JWK[] };
let provider: TestProvider;
let lax: FakeIssuer;
let strict: HttpHandle;
let lenient: HttpHandle;
let hosted: HttpHandle;
let introspected: HttpHandle;
const HOST_ISSUER = 'https://as.example';

const seconds = () => Math.floor(Date.now() / 1000);
const metadataOf = (handle: HttpHandle) => `http://127.0.0.1:${handle.port}/.well-known/oauth-protected-resource/mcp`;
const invalidToken = (handle: HttpHandle, description: string) =>
  `Bearer error="invalid_token", error_description="${description.replaceAll('"', '\\"')}", scope="mcp", resource_metadata="${metadataOf(handle)}"`;

/**
 * What the host verifier of `hosted` answers: `stale` expired a minute ago, `nobody` names no one,
 * anything else is valid.
 */
async function hostVerifier(token: string): Promise<VerifiedToken> {
  const now = seconds();
  return {
    ...(token === 'nobody' || token === 'nobody-either' ? {} : { subject: 'carol' }),
    clientId: token === 'nobody' || token === 'nobody-either' ? '' : 'host-client',
    scopes: ['mcp'],
    expiresAt: token === 'stale' ? now - 60 : now + 600,
    audience: [hosted.url],
    issuer: HOST_ISSUER,
    claims: { token },
  };
}

async function serve(auth: Partial<AuthOptions>): Promise<HttpHandle> {
  return serveHttp(INFO, AUTH_TOOLS, {
    auth: {
      verifier: jwtVerifier({ issuer: provider.issuer }),
      issuer: provider.issuer,
      requiredScopes: ['mcp'],
      ...auth,
    },
  });
}

before(async () => {
  keys = await signingKeys();
  provider = await startProvider(keys);
  lax = await startFakeIssuer();
  strict = await serve({});
  lenient = await serve({ verifier: jwtVerifier({ issuer: provider.issuer, requireAtJwtTyp: false }) });
  hosted = await serve({ verifier: hostVerifier, issuer: HOST_ISSUER });
  introspected = await serve({
    verifier: introspectionVerifier({
      issuer: lax.issuer,
      endpoint: `${lax.issuer}/introspect`,
      clientId: 'rs',
      clientSecret: 'rs-secret',
    }),
    issuer: lax.issuer,
  });
});

after(async () => {
  for (const handle of [strict, lenient, hosted, introspected]) await handle.close();
  await provider.close();
  await lax.close();
});

/** The claims of a valid access token for `handle`, with `changes` applied (`undefined` removes a claim). */
const claims = (handle: HttpHandle, changes: JWTPayload = {}): JWTPayload => ({
  iss: provider.issuer,
  sub: 'erin',
  aud: handle.url,
  client_id: 'tool-client',
  scope: 'mcp',
  iat: seconds(),
  exp: seconds() + 600,
  jti: randomUUID(),
  ...changes,
});
const post = (handle: HttpHandle, authorization: string) =>
  rawRequest(handle.port, { headers: { ...POST_HEADERS, authorization }, body: INITIALIZE });

test(
  "auth profile: a JWT signed with the issuer's keys is refused unless it is an RFC 9068 access token (typ at+jwt, iss, exp, sub or client_id)",
  { timeout: 30_000 },
  async () => {
    const refusals: Array<[string, JWTPayload, { typ?: string }, string]> = [
      ['typ JWT', {}, { typ: 'JWT' }, 'Token is not a JWT access token: typ is "JWT", expected "at+jwt" (RFC 9068)'],
      [
        'no typ',
        {},
        { typ: undefined },
        'Token is not a JWT access token: typ is missing, expected "at+jwt" (RFC 9068)',
      ],
      ['no iss', { iss: undefined }, {}, 'Token has no issuer (iss)'],
      ['another iss', { iss: 'https://elsewhere.example' }, {}, `Token was not issued by ${provider.issuer}`],
      ['no exp', { exp: undefined }, {}, 'Token has no expiration time'],
      [
        'neither sub nor client_id',
        { sub: undefined, client_id: undefined },
        {},
        'Token names neither a subject (sub) nor a client (client_id)',
      ],
    ];
    for (const [name, changes, header, description] of refusals) {
      const token = await signToken(keys, claims(strict, changes), header);
      assertRefusal(await post(strict, `Bearer ${token}`), 401, invalidToken(strict, description), {
        error: 'invalid_token',
        error_description: description,
      });
      // The same token the other way: a user's SDK clients of both lines are refused alike.
      for (const line of SDK_LINES)
        assert.deepEqual(
          await refusedClient(line, strict.url, token),
          { status: 401, body: { error: 'invalid_token', error_description: description } },
          `${name} (${line})`,
        );
    }
    // The accepted forms: the provider's own tokens (typ at+jwt), application/at+jwt, and a
    // token naming only a subject or only a client.
    const accepted: Array<[string, Promise<string>, object]> = [
      [
        "the provider's own token",
        provider.token(provider.clients.alice, { resource: strict.url, scope: 'mcp' }),
        { subject: 'alice', clientId: 'alice' },
      ],
      [
        'typ application/at+jwt',
        signToken(keys, claims(strict), { typ: 'application/at+jwt' }),
        { subject: 'erin', clientId: 'tool-client' },
      ],
      ['sub only', signToken(keys, claims(strict, { client_id: undefined })), { subject: 'erin', clientId: '' }],
      [
        'client_id only',
        signToken(keys, claims(strict, { sub: undefined })),
        { subject: 'tool-client', clientId: 'tool-client' },
      ],
    ];
    for (const [name, made, expected] of accepted) {
      const token = await made;
      for (const line of SDK_LINES) {
        const client = await connectWithToken(line, strict.url, token);
        try {
          const who = await whoami(client);
          assert.deepEqual({ subject: who.subject, clientId: who.clientId }, expected, `${name} (${line})`);
        } finally {
          await client.close();
        }
      }
    }
  },
);

test(
  'auth profile: tokens that name neither a subject nor a client are refused by every verifier, so two of them never share a session',
  { timeout: 30_000 },
  async () => {
    const description = 'Token names neither a subject (sub) nor a client (client_id)';
    // A host verifier that accepts such tokens: the edge refuses them, before any session exists.
    for (const token of ['nobody', 'nobody-either']) {
      assertRefusal(await post(hosted, `Bearer ${token}`), 401, invalidToken(hosted, description), {
        error: 'invalid_token',
        error_description: description,
      });
      for (const line of SDK_LINES)
        assert.deepEqual(await refusedClient(line, hosted.url, token), {
          status: 401,
          body: { error: 'invalid_token', error_description: description },
        });
    }
    // Introspection saying active for such a token: refused the same way.
    lax.introspection.set('anonymous', { active: true, scope: 'mcp', exp: seconds() + 600, aud: introspected.url });
    assertRefusal(await post(introspected, 'Bearer anonymous'), 401, invalidToken(introspected, description), {
      error: 'invalid_token',
      error_description: description,
    });
    // A named token's session is not reachable by an anonymous one either: the request is
    // refused at the door, whatever session it names.
    const session = await initSession(hosted.port, { authorization: 'Bearer valid' });
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const onSession = (token: string) =>
      rawRequest(hosted.port, {
        headers: {
          ...POST_HEADERS,
          authorization: `Bearer ${token}`,
          'mcp-session-id': session,
          'mcp-protocol-version': '2025-06-18',
        },
        body: list,
      });
    assert.equal((await onSession('nobody')).status, 401);
    assert.equal((await onSession('valid')).status, 200);

    // An AuthInfo another middleware put on the request (as the SDK's requireBearerAuth does in
    // front of createHttpHandler), naming nobody: refused at the door, it never runs as nobody.
    const node = createNodeServer();
    await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(node.address() as AddressInfo).port}/mcp`;
    const handler = createHttpHandler(() => createServer(INFO, AUTH_TOOLS, { transport: 'http' }), { path: '/mcp' });
    node.on('request', (req, res) => {
      const clientId = req.headers.authorization === 'Bearer named' ? 'named-client' : '';
      (req as typeof req & { auth: AuthInfoLike }).auth = { token: 't', clientId, scopes: ['mcp'], extra: {} };
      handler(req, res);
    });
    try {
      const refused = await rawRequest(Number(new URL(url).port), {
        headers: POST_HEADERS,
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }),
        path: '/mcp',
      });
      assert.equal(refused.status, 401);
      assert.equal(refused.headers['www-authenticate'], 'Bearer error="invalid_token"');
      const unauthorized = {
        jsonrpc: '2.0',
        error: {
          code: -32000,
          message:
            'Unauthorized: the access token names neither a subject (sub) nor a client (client_id), so it belongs to no principal',
        },
        id: null,
      };
      assert.deepEqual(JSON.parse(refused.text), unauthorized);
      for (const line of SDK_LINES) {
        assert.deepEqual(await refusedClient(line, url, 'anonymous'), { status: 401, body: unauthorized });
        const named = await connectWithToken(line, url, 'named');
        try {
          assert.equal((await whoami(named)).subject, 'named-client');
        } finally {
          await named.close();
        }
      }
    } finally {
      await handler.close();
      node.closeAllConnections();
      await new Promise<void>((resolve) => node.close(() => resolve()));
    }
  },
);

test(
  'auth profile: requireAtJwtTyp false accepts a token typed JWT or untyped, and still refuses another typ',
  { timeout: 30_000 },
  async () => {
    for (const [line, typ] of [
      ['1.x', 'JWT'],
      ['2.x', undefined],
    ] as const) {
      const client = await connectWithToken(line, lenient.url, await signToken(keys, claims(lenient), { typ }));
      try {
        assert.equal((await whoami(client)).subject, 'erin');
      } finally {
        await client.close();
      }
    }
    const description =
      'Token is not a JWT access token: typ is "dpop+jwt", expected "at+jwt", "JWT" or none (RFC 9068)';
    const token = await signToken(keys, claims(lenient), { typ: 'dpop+jwt' });
    assertRefusal(await post(lenient, `Bearer ${token}`), 401, invalidToken(lenient, description), {
      error: 'invalid_token',
      error_description: description,
    });
  },
);

/** Sends `POST /mcp` with the raw header lines given, over a plain socket (to repeat a header). */
function postWithRawHeaders(port: number, lines: readonly string[]): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = connectSocket(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0);
      resolve({ status, text: received.slice(received.indexOf('\r\n\r\n') + 4) });
    });
    socket.end(
      [
        'POST /mcp HTTP/1.1',
        `Host: 127.0.0.1:${port}`,
        'Accept: application/json, text/event-stream',
        'Content-Type: application/json',
        `Content-Length: ${Buffer.byteLength(INITIALIZE)}`,
        'Connection: close',
        ...lines,
        '',
        INITIALIZE,
      ].join('\r\n'),
    );
  });
}

test(
  'auth profile: Authorization must carry exactly one bearer token; "Bearer <token> junk" and friends are 401 invalid_token',
  { timeout: 30_000 },
  async () => {
    const token = await provider.token(provider.clients.alice, { resource: strict.url, scope: 'mcp' });
    const description = 'Invalid Authorization header: send exactly one token as Authorization: Bearer <token>';
    for (const header of [
      `Bearer ${token} junk`,
      `Bearer ${token},junk`,
      `Bearer ${token}\tjunk`,
      `Bearer junk ${token}`,
      `Bearer "${token}"`,
      'Bearer',
      'Bearer ',
    ]) {
      assertRefusal(await post(strict, header), 401, invalidToken(strict, description), {
        error: 'invalid_token',
        error_description: description,
      });
    }
    // Two Authorization headers (Node keeps only the first in req.headers).
    const twice = await postWithRawHeaders(strict.port, [
      `Authorization: Bearer ${token}`,
      'Authorization: Bearer junk',
    ]);
    assert.deepEqual(
      [twice.status, JSON.parse(twice.text)],
      [401, { error: 'invalid_token', error_description: description }],
    );
    // The scheme is case-insensitive and may be followed by several spaces (RFC 6750 §2.1).
    for (const header of [`bearer ${token}`, `BEARER   ${token}`])
      assert.equal((await post(strict, header)).status, 200, header);
  },
);

test(
  'auth expiry: the HTTP edge refuses an expired token from a host verifier and from introspection (1.x and 2.x clients, raw HTTP)',
  { timeout: 30_000 },
  async () => {
    assertRefusal(await post(hosted, 'Bearer stale'), 401, invalidToken(hosted, 'Token has expired'), {
      error: 'invalid_token',
      error_description: 'Token has expired',
    });
    lax.introspection.set('expired', {
      active: true,
      sub: 'frank',
      client_id: 'lax-client',
      scope: 'mcp',
      exp: seconds() - 60,
      aud: introspected.url,
      iss: lax.issuer,
    });
    lax.introspection.set('current', { ...lax.introspection.get('expired'), exp: seconds() + 600 });
    assertRefusal(await post(introspected, 'Bearer expired'), 401, invalidToken(introspected, 'Token has expired'), {
      error: 'invalid_token',
      error_description: 'Token has expired',
    });
    for (const line of SDK_LINES) {
      for (const [handle, token] of [
        [hosted, 'stale'],
        [introspected, 'expired'],
      ] as const)
        assert.deepEqual(await refusedClient(line, handle.url, token), {
          status: 401,
          body: { error: 'invalid_token', error_description: 'Token has expired' },
        });
      // The same servers let current tokens through.
      const clients: ConnectedClient[] = [
        await connectWithToken(line, hosted.url, 'fresh'),
        await connectWithToken(line, introspected.url, 'current'),
      ];
      try {
        assert.deepEqual(await Promise.all(clients.map(async (client) => (await whoami(client)).subject)), [
          'carol',
          'frank',
        ]);
      } finally {
        for (const client of clients) await client.close();
      }
    }
  },
);

test(
  'auth nbf: a token whose nbf is still to come is 401 "Token is not valid yet", from a JWT and from introspection',
  { timeout: 30_000 },
  async () => {
    const description = 'Token is not valid yet';
    const early = await signToken(keys, claims(strict, { nbf: seconds() + 3600, exp: seconds() + 7200 }));
    assertRefusal(await post(strict, `Bearer ${early}`), 401, invalidToken(strict, description), {
      error: 'invalid_token',
      error_description: description,
    });
    lax.introspection.set('early', {
      active: true,
      sub: 'frank',
      client_id: 'lax-client',
      scope: 'mcp',
      nbf: seconds() + 3600,
      exp: seconds() + 7200,
      aud: introspected.url,
      iss: lax.issuer,
    });
    assertRefusal(await post(introspected, 'Bearer early'), 401, invalidToken(introspected, description), {
      error: 'invalid_token',
      error_description: description,
    });
    for (const line of SDK_LINES) {
      for (const [handle, token] of [
        [strict, early],
        [introspected, 'early'],
      ] as const)
        assert.deepEqual(await refusedClient(line, handle.url, token), {
          status: 401,
          body: { error: 'invalid_token', error_description: description },
        });
    }
    // An nbf in the past is fine.
    const client = await connectWithToken(
      '2.x',
      strict.url,
      await signToken(keys, claims(strict, { nbf: seconds() - 5 })),
    );
    try {
      assert.equal((await whoami(client)).subject, 'erin');
    } finally {
      await client.close();
    }
  },
);

test(
  'auth profile: a client-only token (client_id, no sub) is another principal than a user whose sub equals that client id',
  { timeout: 30_000 },
  async () => {
    const user = await signToken(keys, claims(strict, { sub: 'tool-client', client_id: 'other-client' }));
    const clientOnly = await signToken(keys, claims(strict, { sub: undefined, client_id: 'tool-client' }));
    const session = await initSession(strict.port, { authorization: `Bearer ${user}` });
    const list = (token: string) =>
      rawRequest(strict.port, {
        headers: {
          ...POST_HEADERS,
          authorization: `Bearer ${token}`,
          'mcp-session-id': session,
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      });
    assert.equal((await list(user)).status, 200);
    const other = await list(clientOnly);
    assert.equal(other.status, 404, other.text);
    assert.deepEqual(JSON.parse(other.text), {
      jsonrpc: '2.0',
      error: { code: -32001, message: 'Session not found' },
      id: null,
    });
  },
);

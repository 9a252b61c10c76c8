import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { decodeJwt } from 'jose';
import {
  serveHttp,
  type HttpHandle,
  type Principal,
  type ServeHttpHandle,
  type ServeHttpOptions,
} from '../src/index.js';
import { Executor, type Interceptor } from '../src/runtime/index.js';
import { jwtVerifier, type AuthOptions } from '../src/mcp/index.js';
import { whoamiTool } from './support/auth-tools.js';
import { AUTH_TOOLS, createdIssues } from './support/auth-tools.js';
import { signingKeys, startProvider, type TestProvider } from './support/auth-provider.js';
import { INITIALIZE, POST_HEADERS, rawRequest, answerMessages } from './support/transport-http-probe.js';
import { assertRefusal } from './support/auth-clients.js';

// One provider (the issuer), one provider with the same keys but another issuer, and one
// toolwright server requiring the `mcp` scope, shared by every test of this file.
let provider: TestProvider;
let otherIssuer: TestProvider;
let server: HttpHandle;
let metadataUrl: string;

const INFO = { name: 'auth-test', version: '1.0.0' };

async function serve(options: Partial<AuthOptions> = {}, more: ServeHttpOptions = {}): Promise<ServeHttpHandle> {
  return serveHttp(INFO, AUTH_TOOLS, {
    ...more,
    auth: {
      verifier: jwtVerifier({ issuer: provider.issuer }),
      issuer: provider.issuer,
      requiredScopes: ['mcp'],
      ...options,
    },
  });
}

before(async () => {
  const keys = await signingKeys();
  provider = await startProvider(keys);
  otherIssuer = await startProvider(keys);
  server = await serve();
  metadataUrl = `http://127.0.0.1:${server.port}/.well-known/oauth-protected-resource/mcp`;
});

after(async () => {
  await server.close();
  await provider.close();
  await otherIssuer.close();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const aliceToken = (scope = 'mcp issues:read issues:write', resource = server.url) =>
  provider.token(provider.clients.alice, { resource, scope });
const post = (port: number, headers: Record<string, string>, body = INITIALIZE, path = '/mcp') =>
  rawRequest(port, { headers: { ...POST_HEADERS, ...headers }, body, path });

async function connect(
  t: { after(fn: () => Promise<void>): void },
  url: string,
  token: string,
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: bearer(token) } });
  const client = new Client({ name: 'auth-test-client', version: '1.0.0' });
  await client.connect(transport);
  t.after(() => client.close());
  return { client, transport };
}

test(
  'auth: the protected resource metadata is served at the path-suffixed and the root well-known URL',
  { timeout: 20_000 },
  async () => {
    const expected = {
      resource: server.url,
      authorization_servers: [provider.issuer],
      scopes_supported: ['mcp', 'issues:write'],
      bearer_methods_supported: ['header'],
    };
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const res = await rawRequest(server.port, { method: 'GET', path });
      assert.equal(res.status, 200, path);
      assert.equal(res.headers['content-type'], 'application/json');
      assert.equal(res.headers['access-control-allow-origin'], '*');
      assert.deepEqual(JSON.parse(res.text), expected);
    }
    const head = await rawRequest(server.port, { method: 'HEAD', path: '/.well-known/oauth-protected-resource/mcp' });
    assert.deepEqual(
      [head.status, head.text, head.headers['content-length']],
      [200, '', String(JSON.stringify(expected).length)],
    );
    const preflight = await rawRequest(server.port, {
      method: 'OPTIONS',
      path: '/.well-known/oauth-protected-resource',
    });
    assert.deepEqual(
      [preflight.status, preflight.headers['access-control-allow-methods']],
      [204, 'GET, HEAD, OPTIONS'],
    );
    const wrongMethod = await rawRequest(server.port, {
      method: 'POST',
      path: '/.well-known/oauth-protected-resource/mcp',
      body: '{}',
    });
    assert.equal(wrongMethod.status, 405);
    assert.equal(wrongMethod.headers.allow, 'GET, HEAD, OPTIONS');
    assert.deepEqual(JSON.parse(wrongMethod.text), {
      error: 'method_not_allowed',
      error_description: 'The method POST is not allowed for this endpoint',
    });
  },
);

test(
  'auth: no token is 401 with a challenge naming the metadata and the scope, and no error code (RFC 6750 3.1)',
  { timeout: 20_000 },
  async () => {
    const expected = {
      error: 'unauthorized',
      error_description: 'Authorization required: send an access token as Authorization: Bearer <token>',
    };
    const challenge = `Bearer scope="mcp", resource_metadata="${metadataUrl}"`;
    assertRefusal(await post(server.port, {}), 401, challenge, expected);
    assertRefusal(await post(server.port, { authorization: 'Basic YWxpY2U6c2VjcmV0' }), 401, challenge, expected);
    assertRefusal(
      await rawRequest(server.port, { method: 'GET', headers: { accept: 'text/event-stream' } }),
      401,
      challenge,
      expected,
    );
  },
);

test(
  'auth: a valid token lists and calls tools; the call sees the verified principal as ctx.principal',
  { timeout: 20_000 },
  async (t) => {
    const token = await aliceToken('mcp issues:read');
    const claims = decodeJwt(token);
    const { client } = await connect(t, server.url, token);
    assert.deepEqual(
      (await client.listTools()).tools.map((tool) => tool.name),
      ['whoami', 'create_issue'],
    );
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    const text = (result.content as Array<{ text: string }>)[0]!.text;
    assert.deepEqual(JSON.parse(text), {
      subject: 'alice',
      clientId: 'alice',
      scopes: ['mcp', 'issues:read'],
      expiresAt: claims.exp,
      issuer: provider.issuer,
      claims: {
        jti: claims.jti,
        sub: 'alice',
        iat: claims.iat,
        exp: claims.exp,
        scope: 'mcp issues:read',
        client_id: 'alice',
        iss: provider.issuer,
        aud: server.url,
      },
    });
  },
);

test('auth: an expired token is 401 invalid_token "Token has expired"', { timeout: 20_000 }, async (t) => {
  // The same real token, checked by a verifier whose clock is an hour ahead (the token lives 600 s).
  const late = await serve({ verifier: jwtVerifier({ issuer: provider.issuer, now: () => Date.now() + 3_600_000 }) });
  t.after(() => late.close());
  const token = await aliceToken('mcp', late.url);
  const lateMetadata = `http://127.0.0.1:${late.port}/.well-known/oauth-protected-resource/mcp`;
  assertRefusal(
    await post(late.port, bearer(token)),
    401,
    `Bearer error="invalid_token", error_description="Token has expired", scope="mcp", resource_metadata="${lateMetadata}"`,
    {
      error: 'invalid_token',
      error_description: 'Token has expired',
    },
  );
});

test('auth: a token for another audience is 401 invalid_token', { timeout: 20_000 }, async () => {
  const token = await aliceToken('mcp', 'https://other.example/mcp');
  assertRefusal(
    await post(server.port, bearer(token)),
    401,
    `Bearer error="invalid_token", error_description="Token was not issued for this resource", scope="mcp", resource_metadata="${metadataUrl}"`,
    {
      error: 'invalid_token',
      error_description: 'Token was not issued for this resource',
    },
  );
});

test(
  'auth: a token of another issuer (signed with the same keys) is 401 invalid_token',
  { timeout: 20_000 },
  async () => {
    const token = await otherIssuer.token(otherIssuer.clients.alice, { resource: server.url, scope: 'mcp' });
    const description = `Token was not issued by ${provider.issuer}`;
    assertRefusal(
      await post(server.port, bearer(token)),
      401,
      `Bearer error="invalid_token", error_description="${description}", scope="mcp", resource_metadata="${metadataUrl}"`,
      {
        error: 'invalid_token',
        error_description: description,
      },
    );
  },
);

test(
  'auth: a token with a bad signature, or signed by unknown keys, is 401 invalid_token',
  { timeout: 20_000 },
  async (t) => {
    const token = await aliceToken('mcp');
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const flipped = `${header}.${payload}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    const strangers = await startProvider();
    t.after(() => strangers.close());
    const foreign = await strangers.token(strangers.clients.alice, { resource: server.url, scope: 'mcp' });
    for (const bad of [flipped, foreign]) {
      assertRefusal(
        await post(server.port, bearer(bad)),
        401,
        `Bearer error="invalid_token", error_description="Token signature is invalid", scope="mcp", resource_metadata="${metadataUrl}"`,
        {
          error: 'invalid_token',
          error_description: 'Token signature is invalid',
        },
      );
    }
    assertRefusal(
      await post(server.port, bearer('not-a-jwt')),
      401,
      `Bearer error="invalid_token", error_description="Token is not a valid JWT: Invalid Compact JWS", scope="mcp", resource_metadata="${metadataUrl}"`,
      {
        error: 'invalid_token',
        error_description: 'Token is not a valid JWT: Invalid Compact JWS',
      },
    );
  },
);

test("auth: a token without the server's required scope is 403 insufficient_scope", { timeout: 20_000 }, async () => {
  const token = await aliceToken('issues:read');
  assertRefusal(
    await post(server.port, bearer(token)),
    403,
    `Bearer error="insufficient_scope", error_description="Insufficient scope", scope="mcp", resource_metadata="${metadataUrl}"`,
    {
      error: 'insufficient_scope',
      error_description: 'Insufficient scope',
    },
  );
});

test(
  'auth: calling a tool without its scopes is 403 insufficient_scope naming them, before execute runs',
  { timeout: 20_000 },
  async (t) => {
    const token = await aliceToken('mcp issues:read');
    const { transport } = await connect(t, server.url, token);
    const before = createdIssues.length;
    const call = JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'create_issue', arguments: { title: 'x' } },
    });
    const headers = { ...bearer(token), 'mcp-session-id': transport.sessionId!, 'mcp-protocol-version': '2025-06-18' };
    const description = 'Insufficient scope: tool \\"create_issue\\" needs issues:write';
    assertRefusal(
      await post(server.port, headers, call),
      403,
      `Bearer error="insufficient_scope", error_description="${description}", scope="mcp issues:write", resource_metadata="${metadataUrl}"`,
      {
        error: 'insufficient_scope',
        error_description: 'Insufficient scope: tool "create_issue" needs issues:write',
      },
    );
    // In a batch too.
    const batch = JSON.stringify([JSON.parse(call)]);
    assert.equal((await post(server.port, headers, batch)).status, 403);
    assert.equal(createdIssues.length, before);

    const writer = await aliceToken('mcp issues:write');
    const allowed = await post(server.port, { ...headers, ...bearer(writer) }, call);
    assert.equal(allowed.status, 200);
    assert.deepEqual(answerMessages(allowed), [
      { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'created x' }] } },
    ]);
  },
);

test(
  "auth: a session is bound to its principal; another principal's token for it is answered 404 Session not found",
  { timeout: 20_000 },
  async (t) => {
    const alice = await aliceToken('mcp');
    const bob = await provider.token(provider.clients.bob, { resource: server.url, scope: 'mcp' });
    const { transport } = await connect(t, server.url, alice);
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const session = { 'mcp-session-id': transport.sessionId!, 'mcp-protocol-version': '2025-06-18' };
    const refused = await post(server.port, { ...bearer(bob), ...session }, list);
    assert.equal(refused.status, 404);
    assert.deepEqual(JSON.parse(refused.text), {
      jsonrpc: '2.0',
      error: { code: -32001, message: 'Session not found' },
      id: null,
    });
    const bobDelete = await rawRequest(server.port, { method: 'DELETE', headers: { ...bearer(bob), ...session } });
    assert.equal(bobDelete.status, 404);
    // A fresh token of the same principal still reaches it.
    const again = await post(server.port, { ...bearer(await aliceToken('mcp')), ...session }, list);
    assert.equal(again.status, 200);
    assert.deepEqual(
      (answerMessages(again)[0] as { result: { tools: Array<{ name: string }> } }).result.tools.map(
        (tool) => tool.name,
      ),
      ['whoami', 'create_issue'],
    );
  },
);

test('auth: a token in the query string is refused 400 invalid_request', { timeout: 20_000 }, async () => {
  const token = await aliceToken('mcp');
  const description = 'Access tokens are not accepted in the query string; send Authorization: Bearer <token>';
  assertRefusal(
    await post(server.port, {}, INITIALIZE, `/mcp?access_token=${token}`),
    400,
    `Bearer error="invalid_request", error_description="${description}", scope="mcp", resource_metadata="${metadataUrl}"`,
    {
      error: 'invalid_request',
      error_description: description,
    },
  );
});

test(
  'auth: hideForbiddenTools leaves out of tools/list the tools the token lacks scopes for',
  { timeout: 20_000 },
  async (t) => {
    const hiding = await serve({}, { hideForbiddenTools: true });
    t.after(() => hiding.close());
    const reader = await connect(t, hiding.url, await aliceToken('mcp', hiding.url));
    assert.deepEqual(
      (await reader.client.listTools()).tools.map((tool) => tool.name),
      ['whoami'],
    );
    const writer = await connect(t, hiding.url, await aliceToken('mcp issues:write', hiding.url));
    assert.deepEqual(
      (await writer.client.listTools()).tools.map((tool) => tool.name),
      ['whoami', 'create_issue'],
    );
  },
);

test(
  'auth: as the set changes, hideForbiddenTools and the scope gate follow it; a tool with malformed scopes is refused',
  { timeout: 20_000 },
  async (t) => {
    const hiding = await serve({}, { hideForbiddenTools: true });
    t.after(() => hiding.close());
    const readerToken = await aliceToken('mcp', hiding.url);
    const reader = await connect(t, hiding.url, readerToken);
    const writer = await connect(t, hiding.url, await aliceToken('mcp issues:write', hiding.url));
    const names = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name);
    const audit = { name: 'audit', description: 'Needs audit', scopes: ['audit'], execute: async () => 'audited' };
    const open = { name: 'open', description: 'Needs nothing', execute: async () => 'open' };
    hiding.update({ addTools: [audit, open], removeTools: ['create_issue'] });
    assert.deepEqual(await names(reader.client), ['whoami', 'open']);
    assert.deepEqual(await names(writer.client), ['whoami', 'open']);
    // The gate knows the new tool's scopes: a call without them is 403 before execute runs.
    const call = JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'audit' } });
    const headers = {
      ...bearer(readerToken),
      'mcp-session-id': reader.transport.sessionId!,
      'mcp-protocol-version': '2025-06-18',
    };
    const refused = await post(hiding.port, headers, call);
    assert.equal(refused.status, 403);
    assert.deepEqual(JSON.parse(refused.text), {
      error: 'insufficient_scope',
      error_description: 'Insufficient scope: tool "audit" needs audit',
    });
    assert.throws(() => hiding.addTools([{ ...open, name: 'odd', scopes: ['two words'] }]), {
      name: 'SetChangeError',
      message:
        'addTools: serveHttp: tool "odd": scopes must be an array of scope names without spaces, quotes or backslashes (RFC 6749), got ["two words"]',
    });
    assert.deepEqual(await names(writer.client), ['whoami', 'open']);
  },
);

test(
  'auth: interceptors see ctx.principal (a guard that lets only alice through); in process, the executor hands a principal given as context',
  { timeout: 20_000 },
  async (t) => {
    const interceptors: Interceptor[] = [
      {
        name: 'only-alice',
        before: ({ ctx }) =>
          ctx.principal?.subject === 'alice'
            ? undefined
            : { action: 'refuse', reason: `not for ${ctx.principal?.subject ?? 'nobody'}` },
      },
    ];
    const guarded = await serveHttp(INFO, AUTH_TOOLS, {
      interceptors,
      auth: { verifier: jwtVerifier({ issuer: provider.issuer }), issuer: provider.issuer },
    });
    t.after(() => guarded.close());
    const alice = await connect(
      t,
      guarded.url,
      await provider.token(provider.clients.alice, { resource: guarded.url, scope: 'mcp' }),
    );
    const bob = await connect(
      t,
      guarded.url,
      await provider.token(provider.clients.bob, { resource: guarded.url, scope: 'mcp' }),
    );
    const aliceSees = await alice.client.callTool({ name: 'whoami', arguments: {} });
    assert.equal(JSON.parse((aliceSees.content as Array<{ text: string }>)[0]!.text).subject, 'alice');
    const refused = await bob.client.callTool({ name: 'whoami', arguments: {} });
    assert.deepEqual(refused, {
      content: [{ type: 'text', text: 'call refused by "only-alice": not for bob' }],
      isError: true,
    });

    const principal: Principal = { subject: 'svc', clientId: 'batch', scopes: [], claims: {} };
    const [outcome] = await new Executor({ context: { principal } }).run([{ id: 'p', tool: whoamiTool, args: {} }]);
    assert.deepEqual(outcome!.ok && outcome!.result, { content: [{ type: 'text', text: JSON.stringify(principal) }] });
  },
);

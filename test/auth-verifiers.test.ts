import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer as createNodeServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  createHttpHandler,
  createServer,
  introspectionVerifier,
  invalidToken,
  jwtVerifier,
  type VerifiedToken,
} from '../src/mcp/index.js';
import { serveHttp } from '../src/index.js';
import { AUTH_TOOLS, createdIssues } from './support/auth-tools.js';
import { APP_REDIRECT_URI, startProvider, type TestProvider } from './support/auth-provider.js';
import { INITIALIZE, POST_HEADERS, rawRequest, answerMessages } from './support/transport-http-probe.js';
import { textOf } from './support/text.js';

let provider: TestProvider;
before(async () => {
  provider = await startProvider();
});
after(async () => {
  await provider.close();
});

const INFO = { name: 'auth-verifiers', version: '1.0.0' };

test(
  "auth: the SDK client's own OAuth support (client credentials) discovers the server, gets a token and calls a tool",
  { timeout: 30_000 },
  async (t) => {
    const handle = await serveHttp(INFO, AUTH_TOOLS, {
      auth: { verifier: jwtVerifier({ issuer: provider.issuer }), issuer: provider.issuer, requiredScopes: ['mcp'] },
    });
    t.after(() => handle.close());
    const { clientId, clientSecret } = provider.clients.alice;
    const authProvider = new ClientCredentialsProvider({
      clientId,
      clientSecret,
      expectedIssuer: provider.issuer,
      scope: 'mcp issues:write',
    });
    const client = new Client({ name: 'oauth-client', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(handle.url), { authProvider }));
    t.after(() => client.close());
    const before = createdIssues.length;
    assert.equal(
      textOf(await client.callTool({ name: 'create_issue', arguments: { title: 'from the SDK client' } })),
      'created from the SDK client',
    );
    assert.deepEqual(createdIssues.slice(before), ['from the SDK client']);
    const who = JSON.parse(textOf(await client.callTool({ name: 'whoami', arguments: {} })));
    assert.deepEqual(
      [who.subject, who.clientId, who.scopes, who.claims.aud],
      ['alice', 'alice', ['mcp', 'issues:write'], handle.url],
    );
  },
);

test(
  'auth: introspectionVerifier accepts an active opaque token and refuses an unknown one as 401 "Token is not active"',
  { timeout: 30_000 },
  async (t) => {
    const { clientId, clientSecret } = provider.clients.rs;
    const handle = await serveHttp(INFO, AUTH_TOOLS, {
      auth: {
        verifier: introspectionVerifier({ issuer: provider.issuer, clientId, clientSecret }),
        issuer: provider.issuer,
        requiredScopes: ['mcp'],
      },
    });
    t.after(() => handle.close());
    const token = await provider.token(provider.clients.opaque, { resource: handle.url, scope: 'mcp' });
    assert.equal(token.split('.').length, 1, 'an opaque token, not a JWT');
    const client = new Client({ name: 'introspected', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(handle.url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    t.after(() => client.close());
    const who = JSON.parse(textOf(await client.callTool({ name: 'whoami', arguments: {} })));
    assert.deepEqual(
      [who.subject, who.clientId, who.scopes, who.issuer, who.claims.active, who.claims.aud],
      ['opaque', 'opaque', ['mcp'], provider.issuer, true, handle.url],
    );

    const refused = await rawRequest(handle.port, {
      headers: { ...POST_HEADERS, authorization: 'Bearer no-such-token' },
      body: INITIALIZE,
    });
    assert.equal(refused.status, 401);
    assert.equal(
      refused.headers['www-authenticate'],
      `Bearer error="invalid_token", error_description="Token is not active", scope="mcp", resource_metadata="http://127.0.0.1:${handle.port}/.well-known/oauth-protected-resource/mcp"`,
    );
    assert.deepEqual(JSON.parse(refused.text), { error: 'invalid_token', error_description: 'Token is not active' });
  },
);

test(
  "auth: the host's own verifier function; a token without expiry is refused; a verifier failure is 500 server_error and reported",
  { timeout: 30_000 },
  async (t) => {
    const errors: string[] = [];
    const verifier = async (token: string): Promise<VerifiedToken> => {
      if (token === 'boom') throw new Error('the key server is down');
      if (token === 'nope') throw invalidToken('Unknown token');
      const exp = token === 'no-exp' ? undefined : Math.floor(Date.now() / 1000) + 60;
      return {
        subject: 'carol',
        clientId: 'cli',
        scopes: ['mcp'],
        expiresAt: exp,
        audience: [resource],
        issuer: 'https://as.example',
        claims: { sub: 'carol', custom: [1, 2] },
      };
    };
    const resource = 'https://tools.example/mcp';
    const handle = await serveHttp(INFO, AUTH_TOOLS, {
      onError: (e) => errors.push(e.message),
      auth: { verifier, issuer: 'https://as.example', resource },
    });
    t.after(() => handle.close());
    const call = (token: string) =>
      rawRequest(handle.port, { headers: { ...POST_HEADERS, authorization: `Bearer ${token}` }, body: INITIALIZE });
    const challenge = (code: string, description: string) =>
      `Bearer error="${code}", error_description="${description}", resource_metadata="https://tools.example/.well-known/oauth-protected-resource/mcp"`;

    const ok = await call('good');
    assert.equal(ok.status, 200);
    const noExp = await call('no-exp');
    assert.equal(noExp.status, 401);
    assert.equal(noExp.headers['www-authenticate'], challenge('invalid_token', 'Token has no expiration time'));
    assert.deepEqual(JSON.parse(noExp.text), {
      error: 'invalid_token',
      error_description: 'Token has no expiration time',
    });
    const nope = await call('nope');
    assert.equal(nope.headers['www-authenticate'], challenge('invalid_token', 'Unknown token'));
    const boom = await call('boom');
    assert.equal(boom.status, 500);
    assert.equal(boom.headers['www-authenticate'], undefined);
    assert.deepEqual(JSON.parse(boom.text), { error: 'server_error', error_description: 'Internal Server Error' });
    assert.deepEqual(errors, ['the key server is down']);
    // The metadata names the configured resource, not the address listened on.
    const metadata = await rawRequest(handle.port, {
      method: 'GET',
      path: '/.well-known/oauth-protected-resource/mcp',
    });
    assert.deepEqual(JSON.parse(metadata.text), {
      resource,
      authorization_servers: ['https://as.example'],
      scopes_supported: ['issues:write'],
      bearer_methods_supported: ['header'],
    });
  },
);

test(
  'auth: stateless serving verifies every request and gives each call its principal',
  { timeout: 30_000 },
  async (t) => {
    const handle = await serveHttp(INFO, AUTH_TOOLS, {
      stateless: true,
      auth: { verifier: jwtVerifier({ issuer: provider.issuer }), issuer: provider.issuer },
    });
    t.after(() => handle.close());
    const token = await provider.token(provider.clients.bob, { resource: handle.url, scope: 'mcp' });
    const headers = { ...POST_HEADERS, authorization: `Bearer ${token}`, 'mcp-protocol-version': '2025-06-18' };
    const call = JSON.stringify({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'whoami', arguments: {} },
    });
    const res = await rawRequest(handle.port, { headers, body: call });
    assert.equal(res.status, 200);
    const who = JSON.parse(
      (answerMessages(res)[0] as { result: { content: Array<{ text: string }> } }).result.content[0]!.text,
    );
    assert.deepEqual([who.subject, who.scopes], ['bob', ['mcp']]);
    const anonymous = await rawRequest(handle.port, { headers: { ...POST_HEADERS }, body: call });
    assert.equal(anonymous.status, 401);
  },
);

test(
  "auth: createHttpHandler without toolScopes still refuses a call without the tool's scopes, as an isError result before execute",
  { timeout: 30_000 },
  async (t) => {
    const node = createNodeServer();
    await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(node.address() as AddressInfo).port}/mcp`;
    const handler = createHttpHandler(() => createServer(INFO, AUTH_TOOLS, { transport: 'http' }), {
      path: '/mcp',
      auth: {
        verifier: jwtVerifier({ issuer: provider.issuer, jwksUri: provider.jwksUri }),
        issuer: provider.issuer,
        resource: url,
      },
    });
    node.on('request', handler);
    t.after(async () => {
      await handler.close();
      node.closeAllConnections();
      await new Promise<void>((resolve) => node.close(() => resolve()));
    });
    const token = await provider.token(provider.clients.alice, { resource: url, scope: 'mcp' });
    const client = new Client({ name: 'handler-client', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    t.after(() => client.close());
    const before = createdIssues.length;
    assert.deepEqual(await client.callTool({ name: 'create_issue', arguments: { title: 'no' } }), {
      content: [{ type: 'text', text: 'insufficient_scope: tool "create_issue" needs the scope issues:write' }],
      isError: true,
    });
    assert.equal(createdIssues.length, before);
  },
);

test('auth: bad auth options fail at once, naming the option', () => {
  const factory = () => createServer(INFO, AUTH_TOOLS);
  const verifier = jwtVerifier({ issuer: 'https://as.example' });
  assert.throws(
    () =>
      createHttpHandler(factory, {
        auth: { verifier: undefined as never, issuer: 'https://as.example', resource: 'https://x/mcp' },
      }),
    {
      name: 'TypeError',
      message: 'auth.verifier must be a function (token) => Promise<VerifiedToken>, such as jwtVerifier({ issuer })',
    },
  );
  assert.throws(() => createHttpHandler(factory, { auth: { verifier, issuer: '', resource: 'https://x/mcp' } }), {
    name: 'TypeError',
    message: "auth.issuer must be the authorization server's issuer URL",
  });
  assert.throws(() => createHttpHandler(factory, { auth: { verifier, issuer: 'https://as.example' } }), {
    name: 'TypeError',
    message:
      "auth.resource must be this server's canonical URL (serveHttp and listenHttp default it to the URL they listen on)",
  });
  assert.throws(
    () => createHttpHandler(factory, { auth: { verifier, issuer: 'http://as.example', resource: 'https://x/mcp' } }),
    {
      name: 'TypeError',
      message: 'auth.issuer "http://as.example": Issuer URL must be HTTPS (set allowInsecureIssuer only for tests)',
    },
  );
  assert.doesNotThrow(() =>
    createHttpHandler(factory, {
      auth: { verifier, issuer: 'http://as.example', resource: 'https://x/mcp', allowInsecureIssuer: true },
    }),
  );
});

/** An SDK OAuth client provider for the public client `app` whose "browser" is `provider.signIn` as `login`. */
class SignInAsUser implements OAuthClientProvider {
  authorizationCode: string | undefined;
  private saved: OAuthTokens | undefined;
  private verifier = '';
  constructor(private readonly login: string) {}
  get redirectUrl() {
    return APP_REDIRECT_URI;
  }
  get clientMetadata() {
    return {
      redirect_uris: [APP_REDIRECT_URI],
      client_name: 'auth-test-app',
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation(): OAuthClientInformationMixed {
    return { client_id: provider.appClientId };
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  async redirectToAuthorization(url: URL) {
    const back = await provider.signIn(url, this.login);
    this.authorizationCode = back.searchParams.get('code') ?? undefined;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

test(
  'auth: authorization code with PKCE: the SDK client signs a user in through the provider and calls as that user',
  { timeout: 30_000 },
  async (t) => {
    const handle = await serveHttp(INFO, AUTH_TOOLS, {
      auth: { verifier: jwtVerifier({ issuer: provider.issuer }), issuer: provider.issuer, requiredScopes: ['mcp'] },
    });
    t.after(() => handle.close());
    const user = new SignInAsUser('dana');
    const first = new Client({ name: 'pkce-client', version: '1.0.0' });
    const firstTransport = new StreamableHTTPClientTransport(new URL(handle.url), { authProvider: user });
    await assert.rejects(first.connect(firstTransport), UnauthorizedError);
    assert.equal(typeof user.authorizationCode, 'string');
    await firstTransport.finishAuth(user.authorizationCode!);
    const client = new Client({ name: 'pkce-client', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(handle.url), { authProvider: user }));
    t.after(() => client.close());
    const who = JSON.parse(textOf(await client.callTool({ name: 'whoami', arguments: {} })));
    assert.deepEqual(
      [who.subject, who.clientId, who.scopes, who.issuer, who.claims.aud],
      ['dana', 'app', ['mcp'], provider.issuer, handle.url],
    );
  },
);

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Client, ClientCredentialsProvider, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createCallContext, type ToolOutput } from '../src/contract/index.js';
import {
  connectServer,
  createProxy,
  jwtVerifier,
  serveHttp,
  type AuthOptions,
  type HttpHandle,
  type Proxy,
} from '../src/mcp/index.js';
import { parseArgs, UsageError } from '../src/cli/args.js';
import { AUTH_TOOLS } from './support/auth-tools.js';
import { startProvider, type TestProvider } from './support/auth-provider.js';
import { INITIALIZE, POST_HEADERS, rawRequest, type RawResponse } from './support/transport-http-probe.js';
import { OUT_DIR } from './support/cli-paths.js';
import { startProxyCli } from './support/proxy-cli.js';

// The proxy's HTTP side as an OAuth resource server, against a real oidc-provider on 127.0.0.1
// issuing tokens by client credentials. One provider, one plain SDK upstream over stdio and one
// proxy requiring the `mcp` scope are shared by every test; about 15 s in all on this machine.

const PLAIN_SERVER = join(OUT_DIR, 'test', 'support', 'consume-plain-server.js');
let provider: TestProvider;
let proxy: Proxy;
let http: HttpHandle;
let metadataUrl: string;

const authFor = (issuer: string, scopes: readonly string[] = ['mcp']): AuthOptions => ({
  verifier: jwtVerifier({ issuer }),
  issuer,
  requiredScopes: scopes,
});

before(async () => {
  provider = await startProvider();
  proxy = await createProxy([{ name: 'a', command: process.execPath, args: [PLAIN_SERVER, 'a'] }], {
    stderr: 'ignore',
  });
  http = await proxy.serveHttp({ host: '127.0.0.1', port: 0, auth: authFor(provider.issuer) });
  metadataUrl = `http://127.0.0.1:${http.port}/.well-known/oauth-protected-resource/mcp`;
});

after(async () => {
  await http.close();
  await proxy.close();
  await provider.close();
});

const token = (scope: string, resource = http.url) => provider.token(provider.clients.alice, { resource, scope });
const post = (port: number, headers: Record<string, string>) =>
  rawRequest(port, { headers: { ...POST_HEADERS, ...headers }, body: INITIALIZE, path: '/mcp' });
const text = (output: ToolOutput) =>
  (output as unknown as { content: Array<{ text: string }> }).content.map((part) => part.text).join('\n');
/** The subject and scopes of the principal a `whoami` answer names. */
const caller = (answer: string) => {
  const principal = JSON.parse(answer) as { subject: string; scopes: string[] };
  return { subject: principal.subject, scopes: principal.scopes };
};

function assertRefusal(res: RawResponse, status: number, challenge: string, body: object): void {
  assert.equal(res.status, status, res.text);
  assert.equal(res.headers['www-authenticate'], challenge);
  assert.equal(res.headers['content-type'], 'application/json');
  assert.deepEqual(JSON.parse(res.text), body);
}

async function clientWith(url: string, bearer: string): Promise<Client> {
  const client = new Client({ name: 'proxy-auth-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${bearer}` } },
    }),
  );
  return client;
}

test(
  'proxy auth: no token is 401 with the challenge naming the metadata; the metadata names the issuer',
  { timeout: 30_000 },
  async () => {
    assertRefusal(await post(http.port, {}), 401, `Bearer scope="mcp", resource_metadata="${metadataUrl}"`, {
      error: 'unauthorized',
      error_description: 'Authorization required: send an access token as Authorization: Bearer <token>',
    });
    const metadata = await rawRequest(http.port, { method: 'GET', path: '/.well-known/oauth-protected-resource/mcp' });
    assert.deepEqual(JSON.parse(metadata.text), {
      resource: http.url,
      authorization_servers: [provider.issuer],
      scopes_supported: ['mcp'],
      bearer_methods_supported: ['header'],
    });
  },
);

test('proxy auth: a valid token lists and calls an upstream tool through the proxy', { timeout: 30_000 }, async () => {
  const client = await clientWith(http.url, await token('mcp'));
  try {
    assert.deepEqual(
      (await client.listTools()).tools.map((t) => t.name),
      ['echo', 'crash', 'add_tool', 'ask'],
    );
    assert.deepEqual(await client.callTool({ name: 'echo', arguments: { text: 'through auth' } }), {
      content: [{ type: 'text', text: 'a: through auth' }],
    });
  } finally {
    await client.close();
  }
});

test(
  'proxy auth: a token without the required scope is 403 insufficient_scope; one for another resource is 401',
  { timeout: 30_000 },
  async () => {
    assertRefusal(
      await post(http.port, { authorization: `Bearer ${await token('issues:read')}` }),
      403,
      `Bearer error="insufficient_scope", error_description="Insufficient scope", scope="mcp", resource_metadata="${metadataUrl}"`,
      {
        error: 'insufficient_scope',
        error_description: 'Insufficient scope',
      },
    );
    assertRefusal(
      await post(http.port, { authorization: `Bearer ${await token('mcp', 'http://127.0.0.1:9/other')}` }),
      401,
      `Bearer error="invalid_token", error_description="Token was not issued for this resource", scope="mcp", resource_metadata="${metadataUrl}"`,
      {
        error: 'invalid_token',
        error_description: 'Token was not issued for this resource',
      },
    );
  },
);

test(
  "connectServer reaches an upstream that requires auth with a bearer token or the SDK's OAuth provider; without one it cannot connect",
  { timeout: 30_000 },
  async () => {
    const upstream = await serveHttp({ name: 'guarded', version: '1.0.0' }, AUTH_TOOLS, {
      host: '127.0.0.1',
      port: 0,
      auth: authFor(provider.issuer),
    });
    try {
      const ctx = createCallContext({ call: { id: '1', tool: 'whoami', args: {} } });
      const byToken = await connectServer(
        { url: upstream.url, bearerToken: await token('mcp', upstream.url) },
        { permission: 'read' },
      );
      try {
        assert.equal(byToken.server, 'guarded');
        assert.deepEqual(caller(text(await byToken.tools.find((t) => t.name === 'whoami')!.execute({}, ctx))), {
          subject: 'alice',
          scopes: ['mcp'],
        });
      } finally {
        await byToken.close();
      }
      const { clientId, clientSecret } = provider.clients.bob;
      const authProvider = new ClientCredentialsProvider({
        clientId,
        clientSecret,
        expectedIssuer: provider.issuer,
        scope: 'mcp',
      });
      const byOAuth = await connectServer({ url: upstream.url, authProvider }, { permission: 'read' });
      try {
        assert.deepEqual(caller(text(await byOAuth.tools.find((t) => t.name === 'whoami')!.execute({}, ctx))), {
          subject: 'bob',
          scopes: ['mcp'],
        });
      } finally {
        await byOAuth.close();
      }
      await assert.rejects(connectServer({ url: upstream.url }), (err: Error) =>
        err.message.startsWith(`mcp server ${JSON.stringify(upstream.url)}: cannot connect: `),
      );
      await assert.rejects(connectServer({ url: upstream.url, bearerToken: 'x', authProvider }), {
        name: 'TypeError',
        message: 'connectServer: give "bearerToken" or "authProvider", not both',
      });
    } finally {
      await upstream.close();
    }
  },
);

test(
  'toolwright proxy --auth-issuer guards its HTTP side; a config upstream with a bearerToken reaches a guarded upstream',
  { timeout: 60_000 },
  async () => {
    assert.deepEqual(
      parseArgs([
        'proxy',
        'x',
        '--http',
        '0',
        '--auth-issuer',
        'https://auth.example.com',
        '--auth-scopes',
        'mcp, tools:call',
      ]),
      {
        kind: 'proxy',
        upstreams: ['x'],
        http: { host: '127.0.0.1', port: 0 },
        stateless: false,
        auth: { issuer: 'https://auth.example.com', requiredScopes: ['mcp', 'tools:call'] },
      },
    );
    assert.throws(
      () => parseArgs(['proxy', 'x', '--auth-issuer', 'https://auth.example.com']),
      new UsageError(
        '--auth-issuer only applies to --http (stdio is not authenticated: a local process trusts its parent)',
      ),
    );
    assert.throws(
      () => parseArgs(['proxy', 'x', '--http', '0', '--auth-scopes', 'mcp']),
      new UsageError('--auth-scopes needs --auth-issuer'),
    );
    assert.throws(
      () => parseArgs(['proxy', 'x', '--http', '0', '--auth-issuer', 'auth.example.com']),
      new UsageError('--auth-issuer expects a URL, got "auth.example.com"'),
    );

    const upstream = await serveHttp({ name: 'guarded', version: '1.0.0' }, AUTH_TOOLS, {
      host: '127.0.0.1',
      port: 0,
      auth: authFor(provider.issuer),
    });
    const { mkdtemp, writeFile, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const dir = await mkdtemp(join(tmpdir(), 'toolwright-proxy-auth-'));
    const config = join(dir, 'proxy.json');
    await writeFile(
      config,
      JSON.stringify({
        servers: [{ name: 'g', prefix: 'g.', url: upstream.url, bearerToken: await token('mcp', upstream.url) }],
      }),
    );
    const proxy = await startProxyCli([
      '--config',
      config,
      '--http',
      '127.0.0.1:0',
      '--auth-issuer',
      provider.issuer,
      '--auth-scopes',
      'mcp',
    ]);
    try {
      const url = proxy.url;
      const port = Number(new URL(url).port);
      assertRefusal(
        await post(port, {}),
        401,
        `Bearer scope="mcp", resource_metadata="http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp"`,
        {
          error: 'unauthorized',
          error_description: 'Authorization required: send an access token as Authorization: Bearer <token>',
        },
      );
      const client = await clientWith(url, await token('mcp', url));
      try {
        const whoami = await client.callTool({ name: 'g.whoami', arguments: {} });
        assert.deepEqual(caller((whoami.content as Array<{ text: string }>)[0]!.text), {
          subject: 'alice',
          scopes: ['mcp'],
        });
      } finally {
        await client.close();
      }
    } finally {
      assert.equal(await proxy.stop(), 0);
      await rm(dir, { recursive: true, force: true });
      await upstream.close();
    }
  },
);

test(
  'toolwright proxy: a config file\'s "auth" is checked before any upstream is reached',
  { timeout: 30_000 },
  async () => {
    const { mkdtemp, writeFile, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { runCliCaptured } = await import('./support/cli-io.js');
    const dir = await mkdtemp(join(tmpdir(), 'toolwright-proxy-auth-config-'));
    const servers = [{ command: join(dir, 'never-run') }];
    const refusal = async (auth: unknown, extra: string[] = ['--http', '127.0.0.1:0']) => {
      const config = join(dir, 'proxy.json');
      await writeFile(config, JSON.stringify({ servers, auth }));
      const run = await runCliCaptured(['proxy', '--config', config, ...extra]);
      assert.equal(run.code, 2);
      return run.err;
    };
    try {
      assert.equal(await refusal({ issuer: 'nope' }), 'toolwright: proxy: "auth.issuer" must be a URL, got "nope"\n');
      assert.equal(
        await refusal({ requiredScopes: ['mcp'] }),
        'toolwright: proxy: "auth.issuer" must be a URL, got null\n',
      );
      assert.equal(
        await refusal({ issuer: 'https://auth.example.com', audience: 'x' }),
        'toolwright: proxy: "auth" has an unknown key "audience" (known keys: issuer, resource, requiredScopes, jwksUri, resourceName, requireAtJwtTyp)\n',
      );
      assert.equal(
        await refusal({ issuer: 'https://auth.example.com', requireAtJwtTyp: 'no' }),
        'toolwright: proxy: "auth.requireAtJwtTyp" must be true or false\n',
      );
      assert.equal(
        await refusal({ issuer: 'https://auth.example.com', requiredScopes: 'mcp' }),
        'toolwright: proxy: "auth.requiredScopes" must be an array of non-empty strings\n',
      );
      assert.equal(
        await refusal({ issuer: 'https://auth.example.com' }, []),
        'toolwright: proxy: "auth" only applies to --http (stdio is not authenticated: a local process trusts its parent)\n',
      );
      assert.equal(
        await refusal({ issuer: 'https://auth.example.com' }, [
          '--http',
          '0',
          '--auth-issuer',
          'https://auth.example.com',
        ]),
        'toolwright: proxy: give auth in the config or as --auth-* flags, not both\n',
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
);

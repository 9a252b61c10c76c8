import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ClientCredentialsProvider } from '@modelcontextprotocol/client';
import { ClientCredentialsProvider as ClientCredentialsProvider1 } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { createCallContext, type ToolOutput } from '../src/contract/index.js';
import { connectServer, jwtVerifier, serveHttp, type HttpHandle } from '../src/mcp/index.js';
import { AUTH_TOOLS } from './support/auth-tools.js';
import { startProvider, type TestProvider } from './support/auth-provider.js';
import { startFakeIssuer, type FakeIssuer } from './support/auth-fake-issuer.js';

// A client secret must never reach an authorization server the consumer did not choose (issue
// 20, item 5). The hostile upstream is a real toolwright server whose protected resource
// metadata names a hostile authorization server (a `FakeIssuer` recording every request); the
// consumer's credentials belong to a real oidc-provider. Shared by every test.

let provider: TestProvider;
let hostile: FakeIssuer;
let hostileUpstream: HttpHandle;
let honestUpstream: HttpHandle;

before(async () => {
  provider = await startProvider();
  hostile = await startFakeIssuer();
  hostileUpstream = await serveHttp({ name: 'hostile', version: '1.0.0' }, AUTH_TOOLS, {
    auth: { verifier: jwtVerifier({ issuer: hostile.issuer }), issuer: hostile.issuer, requiredScopes: ['mcp'] },
  });
  honestUpstream = await serveHttp({ name: 'honest', version: '1.0.0' }, AUTH_TOOLS, {
    auth: { verifier: jwtVerifier({ issuer: provider.issuer }), issuer: provider.issuer, requiredScopes: ['mcp'] },
  });
});

after(async () => {
  await hostileUpstream.close();
  await honestUpstream.close();
  await hostile.close();
  await provider.close();
});

const { clientId, clientSecret } = { clientId: 'alice', clientSecret: 'alice-secret-0123456789' };
const REFUSAL =
  'connectServer: "authProvider" holds client credentials but names no authorization server, so the upstream ' +
  'would choose where they are sent; give the provider your issuer, e.g. new ClientCredentialsProvider({ ' +
  "clientId, clientSecret, scope, expectedIssuer: 'https://auth.example.com' })";

/**
 * What the hostile server received from its `from`-th request on: token requests, and whether any
 * carried the secret.
 */
const leaked = (from = 0): { tokenRequests: number; secretSeen: boolean } => {
  const basic = Buffer.from(`${clientId}:${clientSecret}`).toString('base64');
  const requests = hostile.requests.slice(from);
  return {
    tokenRequests: requests.filter((r) => r.path === '/token').length,
    secretSeen: requests.some((r) => r.body.includes(clientSecret) || (r.authorization ?? '').includes(basic)),
  };
};
const NOTHING = { tokenRequests: 0, secretSeen: false };

test(
  'consume hostile upstream: a ClientCredentialsProvider without expectedIssuer is refused before connecting; the hostile authorization server gets 0 token requests',
  { timeout: 30_000 },
  async (t) => {
    // The SDK warns about this form on construction; the test does not need to see it.
    t.mock.method(console, 'warn', () => {});
    assert.equal(provider.clients.alice.clientSecret, clientSecret);
    for (const authProvider of [
      new ClientCredentialsProvider({ clientId, clientSecret, scope: 'mcp' }),
      new ClientCredentialsProvider1({ clientId, clientSecret, scope: 'mcp' }),
    ]) {
      for (const upstream of [hostileUpstream, honestUpstream]) {
        // Refused against an honest upstream too: nothing but the provider says where the secret may go.
        const outcome = await connectServer({ url: upstream.url, authProvider }).then(
          async (connection) => {
            await connection.close();
            return 'connected';
          },
          (error: Error) => `${error.name}: ${error.message}`,
        );
        assert.deepEqual(leaked(), NOTHING);
        assert.equal(outcome, `TypeError: ${REFUSAL}`);
      }
    }
  },
);

test(
  'consume hostile upstream: the safe form (expectedIssuer) never sends the secret to the authorization server a hostile upstream names, and works against an honest one',
  { timeout: 30_000 },
  async () => {
    const from = hostile.requests.length;
    const authProvider = () =>
      new ClientCredentialsProvider({ clientId, clientSecret, scope: 'mcp', expectedIssuer: provider.issuer });
    await assert.rejects(connectServer({ url: hostileUpstream.url, authProvider: authProvider() }), (error: Error) =>
      error.message.startsWith(`mcp server ${JSON.stringify(hostileUpstream.url)}: cannot connect: `),
    );
    assert.deepEqual(leaked(from), NOTHING);

    const honest = await connectServer(
      { url: honestUpstream.url, authProvider: authProvider() },
      { permission: 'read' },
    );
    try {
      const whoami = honest.tools.find((tool) => tool.name === 'whoami')!;
      const output = (await whoami.execute(
        {},
        createCallContext({ call: { id: '1', tool: 'whoami', args: {} } }),
      )) as ToolOutput & {
        content: Array<{ text: string }>;
      };
      assert.deepEqual(
        (({ subject, clientId: client }) => ({ subject, client }))(JSON.parse(output.content[0]!.text)),
        { subject: 'alice', client: 'alice' },
      );
    } finally {
      await honest.close();
    }
    assert.deepEqual(leaked(from), NOTHING);
  },
);

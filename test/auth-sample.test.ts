import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { HttpHandle } from '../src/index.js';
import { callWithClientCredentials } from '../samples/auth/client.js';
import { DEV_CLIENT, startDevProvider, type DevProvider } from '../samples/auth/dev-provider.js';
import { serveIssues } from '../samples/auth/server.js';
import { INSPECTOR_PATH, REPO_ROOT } from './support/cli-paths.js';
import { runProcess } from './support/run-process.js';

// The auth sample end to end: its development authorization server, its issue tracker behind
// OAuth, its client (the SDK client's own OAuth support, client credentials), and the MCP
// Inspector CLI with a bearer token.

let dev: DevProvider;
let issues: HttpHandle;
before(async () => {
  dev = await startDevProvider();
  issues = await serveIssues({ issuer: dev.issuer });
});
after(async () => {
  await issues.close();
  await dev.close();
});

const call = (scope: string, tool: string, args: Record<string, unknown> = {}) =>
  callWithClientCredentials({
    url: issues.url,
    issuer: dev.issuer,
    clientId: DEV_CLIENT.clientId,
    clientSecret: DEV_CLIENT.clientSecret,
    scope,
    tool,
    args,
  });

test(
  'auth sample: the client obtains a token by client credentials and calls tools; tools/list shows only what the token may call',
  { timeout: 30_000 },
  async () => {
    assert.deepEqual(await call('mcp issues:write', 'create_issue', { title: 'hello' }), {
      listed: ['create_issue', 'whoami'],
      text: 'opened #1 "hello" as sample-client',
    });
    assert.deepEqual(await call('mcp issues:read', 'list_issues'), {
      listed: ['list_issues', 'whoami'],
      text: '#1 hello (sample-client)',
    });
    assert.deepEqual(await call('mcp', 'whoami'), {
      listed: ['whoami'],
      text: 'sample-client via client sample-client, scopes: mcp',
    });
  },
);

test(
  'auth sample: the MCP Inspector CLI calls a tool with a bearer token, and is told auth is required without one',
  { timeout: 60_000 },
  async () => {
    const tokenResponse = await fetch(`${dev.issuer}/token`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Authorization: `Basic ${Buffer.from(`${DEV_CLIENT.clientId}:${DEV_CLIENT.clientSecret}`).toString('base64')}`,
      },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        resource: issues.url,
        scope: 'mcp issues:read',
      }).toString(),
    });
    const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
    const inspector = (extra: readonly string[]) =>
      runProcess(
        process.execPath,
        [
          INSPECTOR_PATH,
          '--cli',
          issues.url,
          ...extra,
          '--method',
          'tools/call',
          '--tool-name',
          'whoami',
          '--format',
          'json',
          '-q',
        ],
        { timeoutMs: 30_000, cwd: REPO_ROOT },
      );
    const authorized = await inspector(['--header', `Authorization: Bearer ${token}`]);
    assert.equal(authorized.code, 0, authorized.stderr);
    assert.deepEqual(JSON.parse(authorized.stdout), {
      result: { content: [{ type: 'text', text: 'sample-client via client sample-client, scopes: mcp issues:read' }] },
    });
    const anonymous = await inspector([]);
    assert.equal(
      anonymous.code,
      3,
      `expected exit 3 (auth required); stdout: ${anonymous.stdout} stderr: ${anonymous.stderr}`,
    );
  },
);

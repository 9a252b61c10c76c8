/**
 * What the OAuth resource server costs per request: the same `tools/call` over streamable HTTP
 * (one session, SDK 1.x client, sequential calls) against a server without `auth` and one with
 * `auth` (`jwtVerifier`: ES256 signature check with the cached JWKS, audience, issuer, expiry,
 * scopes, session owner, tool scopes), measured side by side in interleaved rounds. Tokens come
 * from the sample's development authorization server on 127.0.0.1. Prints the median time per
 * call and the ratio auth / no auth, then the gate's own cost: one `admit` (header parse, ES256
 * signature, audience, issuer, expiry, scopes) on an in-memory request, median of 7 rounds.
 *
 *   node dist/bench/auth.bench.js        (or `npm run bench`, which runs every bench)
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createAuthGate, jwtVerifier } from '../src/mcp/index.js';
import { serveHttp, type HttpHandle } from '../src/index.js';
import { DEV_CLIENT, startDevProvider } from '../samples/auth/dev-provider.js';
import { issueTools } from '../samples/auth/issues.js';

const CALLS = 200;
const ROUNDS = 7;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function clientFor(handle: HttpHandle, token?: string): Promise<Client> {
  const client = new Client({ name: 'auth-bench', version: '1.0.0' });
  const headers: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` };
  await client.connect(new StreamableHTTPClientTransport(new URL(handle.url), { requestInit: { headers } }));
  return client;
}

async function timeCalls(client: Client): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i++) {
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    if (result.isError === true) throw new Error(`whoami failed: ${JSON.stringify(result)}`);
  }
  return Number(process.hrtime.bigint() - start) / 1e3 / CALLS;
}

export async function run(): Promise<void> {
  const dev = await startDevProvider();
  const info = { name: 'auth-bench', version: '1.0.0' };
  const open = await serveHttp(info, issueTools());
  const guarded = await serveHttp(info, issueTools(), {
    auth: { verifier: jwtVerifier({ issuer: dev.issuer }), issuer: dev.issuer, requiredScopes: ['mcp'] },
  });
  try {
    const response = await fetch(`${dev.issuer}/token`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Authorization: `Basic ${Buffer.from(`${DEV_CLIENT.clientId}:${DEV_CLIENT.clientSecret}`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', resource: guarded.url, scope: 'mcp' }).toString(),
    });
    const { access_token: token } = (await response.json()) as { access_token: string };
    const plain = await clientFor(open);
    const authed = await clientFor(guarded, token);
    await timeCalls(plain); // warm up both
    await timeCalls(authed);
    const without: number[] = [];
    const withAuth: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      without.push(await timeCalls(plain));
      withAuth.push(await timeCalls(authed));
    }
    const a = median(without);
    const b = median(withAuth);
    console.log(
      `tools/call over HTTP, one session, ${CALLS} sequential calls per round, median of ${ROUNDS} interleaved rounds`,
    );
    console.log(
      `  no auth ${a.toFixed(0).padStart(6)} µs/call   auth (JWT) ${b.toFixed(0).padStart(6)} µs/call   auth/no auth ${(b / a).toFixed(2)}x`,
    );
    await plain.close();
    await authed.close();

    const gate = createAuthGate({
      verifier: jwtVerifier({ issuer: dev.issuer }),
      issuer: dev.issuer,
      requiredScopes: ['mcp'],
      resource: guarded.url,
    });
    const req = {
      method: 'POST',
      url: '/mcp',
      headers: { authorization: `Bearer ${token}` },
    } as unknown as IncomingMessage;
    const res = {} as ServerResponse;
    const admits: number[] = [];
    for (let round = 0; round < ROUNDS + 1; round++) {
      const start = process.hrtime.bigint();
      for (let i = 0; i < 1000; i++) if (await gate.admit(req, res)) throw new Error('the gate refused a valid token');
      if (round > 0) admits.push(Number(process.hrtime.bigint() - start) / 1e3 / 1000);
    }
    console.log(`  gate.admit alone (valid JWT, 1000 per round): ${median(admits).toFixed(0)} µs`);
  } finally {
    await open.close();
    await guarded.close();
    await dev.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  run().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}

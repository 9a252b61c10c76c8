/**
 * The session-cap attack of issue 20, run against `serveHttp` on 127.0.0.1 with the default
 * limits: an attacker opens `initialize` after `initialize` (20 at a time, never ending one)
 * until it is refused, then keeps flooding while a second client opens 50 sessions, one after
 * another, with the SDK 1.x client. Printed per scenario: how many sessions the attacker got and
 * the refusal it saw, and the second client's sessions opened / refused with the median and 95th
 * percentile time of one `connect`, next to the same 50 connects before the attack (all closed
 * again before it starts). Scenarios: two principals with `auth` (per principal), two
 * addresses without (127.0.0.1 and 127.0.0.2, per address), and the first again with
 * `maxSessionsPerPrincipal: Infinity`, which is how every server behaved before the per-client
 * limits (one shared `maxSessions`).
 *
 *   node dist/bench/session-cap.bench.js        (or `npm run bench`, which runs every bench)
 */
import { Agent, request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { invalidToken, serveHttp, type AuthOptions, type HttpHandle, type ServeHttpOptions } from '../src/mcp/index.js';
import { fetchFrom } from '../test/support/fetch-from.js';
import { median } from './support/median.js';

const SECOND_CLIENT_SESSIONS = 50;
const FLOOD_CONCURRENCY = 20;
const RESOURCE = 'http://127.0.0.1/mcp';
const ISSUER = 'http://127.0.0.1/bench-issuer';

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'attacker', version: '1.0.0' } },
});

/** `Bearer <name>` is a valid token of principal `<name>`. */
const auth: AuthOptions = {
  issuer: ISSUER,
  resource: RESOURCE,
  verifier: async (token) => {
    if (!/^[a-z]+$/.test(token)) throw invalidToken('not a bench token');
    const expiresAt = Math.floor(Date.now() / 1000) + 3600;
    return { subject: token, clientId: 'app', scopes: [], expiresAt, audience: [RESOURCE], issuer: ISSUER, claims: {} };
  },
};

/** One raw `initialize`: its status and, for a 503, its message. */
function initialize(
  port: number,
  agent: Agent,
  headers: Record<string, string>,
): Promise<{ status: number; message?: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        agent,
        headers: {
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          resolve(
            status === 503
              ? { status, message: (JSON.parse(text) as { error: { message: string } }).error.message }
              : { status },
          );
        });
      },
    );
    req.on('error', reject);
    req.end(INITIALIZE);
  });
}

interface Attack {
  readonly opened: number;
  readonly refusal: string;
  /** Stops the flood and resolves how many more `initialize` requests it sent meanwhile. */
  stop(): Promise<number>;
}

/** Opens sessions as the attacker until refused, then keeps flooding until stopped. */
async function attack(port: number, headers: Record<string, string>, localAddress?: string): Promise<Attack> {
  const agent = new Agent({
    keepAlive: true,
    maxSockets: FLOOD_CONCURRENCY,
    ...(localAddress ? { localAddress } : {}),
  });
  let opened = 0;
  let refusal: string | undefined;
  while (refusal === undefined) {
    const answers = await Promise.all(
      Array.from({ length: FLOOD_CONCURRENCY }, () => initialize(port, agent, headers)),
    );
    for (const answer of answers) {
      if (answer.status === 200) opened++;
      else refusal ??= answer.message ?? `HTTP ${answer.status}`;
    }
  }
  let flooding = true;
  let sent = 0;
  const workers = Array.from({ length: FLOOD_CONCURRENCY }, async () => {
    while (flooding) {
      const answer = await initialize(port, agent, headers);
      sent++;
      if (answer.status === 200) opened++;
    }
  });
  return {
    get opened() {
      return opened;
    },
    refusal,
    stop: async () => {
      flooding = false;
      await Promise.all(workers);
      agent.destroy();
      return sent;
    },
  };
}

/** The second client's `connect`s while the flood goes on: how many opened, were refused, and their times. */
async function secondClient(
  url: string,
  headers: Record<string, string>,
  from?: string,
): Promise<{ opened: number; refused: number; refusal?: string; ms: number[] }> {
  const clients: Array<{ client: Client; transport: StreamableHTTPClientTransport }> = [];
  const ms: number[] = [];
  let refused = 0;
  let refusal: string | undefined;
  for (let i = 0; i < SECOND_CLIENT_SESSIONS; i++) {
    const client = new Client({ name: 'second', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers },
      ...(from === undefined ? {} : { fetch: fetchFrom(from) }),
    });
    const start = process.hrtime.bigint();
    try {
      await client.connect(transport);
      clients.push({ client, transport });
    } catch (error) {
      refused++;
      refusal ??= (error as Error).message;
    }
    ms.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  // Ended with DELETE, so that they no longer count against anyone's limit.
  await Promise.all(
    clients.map(async ({ client, transport }) => (await transport.terminateSession(), await client.close())),
  );
  return { opened: clients.length, refused, ...(refusal === undefined ? {} : { refusal }), ms };
}

const p95 = (values: readonly number[]): number =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.95))]!;

async function scenario(
  title: string,
  options: ServeHttpOptions,
  attacker: { headers: Record<string, string>; from?: string },
  second: { headers: Record<string, string>; from?: string },
): Promise<void> {
  const handle: HttpHandle = await serveHttp({ name: 'session-cap', version: '1.0.0' }, [], options);
  try {
    const quiet = await secondClient(handle.url, second.headers, second.from);
    const flood = await attack(handle.port, attacker.headers, attacker.from);
    const result = await secondClient(handle.url, second.headers, second.from);
    const sent = await flood.stop();
    console.log(`\n${title}`);
    console.log(`  attacker: ${flood.opened} sessions, then refused: ${flood.refusal}`);
    console.log(`  attacker kept flooding: ${sent} more initialize requests while the second client connected`);
    console.log(
      `  second client: ${result.opened} of ${SECOND_CLIENT_SESSIONS} sessions opened, ${result.refused} refused; ` +
        `connect median ${median(result.ms).toFixed(1)} ms, p95 ${p95(result.ms).toFixed(1)} ms`,
    );
    console.log(
      `  the same ${SECOND_CLIENT_SESSIONS} connects with nobody flooding (before the attack): median ${median(quiet.ms).toFixed(1)} ms, p95 ${p95(quiet.ms).toFixed(1)} ms`,
    );
    if (result.refusal !== undefined) console.log(`  second client's first refusal: ${result.refusal}`);
  } finally {
    await handle.close();
  }
}

export async function run(): Promise<void> {
  await scenario(
    'with auth, default limits: principal "mallory" floods, principal "alice" connects',
    { auth },
    { headers: { authorization: 'Bearer mallory' } },
    { headers: { authorization: 'Bearer alice' } },
  );
  await scenario(
    'without auth, default limits: 127.0.0.1 floods, 127.0.0.2 connects',
    {},
    { headers: {} },
    { headers: {}, from: '127.0.0.2' },
  );
  await scenario(
    'as before the per-client limits (maxSessionsPerPrincipal: Infinity): "mallory" floods, "alice" connects',
    { auth, maxSessionsPerPrincipal: Infinity },
    { headers: { authorization: 'Bearer mallory' } },
    { headers: { authorization: 'Bearer alice' } },
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  run().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}

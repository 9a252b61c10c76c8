/**
 * Several toolwright processes behind HAProxy, measured in one run:
 *
 * 1. Throughput and latency of stateless 2026-07-28-era `whoami` calls (raw HTTP POSTs, 16 in
 *    flight) against 1 process directly, and 1, 2 and 4 processes behind HAProxy: calls/s and
 *    p50/p99 per call as the client sees them, all set up at once and driven in short slices in
 *    rotating order (8 x 500 ms each), so machine noise hits them alike. The load generator
 *    (this process), HAProxy and the servers share the machine's cores (printed), which bound
 *    the scaling: on 2 cores, 4 processes cannot be faster than 2.
 * 2. The parked-run relay's cost: a `confirm` call is parked on node 1, then its retry is sent to
 *    node 1 itself (local) or to node 2, which relays it to node 1 through Redis pub/sub and back.
 *    Rounds alternate; p50/p99 of the retry, and the difference of the medians.
 *
 *   node dist/bench/cluster.bench.js        (or `npm run bench`, which runs every bench)
 *
 * Needs `haproxy` and `redis-server` (see the README); without them it says so and measures nothing.
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { haproxyBinary, startBalancer, type Balancer } from '../samples/cluster/balancer.js';
import { NodeProcesses } from '../samples/cluster/processes.js';
import { redisServerBinary, startLocalRedis } from '../samples/cluster/redis.js';

const NODE_SCRIPT = join(fileURLToPath(new URL('.', import.meta.url)), '..', 'samples', 'cluster', 'node-main.js');
const ROUNDS = 8;
const SLICE_MS = 500;
const WARMUP_MS = 300;
const IN_FLIGHT = 16;
const RELAY_ROUNDS = 200;

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
  'io.modelcontextprotocol/clientInfo': { name: 'cluster-bench', version: '1.0.0' },
};

/** POSTs one 2026-07-28 `tools/call` and resolves its result (throws on anything else). */
async function call(url: string, name: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': name,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name, arguments: {}, ...params, _meta: META },
    }),
  });
  const text = await res.text();
  const json = (res.headers.get('content-type') ?? '').startsWith('text/event-stream')
    ? text
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => JSON.parse(l.slice(6)) as { id?: unknown; result?: Record<string, unknown> })
        .find((m) => m.id !== undefined)
    : (JSON.parse(text) as { result?: Record<string, unknown> });
  if (json?.result === undefined) throw new Error(`no result: HTTP ${res.status} ${text.slice(0, 200)}`);
  return json.result;
}

/** The `q` quantile of sorted `values` (nearest rank). */
function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
}

/** Keeps `IN_FLIGHT` calls going against `url` for `ms`, and returns each call's latency (ms). */
async function load(url: string, ms: number): Promise<number[]> {
  const latencies: number[] = [];
  const end = performance.now() + ms;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (performance.now() < end) {
        const start = performance.now();
        await call(url, 'whoami');
        latencies.push(performance.now() - start);
      }
    }),
  );
  return latencies;
}

interface Contender {
  readonly label: string;
  readonly url: string;
  readonly latencies: number[];
  ms: number;
}

async function measureThroughput(): Promise<void> {
  const sets: NodeProcesses[] = [];
  const balancers: Balancer[] = [];
  try {
    const contenders: Contender[] = [];
    for (const count of [1, 2, 4]) {
      const processes = await NodeProcesses.start({ count, script: NODE_SCRIPT, env: { CLUSTER_QUIET: '1' } });
      sets.push(processes);
      if (count === 1)
        contenders.push({ label: '1 process, direct', url: processes.nodes[0]!.url, latencies: [], ms: 0 });
      const balancer = await startBalancer({
        backends: processes.nodes.map((node) => ({ name: node.nodeId, port: node.port })),
      });
      balancers.push(balancer);
      contenders.push({
        label: `${count} process${count === 1 ? '' : 'es'} behind HAProxy`,
        url: balancer.url,
        latencies: [],
        ms: 0,
      });
    }
    for (const contender of contenders) await load(contender.url, WARMUP_MS);
    // Short slices in rotating order, so that the machine's noise hits every contender alike.
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < contenders.length; i++) {
        const contender = contenders[(round + i) % contenders.length]!;
        const started = performance.now();
        contender.latencies.push(...(await load(contender.url, SLICE_MS)));
        contender.ms += performance.now() - started;
      }
    }
    const base = contenders[1]!.latencies.length / contenders[1]!.ms;
    console.log(
      `stateless whoami, ${IN_FLIGHT} in flight, ${ROUNDS} slices of ${SLICE_MS} ms each, rotating; ${availableParallelism()} cores shared by the client, HAProxy and the servers:`,
    );
    for (const contender of contenders) {
      const sorted = contender.latencies.sort((a, b) => a - b);
      const rate = sorted.length / contender.ms;
      console.log(
        `  ${contender.label.padEnd(26)} ${(rate * 1000).toFixed(0).padStart(7)} calls/s (x${(rate / base).toFixed(2)} of 1 behind HAProxy)   p50 ${quantile(sorted, 0.5).toFixed(2).padStart(6)} ms   p99 ${quantile(sorted, 0.99).toFixed(2).padStart(6)} ms`,
      );
    }
  } finally {
    await Promise.all(balancers.map((balancer) => balancer.stop()));
    await Promise.all(sets.map((set) => set.stop()));
  }
}

async function measureRelay(): Promise<void> {
  const redis = await startLocalRedis();
  const processes = await NodeProcesses.start({
    count: 2,
    script: NODE_SCRIPT,
    env: { CLUSTER_QUIET: '1', REDIS_URL: redis.url },
  });
  try {
    const owner = processes.nodes[0]!;
    const other = processes.nodes[1]!;
    const local: number[] = [];
    const relayed: number[] = [];
    const answers = { elicit_1: { action: 'accept', content: { ok: true } } };
    for (let round = 0; round < RELAY_ROUNDS + 20; round++) {
      for (const [target, into] of (round % 2 === 0
        ? [
            [owner, local],
            [other, relayed],
          ]
        : [
            [other, relayed],
            [owner, local],
          ]) as Array<[{ url: string }, number[]]>) {
        const first = await call(owner.url, 'confirm');
        const start = performance.now();
        const result = await call(target.url, 'confirm', { requestState: first.requestState, inputResponses: answers });
        const took = performance.now() - start;
        if (result.isError === true) throw new Error(`the retry failed: ${JSON.stringify(result)}`);
        if (round >= 20) into.push(took);
      }
    }
    local.sort((a, b) => a - b);
    relayed.sort((a, b) => a - b);
    const row = (label: string, values: number[]) =>
      `  ${label.padEnd(34)} p50 ${quantile(values, 0.5).toFixed(2).padStart(6)} ms   p99 ${quantile(values, 0.99).toFixed(2).padStart(6)} ms`;
    console.log(`parked-run retry (${RELAY_ROUNDS} each, alternating; Redis pub/sub on loopback):`);
    console.log(row('retry on the owning process', local));
    console.log(row('retry on another process (relayed)', relayed));
    console.log(
      `  relay cost per retry: +${(quantile(relayed, 0.5) - quantile(local, 0.5)).toFixed(2)} ms at the median (x${(quantile(relayed, 0.5) / quantile(local, 0.5)).toFixed(2)})`,
    );
  } finally {
    await processes.stop();
    await redis.stop();
  }
}

export async function run(): Promise<void> {
  if (haproxyBinary() === undefined || redisServerBinary() === undefined) {
    console.log('cluster bench skipped: it needs haproxy and redis-server (apt-get install haproxy redis-server)');
    return;
  }
  await measureThroughput();
  await measureRelay();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  run().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}

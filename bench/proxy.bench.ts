/**
 * What the proxy adds per call: the same `echo` tool (the toolwright echo server) called directly
 * over stdio, and through `createProxy` (a proxy child over stdio, which calls the echo server as
 * its own stdio child), driven side by side by real SDK clients in interleaved rounds. It prints
 * the latency per call each way and the difference (the proxy's added latency), and the CPU time
 * per call of the direct server and of the proxy process itself (the upstream behind the proxy
 * does the same work as the direct server and is not counted again).
 *
 *   node dist/bench/proxy.bench.js          (or `npm run bench`, which runs every bench)
 */
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { requestCpuReport } from './support/cpu-report.js';

const WARMUP_CALLS = 300;
const ROUNDS = 10;
const CALLS_PER_ROUND = 200;

interface Contender {
  readonly label: string;
  readonly client: Client;
  readonly transport: StdioClientTransport;
  readonly cpuLines: string[];
  wallMs: number;
  cpuMicros: number;
  calls: number;
}

async function start(label: string, script: string): Promise<Contender> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [fileURLToPath(new URL(script, import.meta.url))], stderr: 'pipe' });
  const cpuLines: string[] = [];
  let pending = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    for (let newline = pending.indexOf('\n'); newline >= 0; newline = pending.indexOf('\n')) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      if (line.startsWith('cpu ')) cpuLines.push(line);
      else process.stderr.write(`[${label}] ${line}\n`);
    }
  });
  const client = new Client({ name: 'proxy-bench', version: '1.0.0' });
  await client.connect(transport);
  return { label, client, transport, cpuLines, wallMs: 0, cpuMicros: 0, calls: 0 };
}

async function cpuOf(contender: Contender): Promise<number> {
  return requestCpuReport(contender.label, contender.transport.pid, contender.cpuLines);
}

async function callEcho(contender: Contender, i: number): Promise<void> {
  const result = await contender.client.request({ method: 'tools/call', params: { name: 'echo', arguments: { text: `hello ${i}`, count: 2 } } }, CallToolResultSchema);
  const first = result.content[0];
  if (result.isError || first?.type !== 'text' || first.text !== `hello ${i} hello ${i}`) throw new Error(`${contender.label}: unexpected echo result ${JSON.stringify(result)}`);
}

async function round(contender: Contender, calls: number, measure: boolean): Promise<void> {
  const cpuBefore = measure ? await cpuOf(contender) : 0;
  const started = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) await callEcho(contender, i);
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  if (!measure) return;
  contender.cpuMicros += (await cpuOf(contender)) - cpuBefore;
  contender.wallMs += wallMs;
  contender.calls += calls;
}

export async function run(): Promise<void> {
  const contenders: Contender[] = [];
  try {
    contenders.push(await start('direct', './support/toolwright-echo-server.js'));
    contenders.push(await start('through the proxy', './support/proxy-echo-server.js'));
    for (const contender of contenders) await round(contender, WARMUP_CALLS, false);
    for (let r = 0; r < ROUNDS; r++) {
      const order = r % 2 === 0 ? contenders : [...contenders].reverse();
      for (const contender of order) await round(contender, CALLS_PER_ROUND, true);
    }
  } finally {
    await Promise.allSettled(contenders.map((contender) => contender.client.close()));
  }
  const [direct, proxied] = contenders.map((c) => ({ latencyUs: (c.wallMs * 1000) / c.calls, cpuUs: c.cpuMicros / c.calls }));
  console.log(`proxy.bench: echo {text, count} over stdio, ${ROUNDS} interleaved rounds x ${CALLS_PER_ROUND} sequential calls each (after ${WARMUP_CALLS} warm-up calls)`);
  console.log(`  direct              latency ${direct!.latencyUs.toFixed(0).padStart(6)} µs/call   server CPU ${direct!.cpuUs.toFixed(1).padStart(7)} µs/call`);
  console.log(`  through the proxy   latency ${proxied!.latencyUs.toFixed(0).padStart(6)} µs/call   proxy CPU  ${proxied!.cpuUs.toFixed(1).padStart(7)} µs/call (upstream not counted)`);
  console.log(`  added by the proxy  latency +${(proxied!.latencyUs - direct!.latencyUs).toFixed(0)} µs/call (x${(proxied!.latencyUs / direct!.latencyUs).toFixed(2)})   proxy CPU / direct server CPU x${(proxied!.cpuUs / direct!.cpuUs).toFixed(2)}`);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  run().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}

/**
 * What the proxy adds per call: the same `echo` tool (the toolwright echo server) called directly
 * over stdio, and through `createProxy` (a proxy child over stdio, which calls the echo server as
 * its own stdio child), driven side by side by real SDK clients in interleaved rounds. It prints
 * the latency per call each way and the difference (the proxy's added latency), and the CPU time
 * per call of the direct server and of the proxy process itself (the upstream behind the proxy
 * does the same work as the direct server and is not counted again). It runs twice: with the
 * SDK 1.x client (2025-11-25) and with the 2.x client pinned to 2026-07-28; the proxy's own
 * client negotiates 2026-07-28 with the upstream in both runs.
 *
 *   node dist/bench/proxy.bench.js          (or `npm run bench`, which runs every bench)
 */
import { fileURLToPath } from 'node:url';
import type { Readable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { requestCpuReport } from './support/cpu-report.js';

const WARMUP_CALLS = 300;
const ROUNDS = 10;
const CALLS_PER_ROUND = 200;

/** Which client drives a contender: the SDK 1.x client (2025-11-25) or the 2.x client pinned to 2026-07-28. */
type Era = '2025-11-25' | '2026-07-28';

interface Contender {
  readonly label: string;
  readonly call: (i: number) => Promise<{ content: Array<{ type: string; text?: string }>; isError?: boolean }>;
  readonly pid: () => number | null;
  readonly close: () => Promise<void>;
  readonly cpuLines: string[];
  wallMs: number;
  cpuMicros: number;
  calls: number;
}

/** Collects the child's `cpu ...` lines from its stderr and passes every other line through. */
function collectCpuLines(label: string, stderr: Readable | null, cpuLines: string[]): void {
  let pending = '';
  stderr?.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    for (let newline = pending.indexOf('\n'); newline >= 0; newline = pending.indexOf('\n')) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      if (line.startsWith('cpu ')) cpuLines.push(line);
      else process.stderr.write(`[${label}] ${line}\n`);
    }
  });
}

async function start(label: string, script: string, era: Era): Promise<Contender> {
  const params = {
    command: process.execPath,
    args: [fileURLToPath(new URL(script, import.meta.url))],
    stderr: 'pipe' as const,
  };
  const cpuLines: string[] = [];
  const echo = (i: number) => ({ name: 'echo', arguments: { text: `hello ${i}`, count: 2 } });
  if (era === '2025-11-25') {
    const transport = new StdioClientTransport(params);
    collectCpuLines(label, transport.stderr as Readable | null, cpuLines);
    const client = new Client({ name: 'proxy-bench', version: '1.0.0' });
    await client.connect(transport);
    return {
      label,
      call: (i) => client.request({ method: 'tools/call', params: echo(i) }, CallToolResultSchema),
      pid: () => transport.pid,
      close: () => client.close(),
      cpuLines,
      wallMs: 0,
      cpuMicros: 0,
      calls: 0,
    };
  }
  const transport = new StdioV2(params);
  collectCpuLines(label, transport.stderr as Readable | null, cpuLines);
  const client = new ClientV2(
    { name: 'proxy-bench', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: era } } },
  );
  await client.connect(transport);
  if (client.getProtocolEra() !== 'modern') throw new Error(`${label}: the 2.x client did not negotiate ${era}`);
  return {
    label,
    call: (i) => client.callTool(echo(i)) as never,
    pid: () => transport.pid,
    close: () => client.close(),
    cpuLines,
    wallMs: 0,
    cpuMicros: 0,
    calls: 0,
  };
}

async function cpuOf(contender: Contender): Promise<number> {
  return requestCpuReport(contender.label, contender.pid(), contender.cpuLines);
}

async function callEcho(contender: Contender, i: number): Promise<void> {
  const result = await contender.call(i);
  const first = result.content[0];
  if (result.isError || first?.type !== 'text' || first.text !== `hello ${i} hello ${i}`)
    throw new Error(`${contender.label}: unexpected echo result ${JSON.stringify(result)}`);
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
  for (const era of ['2025-11-25', '2026-07-28'] as const) await runEra(era);
}

/**
 * One era's side-by-side run: the client speaks `era` to the direct server and to the proxy; the
 * proxy's own client (`connectServer`, the 2.x client) negotiates the 2026-07-28 era with the
 * upstream either way.
 */
async function runEra(era: Era): Promise<void> {
  const contenders: Contender[] = [];
  try {
    contenders.push(await start('direct', './support/toolwright-echo-server.js', era));
    contenders.push(await start('through the proxy', './support/proxy-echo-server.js', era));
    for (const contender of contenders) await round(contender, WARMUP_CALLS, false);
    for (let r = 0; r < ROUNDS; r++) {
      const order = r % 2 === 0 ? contenders : [...contenders].reverse();
      for (const contender of order) await round(contender, CALLS_PER_ROUND, true);
    }
  } finally {
    await Promise.allSettled(contenders.map((contender) => contender.close()));
  }
  const [direct, proxied] = contenders.map((c) => ({
    latencyUs: (c.wallMs * 1000) / c.calls,
    cpuUs: c.cpuMicros / c.calls,
  }));
  console.log(
    `proxy.bench: echo {text, count} over stdio, client in the ${era} era, ${ROUNDS} interleaved rounds x ${CALLS_PER_ROUND} sequential calls each (after ${WARMUP_CALLS} warm-up calls)`,
  );
  console.log(
    `  direct              latency ${direct!.latencyUs.toFixed(0).padStart(6)} µs/call   server CPU ${direct!.cpuUs.toFixed(1).padStart(7)} µs/call`,
  );
  console.log(
    `  through the proxy   latency ${proxied!.latencyUs.toFixed(0).padStart(6)} µs/call   proxy CPU  ${proxied!.cpuUs.toFixed(1).padStart(7)} µs/call (upstream not counted)`,
  );
  console.log(
    `  added by the proxy  latency +${(proxied!.latencyUs - direct!.latencyUs).toFixed(0)} µs/call (x${(proxied!.latencyUs / direct!.latencyUs).toFixed(2)})   proxy CPU / direct server CPU x${(proxied!.cpuUs / direct!.cpuUs).toFixed(2)}`,
  );
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  run().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}

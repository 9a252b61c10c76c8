/**
 * toolwright/nest against plain toolwright and `@rekog/mcp-nest` 2.x: the NestJS sample's `greet`
 * tool (a provider with an injected service) served over stdio by `ToolwrightModule` in a
 * standalone Nest application context, the same class served by `serveStdio` without Nest, and
 * the same tool as an `@McpController` method with a zod schema served by rekog's
 * `McpStrategy` in a Nest microservice. Side by side in one run:
 *
 * - cold start: from spawning the server process to the answer of the first `tools/list`
 *   (the client's `initialize` included), median of interleaved starts, as wall time and as the
 *   server process's own CPU time until then (steadier on a busy machine);
 * - server CPU per call (the child's own user + system time, read through its SIGUSR2 report)
 *   and calls/s as the client sees them, over interleaved rounds of sequential calls.
 *
 *   node dist/bench/nest.bench.js         (or `npm run bench`, which runs every bench)
 */
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { requestCpuReport } from './support/cpu-report.js';

const COLD_STARTS = 5;
const WARMUP_CALLS = 300;
const ROUNDS = 8;
const CALLS_PER_ROUND = 200;

interface Side {
  readonly label: string;
  readonly script: string;
  readonly starts: number[];
  readonly startCpus: number[];
  cpuMicros: number;
  wallMs: number;
  calls: number;
}

interface Running {
  readonly client: Client;
  readonly transport: StdioClientTransport;
  readonly cpuLines: string[];
}

async function start(side: Side): Promise<Running> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [fileURLToPath(new URL(side.script, import.meta.url))],
    stderr: 'pipe',
  });
  const cpuLines: string[] = [];
  let pending = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    let newline: number;
    while ((newline = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      if (line.startsWith('cpu ')) cpuLines.push(line);
      else process.stderr.write(`[${side.label}] ${line}\n`);
    }
  });
  const client = new Client({ name: 'nest-bench', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport, cpuLines };
}

/** Spawns the side's server, times it to its first `tools/list` answer, and stops it. */
async function coldStart(side: Side): Promise<void> {
  const started = process.hrtime.bigint();
  const running = await start(side);
  const { tools } = await running.client.listTools();
  side.starts.push(Number(process.hrtime.bigint() - started) / 1e6);
  side.startCpus.push((await cpuOf(side, running)) / 1000);
  if (tools.map((tool) => tool.name).join() !== 'greet')
    throw new Error(`${side.label}: unexpected tools ${JSON.stringify(tools)}`);
  await running.client.close();
}

async function cpuOf(side: Side, running: Running): Promise<number> {
  return requestCpuReport(side.label, running.transport.pid, running.cpuLines);
}

async function round(side: Side, running: Running, calls: number, measure: boolean): Promise<void> {
  const cpuBefore = measure ? await cpuOf(side, running) : 0;
  const started = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) {
    const result = await running.client.request(
      { method: 'tools/call', params: { name: 'greet', arguments: { name: `n${i}` } } },
      CallToolResultSchema,
    );
    const first = result.content[0];
    if (result.isError || first?.type !== 'text' || first.text !== `Hello, n${i}!`)
      throw new Error(`${side.label}: unexpected result ${JSON.stringify(result)}`);
  }
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  if (!measure) return;
  side.cpuMicros += (await cpuOf(side, running)) - cpuBefore;
  side.wallMs += wallMs;
  side.calls += calls;
}

/** `items` rotated left by `by` places, so each round starts with another contender. */
function rotated<T>(items: readonly T[], by: number): T[] {
  const shift = by % items.length;
  return [...items.slice(shift), ...items.slice(0, shift)];
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export async function run(): Promise<void> {
  const sides: Side[] = [
    {
      label: 'toolwright/nest',
      script: './support/nest-greet-server.js',
      starts: [],
      startCpus: [],
      cpuMicros: 0,
      wallMs: 0,
      calls: 0,
    },
    {
      label: '@rekog/mcp-nest',
      script: './support/rekog-greet-server.js',
      starts: [],
      startCpus: [],
      cpuMicros: 0,
      wallMs: 0,
      calls: 0,
    },
    {
      label: 'toolwright plain',
      script: './support/plain-greet-server.js',
      starts: [],
      startCpus: [],
      cpuMicros: 0,
      wallMs: 0,
      calls: 0,
    },
  ];
  for (let i = 0; i < COLD_STARTS; i++) {
    for (const side of rotated(sides, i)) await coldStart(side);
  }
  const running: Running[] = [];
  try {
    for (const side of sides) running.push(await start(side));
    for (const [index, side] of sides.entries()) await round(side, running[index]!, WARMUP_CALLS, false);
    for (let r = 0; r < ROUNDS; r++) {
      for (const index of rotated([...sides.keys()], r))
        await round(sides[index]!, running[index]!, CALLS_PER_ROUND, true);
    }
  } finally {
    await Promise.allSettled(running.map((r) => r.client.close()));
  }
  const plain = sides[sides.length - 1]!;
  const plainStart = median(plain.starts);
  const plainStartCpu = median(plain.startCpus);
  const plainCpu = plain.cpuMicros / plain.calls;
  const plainRate = (plain.calls * 1000) / plain.wallMs;
  console.log(
    `nest.bench: greet {name} over stdio; cold start = spawn to first tools/list answer, median of ${COLD_STARTS}; then ${ROUNDS} interleaved rounds x ${CALLS_PER_ROUND} sequential calls (after ${WARMUP_CALLS} warm-up calls)`,
  );
  for (const side of sides) {
    const coldMs = median(side.starts);
    const coldCpuMs = median(side.startCpus);
    const cpu = side.cpuMicros / side.calls;
    const rate = (side.calls * 1000) / side.wallMs;
    const ratio =
      side === plain
        ? ''
        : `   vs plain: cold start x${(coldMs / plainStart).toFixed(2)} (CPU x${(coldCpuMs / plainStartCpu).toFixed(2)}), CPU/call x${(cpu / plainCpu).toFixed(2)}, calls/s x${(rate / plainRate).toFixed(2)}`;
    console.log(
      `  ${side.label.padEnd(17)} cold start ${coldMs.toFixed(0).padStart(5)} ms (CPU ${coldCpuMs.toFixed(0).padStart(4)} ms)   ${rate.toFixed(0).padStart(6)} calls/s   server CPU ${cpu.toFixed(1).padStart(6)} µs/call${ratio}`,
    );
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  run().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}

/**
 * Server overhead per call: the same `echo` tool served over stdio by toolwright as a decorated
 * class (compiled, `serveStdio`), by toolwright as a hand-built contract tool (same edge, no DTO
 * class), and by a hand-written SDK `McpServer.registerTool` with zod, each in a child process,
 * driven side by side in one run by real SDK clients. Rounds are interleaved (their order
 * rotates) so machine noise hits all alike. It prints calls/s as seen by the client and the
 * server child's own CPU time per call, and each toolwright figure's ratio to the SDK's (CPU
 * below 1.00 means toolwright costs less per call).
 *
 *   node dist/bench/server.bench.js         (or `npm run bench`, which runs every bench)
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
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [fileURLToPath(new URL(script, import.meta.url))],
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
      else process.stderr.write(`[${label}] ${line}\n`);
    }
  });
  const client = new Client({ name: 'server-bench', version: '1.0.0' });
  await client.connect(transport);
  return { label, client, transport, cpuLines, wallMs: 0, cpuMicros: 0, calls: 0 };
}

/** The child's CPU time so far (user + system, µs), read through its SIGUSR2 report. */
async function cpuOf(contender: Contender): Promise<number> {
  return requestCpuReport(contender.label, contender.transport.pid, contender.cpuLines);
}

async function callEcho(contender: Contender, i: number): Promise<void> {
  const result = await contender.client.request(
    { method: 'tools/call', params: { name: 'echo', arguments: { text: `hello ${i}`, count: 2 } } },
    CallToolResultSchema,
  );
  const first = result.content[0];
  if (result.isError || first?.type !== 'text' || first.text !== `hello ${i} hello ${i}`) {
    throw new Error(`${contender.label}: unexpected echo result ${JSON.stringify(result)}`);
  }
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

function figures(contender: Contender): { callsPerSecond: number; cpuMicrosPerCall: number } {
  return {
    callsPerSecond: (contender.calls * 1000) / contender.wallMs,
    cpuMicrosPerCall: contender.cpuMicros / contender.calls,
  };
}

export async function run(): Promise<void> {
  const contenders: Contender[] = [];
  try {
    contenders.push(await start('toolwright class', './support/toolwright-echo-server.js'));
    contenders.push(await start('toolwright hand-built', './support/toolwright-handbuilt-echo-server.js'));
    contenders.push(await start('sdk McpServer+zod', './support/sdk-echo-server.js'));
    for (const contender of contenders) await round(contender, WARMUP_CALLS, false);
    for (let r = 0; r < ROUNDS; r++) {
      const order = [...contenders.slice(r % contenders.length), ...contenders.slice(0, r % contenders.length)];
      for (const contender of order) await round(contender, CALLS_PER_ROUND, true);
    }
  } finally {
    await Promise.allSettled(contenders.map((contender) => contender.client.close()));
  }
  const sdk = figures(contenders[contenders.length - 1]!);
  console.log(
    `server.bench: echo {text, count} over stdio, ${ROUNDS} interleaved rounds x ${CALLS_PER_ROUND} sequential calls each (after ${WARMUP_CALLS} warm-up calls)`,
  );
  for (const contender of contenders) {
    const f = figures(contender);
    const ratio =
      contender === contenders[contenders.length - 1]
        ? ''
        : `   vs SDK: calls/s x${(f.callsPerSecond / sdk.callsPerSecond).toFixed(2)}, CPU/call x${(f.cpuMicrosPerCall / sdk.cpuMicrosPerCall).toFixed(2)}`;
    console.log(
      `  ${contender.label.padEnd(22)} ${f.callsPerSecond.toFixed(0).padStart(6)} calls/s   server CPU ${f.cpuMicrosPerCall.toFixed(1).padStart(6)} µs/call${ratio}`,
    );
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  run().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}

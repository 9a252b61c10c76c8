/**
 * The MCP edge on the SDK 2.x line (issue 9) against the alternatives, side by side in one run:
 * the same `echo {text, count}` tool served by toolwright (a decorated class on
 * `@modelcontextprotocol/server` 2.x), by toolwright as it was before the move (SDK 1.x, built
 * from git commit `c0c1a79` into `.bench-baseline/`; left out when git or the commit is not
 * there), by a hand-written `McpServer.registerTool` with zod on SDK 2.x, and the same on SDK 1.x.
 * Each serves from a child process over stdio and over streamable HTTP on 127.0.0.1, driven by
 * the SDK 1.x client (the 2025-11-25 era every server speaks). Reported per transport: the
 * server child's own CPU per call (its SIGUSR2 report, 6 interleaved rounds x 150 calls after
 * 200 warm-up calls) with the ratio to SDK 2.x McpServer; and cold start over stdio (spawn to the
 * first `tools/list` answer, the median of 5 interleaved starts). Figures vary with the machine;
 * compare the ratios.
 *
 *   node dist/bench/edge.bench.js         (or `npm run bench`)
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const BASELINE_COMMIT = 'c0c1a79';
const WARMUP_CALLS = 200;
const ROUNDS = 6;
const CALLS_PER_ROUND = 150;
const COLD_STARTS = 5;
const WAIT_MS = 15_000;

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');

interface Contender {
  readonly label: string;
  readonly script: string;
}

interface Running {
  readonly contender: Contender;
  readonly client: Client;
  readonly pid: number;
  readonly cpuLines: string[];
  cpuMicros: number;
  calls: number;
  stop(): Promise<void>;
}

/** Builds toolwright as it was before issue 9 into `.bench-baseline/`, once; `undefined` when it cannot. */
function baselineScript(): string | undefined {
  const dir = join(root, '.bench-baseline');
  const script = join(dir, 'dist', 'echo.js');
  if (existsSync(script)) return script;
  try {
    mkdirSync(dir, { recursive: true });
    const tar = execFileSync('git', ['-C', root, 'archive', '--format=tar', BASELINE_COMMIT, 'src', 'samples', 'bench/support'], { maxBuffer: 64 * 1024 * 1024 });
    execFileSync('tar', ['-x', '-C', dir], { input: tar });
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ extends: '../tsconfig.json', compilerOptions: { rootDir: '.', outDir: 'dist' }, include: ['src', 'samples', 'bench/support'] }));
    execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], { stdio: 'ignore' });
    // Its own stdio echo server, and an HTTP one (the old bench servers had no HTTP mode).
    writeFileSync(script, [
      "if (process.argv[2] !== 'http') await import('./bench/support/toolwright-echo-server.js');",
      'else {',
      "  const { compile, serveHttp } = await import('./src/index.js');",
      "  const { Echo } = await import('./samples/conformance/echo-tool.js');",
      "  process.on('SIGUSR2', () => { const { user, system } = process.cpuUsage(); process.stderr.write(`cpu ${user} ${system}\\n`); });",
      "  const handle = await serveHttp({ name: 'toolwright-before', version: '1.0.0' }, compile([Echo]));",
      "  process.stderr.write(`url ${handle.url}\\n`);",
      '}',
    ].join('\n'));
    return script;
  } catch {
    return undefined;
  }
}

function collectStderr(stream: { on(event: "data", listener: (chunk: Buffer) => void): unknown } | null | undefined, label: string, cpuLines: string[], onLine?: (line: string) => void): void {
  let pending = '';
  stream?.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    for (let newline = pending.indexOf('\n'); newline >= 0; newline = pending.indexOf('\n')) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      if (line.startsWith('cpu ')) cpuLines.push(line);
      else if (onLine !== undefined && line.startsWith('url ')) onLine(line);
      else if (line.trim() !== '' && !line.startsWith('toolwright:')) process.stderr.write(`[${label}] ${line}\n`);
    }
  });
}

async function startStdio(contender: Contender): Promise<Running> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [contender.script], stderr: 'pipe' });
  const cpuLines: string[] = [];
  collectStderr(transport.stderr, contender.label, cpuLines);
  const client = new Client({ name: 'edge-bench', version: '1.0.0' });
  await client.connect(transport);
  return { contender, client, pid: transport.pid!, cpuLines, cpuMicros: 0, calls: 0, stop: () => client.close() };
}

async function startHttp(contender: Contender): Promise<Running> {
  const child: ChildProcess = spawn(process.execPath, [contender.script, 'http'], { stdio: ['ignore', 'ignore', 'pipe'] });
  const cpuLines: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${contender.label}: no URL within ${WAIT_MS} ms`)), WAIT_MS);
    collectStderr(child.stderr, contender.label, cpuLines, (line) => {
      clearTimeout(timer);
      resolve(line.slice(4).trim());
    });
    child.once('exit', () => reject(new Error(`${contender.label}: exited before printing its URL`)));
  });
  const client = new Client({ name: 'edge-bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return {
    contender,
    client,
    pid: child.pid!,
    cpuLines,
    cpuMicros: 0,
    calls: 0,
    stop: async () => {
      await client.close().catch(() => undefined);
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
  };
}

async function cpuOf(running: Running): Promise<number> {
  const before = running.cpuLines.length;
  process.kill(running.pid, 'SIGUSR2');
  const deadline = Date.now() + WAIT_MS;
  while (running.cpuLines.length === before) {
    if (Date.now() > deadline) throw new Error(`${running.contender.label}: no CPU report within ${WAIT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  const [, user, system] = running.cpuLines[running.cpuLines.length - 1]!.split(' ');
  return Number(user) + Number(system);
}

async function calls(running: Running, count: number, measure: boolean): Promise<void> {
  const before = measure ? await cpuOf(running) : 0;
  for (let i = 0; i < count; i++) {
    const result = (await running.client.callTool({ name: 'echo', arguments: { text: `hi ${i}`, count: 2 } })) as { content: Array<{ text?: string }> };
    if (result.content[0]?.text !== `hi ${i} hi ${i}`) throw new Error(`${running.contender.label}: unexpected result ${JSON.stringify(result)}`);
  }
  if (!measure) return;
  running.cpuMicros += (await cpuOf(running)) - before;
  running.calls += count;
}

async function cpuPerCall(contenders: readonly Contender[], start: (contender: Contender) => Promise<Running>): Promise<number[]> {
  const running: Running[] = [];
  try {
    for (const contender of contenders) running.push(await start(contender));
    for (const one of running) await calls(one, WARMUP_CALLS, false);
    for (let round = 0; round < ROUNDS; round++) {
      const order = [...running.slice(round % running.length), ...running.slice(0, round % running.length)];
      for (const one of order) await calls(one, CALLS_PER_ROUND, true);
    }
    return running.map((one) => one.cpuMicros / one.calls);
  } finally {
    await Promise.allSettled(running.map((one) => one.stop()));
  }
}

async function coldStarts(contenders: readonly Contender[]): Promise<number[]> {
  const samples = contenders.map(() => [] as number[]);
  for (let round = 0; round < COLD_STARTS; round++) {
    for (const [index, contender] of contenders.entries()) {
      const started = process.hrtime.bigint();
      const running = await startStdio(contender);
      await running.client.listTools();
      samples[index]!.push(Number(process.hrtime.bigint() - started) / 1e6);
      await running.stop();
    }
  }
  return samples.map((values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!);
}

export async function run(): Promise<void> {
  const contenders: Contender[] = [{ label: 'toolwright (SDK 2.x edge)', script: join(here, 'support', 'toolwright-echo-server.js') }];
  const baseline = baselineScript();
  if (baseline !== undefined) contenders.push({ label: `toolwright before (${BASELINE_COMMIT})`, script: baseline });
  contenders.push({ label: 'SDK 2.x McpServer+zod', script: join(here, 'support', 'sdk2-echo-server.js') });
  contenders.push({ label: 'SDK 1.x McpServer+zod', script: join(here, 'support', 'sdk-echo-server.js') });
  const reference = contenders.findIndex((c) => c.label.startsWith('SDK 2.x'));
  const stdio = await cpuPerCall(contenders, startStdio);
  const http = await cpuPerCall(contenders, startHttp);
  const cold = await coldStarts(contenders);
  console.log(`edge.bench: echo, server CPU per call (${ROUNDS} interleaved rounds x ${CALLS_PER_ROUND} calls, SDK 1.x client) and stdio cold start (median of ${COLD_STARTS})`);
  if (baseline === undefined) console.log(`  (toolwright before issue 9 left out: git commit ${BASELINE_COMMIT} could not be built)`);
  console.log(`  ${'server'.padEnd(30)} ${'stdio µs/call'.padStart(14)} ${'vs 2.x'.padStart(7)} ${'HTTP µs/call'.padStart(13)} ${'vs 2.x'.padStart(7)} ${'cold start ms'.padStart(14)} ${'vs 2.x'.padStart(7)}`);
  contenders.forEach((contender, index) => {
    const ratio = (values: number[]) => `x${(values[index]! / values[reference]!).toFixed(2)}`.padStart(7);
    console.log(`  ${contender.label.padEnd(30)} ${stdio[index]!.toFixed(1).padStart(14)} ${ratio(stdio)} ${http[index]!.toFixed(1).padStart(13)} ${ratio(http)} ${cold[index]!.toFixed(0).padStart(14)} ${ratio(cold)}`);
  });
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  run().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}

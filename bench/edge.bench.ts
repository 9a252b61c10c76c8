/**
 * The MCP edge's cost against the plain SDK, side by side in one run (issue 7, part c): the same
 * 6-property `echo6` tool (see `support/echo6-args.ts`) served by toolwright (a decorated class
 * with a class-validator DTO, on `@modelcontextprotocol/server` 2.x), by toolwright as a
 * hand-built contract tool (a JSON Schema, no DTO: the edge's own cost), by toolwright as it was
 * before the speed work (git commit `f7fafc4`, built into `.bench-baseline/f7fafc4/`; left out
 * when git or the commit is not there), by a hand-written `McpServer.registerTool` with zod on
 * SDK 2.x (the reference every ratio is to), and the same on SDK 1.x. Each serves from a child
 * process, driven by the SDK 1.x client (the 2025-11-25 era every server speaks). Reported:
 *
 * - server CPU per call over stdio and over streamable HTTP on 127.0.0.1: the child's own CPU
 *   time (its SIGUSR2 report) over 6 interleaved rounds x 150 calls after 200 warm-up calls, and
 *   the child's peak RSS after them; and over stdio again with 8 calls in flight at a time;
 * - cold start over stdio with 1, 100 and 1,000 tools: spawn to the first `tools/list` answer
 *   (wall time, the median of interleaved starts), the child's CPU time until then, and its peak
 *   RSS then.
 *
 * - last, every target of issue 7 side by side: each contender's ratio to SDK 2.x for CPU per
 *   call (at most x0.8), cold start with 100 and 1,000 tools (no slower: wall and CPU) and peak
 *   RSS (at most x1.1), marked `ok` or `OVER`.
 *
 * Every loop is bounded by the constants below. Figures vary with the machine (this one is
 * shared); compare the ratios. `EDGE_BENCH=calls` or `EDGE_BENCH=cold` runs one half only.
 *
 *   node dist/bench/edge.bench.js         (or `npm run bench`)
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { usageOfLine, type UsageReport } from './support/cpu-report.js';
import { median } from './support/median.js';

const BASELINE_COMMIT = 'f7fafc4';
const WARMUP_CALLS = 200;
const ROUNDS = 6;
const CALLS_PER_ROUND = 150;
/** Calls in flight at a time in the concurrent stdio run. */
const CONCURRENCY = 8;
/** Tool counts of the cold starts, and how many interleaved starts each gets. */
const COLD_STARTS: ReadonlyArray<{ readonly tools: number; readonly starts: number }> = [
  { tools: 1, starts: 5 },
  { tools: 100, starts: 5 },
  { tools: 1000, starts: 3 },
];
const WAIT_MS = 30_000;
const ARGUMENTS = { text: 'hi', count: 2, separator: '-', prefix: '<', suffix: '>', upper: false };

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

/**
 * Builds toolwright at `BASELINE_COMMIT` with this tree's bench servers into
 * `.bench-baseline/<commit>/`, once; `undefined` when it cannot.
 */
function baselineScript(): string | undefined {
  const dir = join(root, '.bench-baseline', BASELINE_COMMIT);
  const script = join(dir, 'dist', 'bench', 'support', 'echo6-toolwright-server.js');
  if (existsSync(script)) return script;
  try {
    mkdirSync(dir, { recursive: true });
    const tar = execFileSync('git', ['-C', root, 'archive', '--format=tar', BASELINE_COMMIT, 'src', 'samples'], {
      maxBuffer: 64 * 1024 * 1024,
    });
    execFileSync('tar', ['-x', '-C', dir], { input: tar });
    mkdirSync(join(dir, 'bench', 'support'), { recursive: true });
    // The bench servers import the published 'toolwright' (this tree's bundle): the copies import
    // the commit's own modules.
    for (const file of ['echo6-toolwright-server.ts', 'echo6-toolwright-tool.ts', 'echo6-args.ts', 'cpu-report.ts']) {
      writeFileSync(
        join(dir, 'bench', 'support', file),
        readFileSync(join(root, 'bench', 'support', file), 'utf8').replaceAll(
          "from 'toolwright'",
          "from '../../src/index.js'",
        ),
      );
    }
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        extends: '../../tsconfig.json',
        compilerOptions: { rootDir: '.', outDir: 'dist' },
        include: ['src', 'samples', 'bench/support'],
      }),
    );
    execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], {
      stdio: 'ignore',
    });
    return existsSync(script) ? script : undefined;
  } catch {
    return undefined;
  }
}

function collectStderr(
  stream: { on(event: 'data', listener: (chunk: Buffer) => void): unknown } | null | undefined,
  label: string,
  cpuLines: string[],
  onLine?: (line: string) => void,
): void {
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

async function startStdio(contender: Contender, toolCount = 1): Promise<Running> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [contender.script, 'stdio', String(toolCount)],
    stderr: 'pipe',
  });
  const cpuLines: string[] = [];
  collectStderr(transport.stderr, contender.label, cpuLines);
  const client = new Client({ name: 'edge-bench', version: '1.0.0' });
  await client.connect(transport);
  return { contender, client, pid: transport.pid!, cpuLines, cpuMicros: 0, calls: 0, stop: () => client.close() };
}

async function startHttp(contender: Contender): Promise<Running> {
  const child: ChildProcess = spawn(process.execPath, [contender.script, 'http', '1'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
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

async function usageOf(running: Running): Promise<UsageReport> {
  const before = running.cpuLines.length;
  process.kill(running.pid, 'SIGUSR2');
  const deadline = Date.now() + WAIT_MS;
  while (running.cpuLines.length === before) {
    if (Date.now() > deadline) throw new Error(`${running.contender.label}: no CPU report within ${WAIT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  return usageOfLine(running.cpuLines[running.cpuLines.length - 1]!);
}

async function callOnce(running: Running, i: number): Promise<void> {
  const result = (await running.client.callTool({ name: 'echo6', arguments: { ...ARGUMENTS, text: `hi ${i}` } })) as {
    content: Array<{ text?: string }>;
  };
  if (result.content[0]?.text !== `<hi ${i}-hi ${i}>`)
    throw new Error(`${running.contender.label}: unexpected result ${JSON.stringify(result)}`);
}

/** Makes `count` calls, `concurrency` at a time (a batch of that many in flight, then the next). */
async function calls(running: Running, count: number, measure: boolean, concurrency = 1): Promise<void> {
  const before = measure ? (await usageOf(running)).cpuMicros : 0;
  for (let i = 0; i < count; i += concurrency) {
    await Promise.all(Array.from({ length: Math.min(concurrency, count - i) }, (_, j) => callOnce(running, i + j)));
  }
  if (!measure) return;
  running.cpuMicros += (await usageOf(running)).cpuMicros - before;
  running.calls += count;
}

interface CallCost {
  readonly cpuPerCall: number;
  readonly peakRssMiB: number;
}

async function cpuPerCall(
  contenders: readonly Contender[],
  start: (contender: Contender) => Promise<Running>,
  concurrency = 1,
): Promise<CallCost[]> {
  const running: Running[] = [];
  try {
    for (const contender of contenders) running.push(await start(contender));
    for (const one of running) await calls(one, WARMUP_CALLS, false, concurrency);
    for (let round = 0; round < ROUNDS; round++) {
      const order = [...running.slice(round % running.length), ...running.slice(0, round % running.length)];
      for (const one of order) await calls(one, CALLS_PER_ROUND, true, concurrency);
    }
    const costs: CallCost[] = [];
    for (const one of running)
      costs.push({ cpuPerCall: one.cpuMicros / one.calls, peakRssMiB: (await usageOf(one)).maxRssKiB / 1024 });
    return costs;
  } finally {
    await Promise.allSettled(running.map((one) => one.stop()));
  }
}

interface ColdStart {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly peakRssMiB: number;
}

async function coldStarts(contenders: readonly Contender[], toolCount: number, starts: number): Promise<ColdStart[]> {
  const samples = contenders.map(() => [] as Array<ColdStart>);
  for (let round = 0; round < starts; round++) {
    for (const [index, contender] of contenders.entries()) {
      const started = process.hrtime.bigint();
      const running = await startStdio(contender, toolCount);
      try {
        const listed = await running.client.listTools();
        const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
        if (listed.tools.length !== toolCount)
          throw new Error(`${contender.label}: listed ${listed.tools.length} tools, expected ${toolCount}`);
        const usage = await usageOf(running);
        samples[index]!.push({ wallMs, cpuMs: usage.cpuMicros / 1000, peakRssMiB: usage.maxRssKiB / 1024 });
      } finally {
        await running.stop();
      }
    }
  }
  return samples.map((values) => ({
    wallMs: median(values.map((v) => v.wallMs)),
    cpuMs: median(values.map((v) => v.cpuMs)),
    peakRssMiB: median(values.map((v) => v.peakRssMiB)),
  }));
}

/**
 * The cold-start-only contender that shows a decorated server's floor: the tool author's
 * reflect-metadata, class-validator and DTO classes, served by SDK 2.x's low-level `Server` with
 * hand-written JSON Schemas (see `echo6-floor-server.ts`).
 */
const DTO_FLOOR: Contender = {
  label: 'floor: SDK 2.x Server + DTOs',
  script: join(here, 'support', 'echo6-floor-server.js'),
};

function contendersOf(): { contenders: Contender[]; reference: number; baselineMissing: boolean } {
  const contenders: Contender[] = [
    { label: 'toolwright', script: join(here, 'support', 'echo6-toolwright-server.js') },
    { label: 'toolwright hand-built', script: join(here, 'support', 'echo6-handbuilt-server.js') },
  ];
  const baseline = baselineScript();
  if (baseline !== undefined) contenders.push({ label: `toolwright before (${BASELINE_COMMIT})`, script: baseline });
  contenders.push({ label: 'SDK 2.x McpServer+zod', script: join(here, 'support', 'echo6-sdk2-server.js') });
  contenders.push({ label: 'SDK 1.x McpServer+zod', script: join(here, 'support', 'echo6-sdk1-server.js') });
  return {
    contenders,
    reference: contenders.findIndex((c) => c.label.startsWith('SDK 2.x')),
    baselineMissing: baseline === undefined,
  };
}

const cell = (value: number, digits: number, width: number): string => value.toFixed(digits).padStart(width);
const ratioCell = (value: number, reference: number): string => `x${(value / reference).toFixed(2)}`.padStart(7);

export async function run(): Promise<void> {
  const { contenders, reference, baselineMissing } = contendersOf();
  const which = process.env.EDGE_BENCH;
  console.log(`edge.bench: echo6 (6 properties), every ratio to SDK 2.x McpServer+zod; SDK 1.x client`);
  if (baselineMissing)
    console.log(`  (toolwright before the speed work left out: git commit ${BASELINE_COMMIT} could not be built)`);
  const targets: TargetRow[] = [];
  if (which !== 'cold') {
    const stdio = await cpuPerCall(contenders, (c) => startStdio(c));
    const http = await cpuPerCall(contenders, startHttp);
    const stdioConcurrent = await cpuPerCall(contenders, (c) => startStdio(c), CONCURRENCY);
    console.log(
      `  server CPU per call (${ROUNDS} interleaved rounds x ${CALLS_PER_ROUND} calls) and the server's peak RSS after them`,
    );
    console.log(
      `  ${'server'.padEnd(30)} ${'stdio µs'.padStart(9)} ${'ratio'.padStart(7)} ${'RSS MiB'.padStart(8)} ${'ratio'.padStart(7)} ${'HTTP µs'.padStart(9)} ${'ratio'.padStart(7)} ${'RSS MiB'.padStart(8)} ${'ratio'.padStart(7)}`,
    );
    contenders.forEach((contender, i) => {
      const s = stdio[i]!;
      const h = http[i]!;
      console.log(
        `  ${contender.label.padEnd(30)} ${cell(s.cpuPerCall, 1, 9)} ${ratioCell(s.cpuPerCall, stdio[reference]!.cpuPerCall)} ${cell(s.peakRssMiB, 1, 8)} ${ratioCell(s.peakRssMiB, stdio[reference]!.peakRssMiB)} ${cell(h.cpuPerCall, 1, 9)} ${ratioCell(h.cpuPerCall, http[reference]!.cpuPerCall)} ${cell(h.peakRssMiB, 1, 8)} ${ratioCell(h.peakRssMiB, http[reference]!.peakRssMiB)}`,
      );
    });
    console.log(
      `  ${'server'.padEnd(30)} ${`stdio x${CONCURRENCY} µs`.padStart(12)} ${'ratio'.padStart(7)}   (server CPU per call with ${CONCURRENCY} calls in flight at a time)`,
    );
    contenders.forEach((contender, i) => {
      console.log(
        `  ${contender.label.padEnd(30)} ${cell(stdioConcurrent[i]!.cpuPerCall, 1, 12)} ${ratioCell(stdioConcurrent[i]!.cpuPerCall, stdioConcurrent[reference]!.cpuPerCall)}`,
      );
    });
    targets.push(
      {
        target: 'server CPU per call, stdio',
        bound: CPU_BOUND,
        ratios: stdio.map((c) => c.cpuPerCall / stdio[reference]!.cpuPerCall),
      },
      {
        target: 'server CPU per call, HTTP',
        bound: CPU_BOUND,
        ratios: http.map((c) => c.cpuPerCall / http[reference]!.cpuPerCall),
      },
      {
        target: 'peak RSS after the stdio calls',
        bound: RSS_BOUND,
        ratios: stdio.map((c) => c.peakRssMiB / stdio[reference]!.peakRssMiB),
      },
      {
        target: 'peak RSS after the HTTP calls',
        bound: RSS_BOUND,
        ratios: http.map((c) => c.peakRssMiB / http[reference]!.peakRssMiB),
      },
    );
  }
  if (which !== 'calls') {
    const coldContenders = [...contenders, DTO_FLOOR];
    for (const { tools, starts } of COLD_STARTS) {
      const cold = await coldStarts(coldContenders, tools, starts);
      console.log(
        `  cold start over stdio with ${tools} tool(s): spawn to the first tools/list answer (median of ${starts} interleaved starts), the server's CPU and peak RSS then`,
      );
      console.log(
        `  ${'server'.padEnd(30)} ${'wall ms'.padStart(9)} ${'ratio'.padStart(7)} ${'CPU ms'.padStart(8)} ${'ratio'.padStart(7)} ${'RSS MiB'.padStart(8)} ${'ratio'.padStart(7)}`,
      );
      coldContenders.forEach((contender, i) => {
        const c = cold[i]!;
        const r = cold[reference]!;
        console.log(
          `  ${contender.label.padEnd(30)} ${cell(c.wallMs, 0, 9)} ${ratioCell(c.wallMs, r.wallMs)} ${cell(c.cpuMs, 0, 8)} ${ratioCell(c.cpuMs, r.cpuMs)} ${cell(c.peakRssMiB, 1, 8)} ${ratioCell(c.peakRssMiB, r.peakRssMiB)}`,
        );
      });
      const floor = cold[coldContenders.length - 1]!;
      const decorated = cold[0]!;
      console.log(
        `  toolwright's own cold start cost, decorated, above the floor: ${(decorated.wallMs - floor.wallMs).toFixed(0)} ms wall, ${(decorated.cpuMs - floor.cpuMs).toFixed(0)} ms CPU`,
      );
      if (tools === 1) continue;
      const r = cold[reference]!;
      targets.push(
        {
          target: `cold start wall, ${tools.toLocaleString('en-US')} tools`,
          bound: COLD_BOUND,
          ratios: cold.map((c) => c.wallMs / r.wallMs),
        },
        {
          target: `cold start CPU, ${tools.toLocaleString('en-US')} tools`,
          bound: COLD_BOUND,
          ratios: cold.map((c) => c.cpuMs / r.cpuMs),
        },
        {
          target: `peak RSS at cold start, ${tools.toLocaleString('en-US')} tools`,
          bound: RSS_BOUND,
          ratios: cold.map((c) => c.peakRssMiB / r.peakRssMiB),
        },
      );
    }
  }
  printTargets(contenders, reference, targets);
}

/** Issue 7's bounds, as ratios to SDK 2.x: CPU per call at most x0.8, cold start no slower, peak RSS at most +10%. */
const CPU_BOUND = 0.8;
const COLD_BOUND = 1;
const RSS_BOUND = 1.1;

/** One target: its bound and every contender's ratio to the reference. */
interface TargetRow {
  readonly target: string;
  readonly bound: number;
  readonly ratios: readonly number[];
}

/**
 * Prints every target of this run side by side: each contender's ratio, `ok` when within the bound,
 * `OVER` when not.
 */
function printTargets(contenders: readonly Contender[], reference: number, targets: readonly TargetRow[]): void {
  if (targets.length === 0) return;
  const shown = contenders.map((contender, i) => ({ contender, i })).filter(({ i }) => i !== reference);
  console.log(`  targets (issue 7): every ratio to SDK 2.x McpServer+zod in this run, "ok" when within the bound`);
  console.log(
    `  ${'target'.padEnd(36)} ${'bound'.padStart(6)} ${shown.map(({ contender }) => contender.label.slice(0, 20).padStart(20)).join(' ')}`,
  );
  for (const row of targets) {
    const cells = shown.map(({ i }) =>
      `x${row.ratios[i]!.toFixed(2)} ${row.ratios[i]! <= row.bound ? 'ok  ' : 'OVER'}`.padStart(20),
    );
    console.log(`  ${row.target.padEnd(36)} ${`x${row.bound.toFixed(2)}`.padStart(6)} ${cells.join(' ')}`);
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  run().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}

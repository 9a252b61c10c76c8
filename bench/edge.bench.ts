/**
 * The MCP edge's cost against the transport's own floor and against the SDKs, side by side in one
 * interleaved run (issue 28; issue 7 before it). The same 6-property `echo6` tool (see
 * `support/echo6-args.ts`) is served from a child process by:
 *
 * - the raw floor: hand-written JSON-RPC with no SDK and no validation, over stdio and plain
 *   `node:http` answering JSON (`support/raw-echo-server.ts`);
 * - SDK 1.x and SDK 2.x `McpServer.registerTool` with zod (stdio; HTTP with a session per client,
 *   and without sessions: `support/sdk-http.ts`);
 * - toolwright, decorated (a class with a class-validator DTO) and hand-built (a JSON Schema and
 *   a function: the edge's own cost);
 * - the same two as toolwright was at git commit `BASELINE_COMMIT` ("before"), built with its own
 *   bundle into `.bench-baseline/<commit>/` (left out when git or the commit is not there);
 * - for cold starts, the decorated server's floor: the author's class-validator DTOs served by
 *   SDK 2.x's plain `Server` with hand-written schemas and no toolwright code.
 *
 * Reported, each with its ratio to the raw floor or the SDK:
 *
 * - server CPU per call (the child's own CPU, from its SIGUSR2 report, over `ROUNDS` interleaved
 *   rounds of `CALLS_PER_ROUND` calls after `WARMUP_CALLS`), with the client's p50 and p99
 *   latency: stdio with 1 and 16 calls in flight (SDK 1.x client; 16 in flight again after
 *   `STEADY_WARMUP_CALLS`, the steady state once V8 has compiled the call path), and HTTP with 4 clients x 8
 *   calls in flight: 2025-11-25 with sessions, 2025-11-25 without (`stateless`), and 2026-07-28
 *   (the SDK 2.x client pinned to that era; the raw floor is driven by the 1.x client);
 * - cold start over stdio with 1, 100 and 1,000 tools: spawn to the first `tools/list` answer
 *   (wall), the child's CPU until then and its peak RSS (median of `COLD_STARTS` interleaved
 *   starts, each round in a rotated order), and toolwright's own cost above the floor and
 *   against "before", judged start by start: the median over the rounds of each round's own
 *   difference or ratio, which the cold-start targets use too;
 * - memory (children run with `--expose-gc`, collected before each report): per idle 2025-era
 *   HTTP session (opened by hand, one call made, then left), and per 2026-07-28 call waiting for
 *   the client's answer (`ask` answered `input_required`: toolwright parks the run, the SDK keeps
 *   nothing), from the RSS and heap growth over `MEMORY_ITEMS` of them, median of `MEMORY_ROUNDS`;
 * - last, every target of issue 28, marked `ok` or `OVER`.
 *
 * Every loop is bounded by the constants below. The machine may be shared: compare the ratios,
 * and rerun a row that looks off. `EDGE_BENCH=calls`, `EDGE_BENCH=cold` or `EDGE_BENCH=memory`
 * runs one part only; `EDGE_BENCH_CALLS=stdio,http` (scenario names) narrows the calls part.
 * `EDGE_BENCH_WARMUP=5000` measures the calls after a longer warm-up, `EDGE_BENCH_BASELINE=<commit>`
 * builds "before" from another commit.
 *
 *   node dist/bench/edge.bench.js         (or `npm run bench`)
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  connectHttp,
  leaveCallWaiting,
  openIdleSession,
  startHttp,
  startStdio,
  type Child,
  type ChildTransport,
  type ClientEra,
  type Contender,
  type Session,
} from './support/bench-child.js';
import { median } from './support/median.js';

/**
 * The commit "before" is built from: issue 28's starting point, or the commit named by
 * `EDGE_BENCH_BASELINE` (a commit, not a branch: its build is kept under that name), so that a
 * change is measured against the commit it starts from in one run.
 */
const BASELINE_COMMIT = process.env.EDGE_BENCH_BASELINE ?? '3683d1c';
/**
 * Calls each server gets before it is measured; `EDGE_BENCH_WARMUP=<calls>` sets another count, to
 * see the cost per call once the JIT and the heap have settled (the short default counts much of
 * the servers' warm-up: their compiled code, their young generation growing).
 */
const WARMUP_CALLS = warmupCalls(process.env.EDGE_BENCH_WARMUP);
const ROUNDS = 6;
const CALLS_PER_ROUND = 400;
/** Tool counts of the cold starts, and how many interleaved starts each gets. */
const COLD_STARTS: ReadonlyArray<{ readonly tools: number; readonly starts: number }> = [
  { tools: 1, starts: 15 },
  { tools: 100, starts: 15 },
  { tools: 1000, starts: 9 },
];
/** Sessions (or waiting calls) opened per memory measurement, after `MEMORY_WARMUP` of them. */
const MEMORY_ITEMS = 200;
const MEMORY_WARMUP = 20;
const MEMORY_ROUNDS = 3;
const ARGUMENTS = { text: 'hi', count: 2, separator: '-', prefix: '<', suffix: '>', upper: false };

/** The warm-up count `EDGE_BENCH_WARMUP` gives: 300 when unset; a positive integer up to 100,000. */
function warmupCalls(given: string | undefined): number {
  if (given === undefined) return 300;
  const count = Number(given);
  if (!Number.isInteger(count) || count < 1 || count > 100_000)
    throw new RangeError(`EDGE_BENCH_WARMUP must be an integer from 1 to 100000, got ${JSON.stringify(given)}`);
  return count;
}

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const support = (file: string): string => join(here, 'support', file);

/** The bench's support files a "before" build runs with (compiled here, importing 'toolwright'). */
const BASELINE_FILES = [
  'echo6-toolwright-server.js',
  'echo6-handbuilt-server.js',
  'echo6-toolwright-tool.js',
  'echo6-toolwright-serve.js',
  'echo6-args.js',
  'cpu-report.js',
];

/**
 * Builds toolwright at `BASELINE_COMMIT` into `.bench-baseline/<commit>/` once, as published
 * (tsc, then its own bundle), with this tree's toolwright bench servers copied in: they import
 * 'toolwright', which resolves there to the old bundle. Returns the folder of the copied servers,
 * or `undefined` when it cannot be built.
 */
function baselineSupport(): string | undefined {
  const dir = join(root, '.bench-baseline', BASELINE_COMMIT);
  const done = join(dir, 'dist', 'bench', 'support');
  const marker = join(dir, '.built');
  try {
    if (!existsSync(marker)) {
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      const tar = execFileSync('git', ['-C', root, 'archive', '--format=tar', BASELINE_COMMIT], {
        maxBuffer: 256 * 1024 * 1024,
      });
      execFileSync('tar', ['-x', '-C', dir], { input: tar });
      symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
      writeFileSync(
        join(dir, 'tsconfig.bench.json'),
        JSON.stringify({ extends: './tsconfig.json', include: ['src'], compilerOptions: { declaration: false } }),
      );
      execFileSync(
        process.execPath,
        [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.bench.json'],
        {
          cwd: dir,
          stdio: 'ignore',
        },
      );
      execFileSync(process.execPath, [join(dir, 'scripts', 'bundle.mjs')], { cwd: dir, stdio: 'ignore' });
      writeFileSync(marker, '');
    }
    mkdirSync(done, { recursive: true });
    for (const file of BASELINE_FILES) cpSync(support(file), join(done, file));
    return done;
  } catch {
    return undefined;
  }
}

/** Every server of the run, by role. */
interface Contenders {
  readonly raw: Contender;
  readonly sdk1: Contender;
  readonly sdk2: Contender;
  readonly decorated: Contender;
  readonly handBuilt: Contender;
  readonly decoratedBefore: Contender | undefined;
  readonly handBuiltBefore: Contender | undefined;
  readonly dtoFloor: Contender;
}

function contendersOf(): Contenders {
  const before = baselineSupport();
  return {
    raw: { label: 'raw floor (no SDK)', script: support('raw-echo-server.js') },
    sdk1: { label: 'SDK 1.x McpServer+zod', script: support('echo6-sdk1-server.js') },
    sdk2: { label: 'SDK 2.x McpServer+zod', script: support('echo6-sdk2-server.js') },
    decorated: { label: 'toolwright decorated', script: support('echo6-toolwright-server.js') },
    handBuilt: { label: 'toolwright hand-built', script: support('echo6-handbuilt-server.js') },
    decoratedBefore:
      before === undefined
        ? undefined
        : { label: `decorated before (${BASELINE_COMMIT})`, script: join(before, 'echo6-toolwright-server.js') },
    handBuiltBefore:
      before === undefined
        ? undefined
        : { label: `hand-built before (${BASELINE_COMMIT})`, script: join(before, 'echo6-handbuilt-server.js') },
    dtoFloor: { label: 'floor: SDK 2.x Server + DTOs', script: support('echo6-floor-server.js') },
  };
}

const present = (list: ReadonlyArray<Contender | undefined>): Contender[] =>
  list.filter((c): c is Contender => c !== undefined);

// ---------------------------------------------------------------------------------------------
// Calls

/** One server of a calls scenario: what it serves and which client line drives it. */
interface Entry {
  readonly contender: Contender;
  readonly transport: ChildTransport;
  readonly era: ClientEra;
}

/** A calls scenario: its entries, how many clients and calls in flight per client. */
interface CallScenario {
  readonly name: string;
  readonly title: string;
  readonly sessions: number;
  readonly inFlight: number;
  readonly entries: readonly Entry[];
  /**
   * Calls each server gets before it is measured, when the scenario needs more than
   * `WARMUP_CALLS` (the steady-state row: the default warm-up leaves V8's optimising compiler
   * working through the first measured rounds, which is most of what the short row counts).
   */
  readonly warmupCalls?: number;
}

/** The warm-up of the steady-state stdio row (see `CallScenario.warmupCalls`). */
const STEADY_WARMUP_CALLS = 5000;

function callScenarios(c: Contenders): CallScenario[] {
  const toolwright = present([c.decorated, c.handBuilt, c.decoratedBefore, c.handBuiltBefore]);
  const over = (transport: ChildTransport, era: ClientEra, list: readonly Contender[]): Entry[] =>
    list.map((contender) => ({ contender, transport, era }));
  const stdio = over('stdio', '2025', [c.raw, c.sdk1, c.sdk2, ...toolwright]);
  return [
    { name: 'stdio', title: 'stdio, 1 call in flight', sessions: 1, inFlight: 1, entries: stdio },
    { name: 'stdio-16', title: 'stdio, 16 calls in flight', sessions: 1, inFlight: 16, entries: stdio },
    {
      name: 'stdio-16-steady',
      title: `stdio, 16 calls in flight, after ${STEADY_WARMUP_CALLS.toLocaleString('en-US')} warm-up calls (steady state)`,
      sessions: 1,
      inFlight: 16,
      entries: stdio,
      warmupCalls: STEADY_WARMUP_CALLS,
    },
    {
      name: 'http',
      title: 'HTTP 2025-11-25 with sessions, 4 clients x 8 in flight',
      sessions: 4,
      inFlight: 8,
      entries: over('http', '2025', [c.raw, c.sdk1, c.sdk2, ...toolwright]),
    },
    {
      name: 'http-stateless',
      title: 'HTTP 2025-11-25 stateless, 4 clients x 8 in flight',
      sessions: 4,
      inFlight: 8,
      entries: over('http-stateless', '2025', [c.raw, c.sdk1, c.sdk2, ...toolwright]),
    },
    {
      name: 'http-2026',
      title: 'HTTP 2026-07-28, 4 clients x 8 in flight (raw floor: 1.x client)',
      sessions: 4,
      inFlight: 8,
      entries: [
        { contender: c.raw, transport: 'http', era: '2025' },
        ...over('http', '2026', [c.sdk2, ...toolwright]).map((entry) =>
          // The SDK 2.x server serves the 2026-07-28 era through createMcpHandler.
          entry.contender === c.sdk2 ? { ...entry, transport: 'http-stateless' as const } : entry,
        ),
      ],
    },
  ];
}

interface Running {
  readonly entry: Entry;
  readonly child: Child;
  readonly sessions: readonly Session[];
  cpuMicros: number;
  calls: number;
  readonly latencies: number[];
}

async function start(entry: Entry, sessions: number): Promise<Running> {
  if (entry.transport === 'stdio') {
    const { child, session } = await startStdio(entry.contender);
    return { entry, child, sessions: [session], cpuMicros: 0, calls: 0, latencies: [] };
  }
  const child = await startHttp(entry.contender, entry.transport);
  const opened: Session[] = [];
  for (let i = 0; i < sessions; i++) opened.push(await connectHttp(child.url!, entry.era));
  return { entry, child, sessions: opened, cpuMicros: 0, calls: 0, latencies: [] };
}

async function callOnce(running: Running, session: Session, i: number): Promise<void> {
  const text = `hi ${i}`;
  const result = await session.callTool('echo6', { ...ARGUMENTS, text });
  if (result.content?.[0]?.text !== `<${text}-${text}>`)
    throw new Error(`${running.entry.contender.label}: unexpected result ${JSON.stringify(result)}`);
}

/** Makes `count` calls, `inFlight` at a time on each session; records latencies when `measure`. */
async function drive(running: Running, count: number, inFlight: number, measure: boolean): Promise<void> {
  const before = measure ? (await running.child.usage()).cpuMicros : 0;
  let next = 0;
  const worker = async (session: Session): Promise<void> => {
    while (next < count) {
      const i = next++;
      const started = performance.now();
      await callOnce(running, session, i);
      if (measure) running.latencies.push(performance.now() - started);
    }
  };
  await Promise.all(running.sessions.flatMap((session) => Array.from({ length: inFlight }, () => worker(session))));
  if (!measure) return;
  running.cpuMicros += (await running.child.usage()).cpuMicros - before;
  running.calls += count;
}

interface CallCost {
  readonly cpuPerCall: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly peakRssMiB: number;
}

const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
};

async function measureCalls(scenario: CallScenario): Promise<CallCost[]> {
  const running: Running[] = [];
  try {
    for (const entry of scenario.entries) running.push(await start(entry, scenario.sessions));
    const warmup = Math.max(WARMUP_CALLS, scenario.warmupCalls ?? 0);
    for (const one of running) await drive(one, warmup, scenario.inFlight, false);
    for (let round = 0; round < ROUNDS; round++) {
      const shift = round % running.length;
      for (const one of [...running.slice(shift), ...running.slice(0, shift)])
        await drive(one, CALLS_PER_ROUND, scenario.inFlight, true);
    }
    const costs: CallCost[] = [];
    for (const one of running)
      costs.push({
        cpuPerCall: one.cpuMicros / one.calls,
        p50Ms: percentile(one.latencies, 0.5),
        p99Ms: percentile(one.latencies, 0.99),
        peakRssMiB: (await one.child.usage()).maxRssKiB / 1024,
      });
    return costs;
  } finally {
    await Promise.allSettled(running.flatMap((one) => [...one.sessions.map((s) => s.close()), one.child.stop()]));
  }
}

// ---------------------------------------------------------------------------------------------
// Cold starts

interface ColdStart {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly peakRssMiB: number;
}

/**
 * Every contender's starts (`rounds[r][i]`: contender `i` in round `r`) and their medians. A
 * round starts every contender once, each round in an order rotated by one, so no contender
 * always follows the same one; the targets compare contenders round by round (see `pairedMedian`).
 */
interface ColdStarts {
  readonly rounds: readonly (readonly ColdStart[])[];
  readonly medians: readonly ColdStart[];
}

async function coldStarts(contenders: readonly Contender[], toolCount: number, starts: number): Promise<ColdStarts> {
  const rounds: ColdStart[][] = [];
  for (let round = 0; round < starts; round++) {
    const measured: ColdStart[] = new Array(contenders.length);
    for (let step = 0; step < contenders.length; step++) {
      const index = (round + step) % contenders.length;
      const contender = contenders[index]!;
      const started = process.hrtime.bigint();
      const { child, session } = await startStdio(contender, toolCount);
      try {
        const listed = await session.listTools();
        const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
        if (listed.tools.length !== toolCount)
          throw new Error(`${contender.label}: listed ${listed.tools.length} tools, expected ${toolCount}`);
        const usage = await child.usage();
        measured[index] = { wallMs, cpuMs: usage.cpuMicros / 1000, peakRssMiB: usage.maxRssKiB / 1024 };
      } finally {
        await child.stop();
      }
    }
    rounds.push(measured);
  }
  const of = (index: number, key: keyof ColdStart): number => median(rounds.map((r) => r[index]![key]));
  const medians = contenders.map((_, index) => ({
    wallMs: of(index, 'wallMs'),
    cpuMs: of(index, 'cpuMs'),
    peakRssMiB: of(index, 'peakRssMiB'),
  }));
  return { rounds, medians };
}

/**
 * The median over the rounds of `compare(a's start, b's start)` in the same round: a difference
 * or a ratio between two contenders judged pair by pair, so the machine's drift between rounds
 * (which moves every start of a round alike) cancels out instead of adding to the noise.
 */
function pairedMedian(cold: ColdStarts, a: number, b: number, compare: (a: ColdStart, b: ColdStart) => number): number {
  return median(cold.rounds.map((round) => compare(round[a]!, round[b]!)));
}

// ---------------------------------------------------------------------------------------------
// Memory

interface MemoryCost {
  readonly rssKiB: number;
  readonly heapKiB: number;
}

/**
 * What each of `MEMORY_ITEMS` things `open` makes on a fresh HTTP child of `entry` holds: the
 * growth of its RSS and heap (after garbage collection) over them, after `MEMORY_WARMUP` made first.
 */
async function memoryPer(entry: Entry, open: (url: string, index: number) => Promise<unknown>): Promise<MemoryCost> {
  const child = await startHttp(entry.contender, entry.transport as Exclude<ChildTransport, 'stdio'>, ['--expose-gc']);
  try {
    for (let i = 0; i < MEMORY_WARMUP; i++) await open(child.url!, i);
    const before = await child.usage();
    for (let i = 0; i < MEMORY_ITEMS; i += 10)
      await Promise.all(Array.from({ length: 10 }, (_, j) => open(child.url!, MEMORY_WARMUP + i + j)));
    const after = await child.usage();
    return {
      rssKiB: (after.rssKiB - before.rssKiB) / MEMORY_ITEMS,
      heapKiB: (after.heapUsedKiB - before.heapUsedKiB) / MEMORY_ITEMS,
    };
  } finally {
    await child.stop();
  }
}

async function memoryRows(entries: readonly Entry[], open: (url: string, index: number) => Promise<unknown>) {
  const samples = entries.map(() => [] as MemoryCost[]);
  for (let round = 0; round < MEMORY_ROUNDS; round++)
    for (const [index, entry] of entries.entries()) samples[index]!.push(await memoryPer(entry, open));
  return samples.map((values) => ({
    rssKiB: median(values.map((v) => v.rssKiB)),
    heapKiB: median(values.map((v) => v.heapKiB)),
  }));
}

// ---------------------------------------------------------------------------------------------
// Printing and targets

const cell = (value: number, digits: number, width: number): string => value.toFixed(digits).padStart(width);
const ratio = (value: number, reference: number): string => `x${(value / reference).toFixed(2)}`.padStart(7);
const LABEL = 34;

/** One target of issue 28: what is measured, its value, its bound, and how they compare. */
interface Target {
  readonly target: string;
  readonly value: number;
  readonly bound: number;
  readonly unit: 'x' | 'ms' | 'KiB';
  /** `at-most`: ok when value <= bound. */
}

const targets: Target[] = [];

function printCalls(scenario: CallScenario, costs: readonly CallCost[]): void {
  const raw = costs[0]!;
  const sdk2 = costs[scenario.entries.findIndex((e) => e.contender.label.startsWith('SDK 2.x'))]!;
  console.log(`  ${scenario.title}: server CPU per call, client latency, server peak RSS`);
  console.log(
    `  ${'server'.padEnd(LABEL)} ${'CPU µs'.padStart(8)} ${'/floor'.padStart(7)} ${'/SDK 2'.padStart(7)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'RSS MiB'.padStart(8)}`,
  );
  scenario.entries.forEach((entry, i) => {
    const c = costs[i]!;
    console.log(
      `  ${entry.contender.label.padEnd(LABEL)} ${cell(c.cpuPerCall, 1, 8)} ${ratio(c.cpuPerCall, raw.cpuPerCall)} ${ratio(c.cpuPerCall, sdk2.cpuPerCall)} ${cell(c.p50Ms, 2, 7)} ${cell(c.p99Ms, 2, 7)} ${cell(c.peakRssMiB, 1, 8)}`,
    );
  });
  const bound = scenario.name.startsWith('stdio') ? 2.5 : 2;
  for (const [index, entry] of scenario.entries.entries()) {
    const label = entry.contender.label;
    if (!label.startsWith('toolwright')) continue;
    targets.push({
      target: `${scenario.name}: CPU/call of ${label.slice(11)} / floor`,
      value: costs[index]!.cpuPerCall / raw.cpuPerCall,
      bound,
      unit: 'x',
    });
    const before = scenario.entries.findIndex((e) => e.contender.label.startsWith(label.slice(11)));
    if (before !== -1 && before !== index)
      targets.push({
        target: `${scenario.name}: p99 of ${label.slice(11)} / before`,
        value: costs[index]!.p99Ms / costs[before]!.p99Ms,
        bound: 1,
        unit: 'x',
      });
  }
}

function printCold(contenders: readonly Contender[], tools: number, starts: number, cold: ColdStarts): void {
  const rows = cold.medians;
  const indexOf = (prefix: string): number => contenders.findIndex((c) => c.label.startsWith(prefix));
  const floor = rows[0]!;
  const sdk2 = rows[indexOf('SDK 2.x')]!;
  console.log(
    `  cold start over stdio with ${tools.toLocaleString('en-US')} tool(s): spawn to the first tools/list answer, the server's CPU and peak RSS then (median of ${starts} interleaved starts)`,
  );
  console.log(
    `  ${'server'.padEnd(LABEL)} ${'wall ms'.padStart(8)} ${'/SDK 2'.padStart(7)} ${'CPU ms'.padStart(8)} ${'/SDK 2'.padStart(7)} ${'RSS MiB'.padStart(8)} ${'/floor'.padStart(7)} ${'/SDK 2'.padStart(7)}`,
  );
  contenders.forEach((contender, i) => {
    const c = rows[i]!;
    console.log(
      `  ${contender.label.padEnd(LABEL)} ${cell(c.wallMs, 0, 8)} ${ratio(c.wallMs, sdk2.wallMs)} ${cell(c.cpuMs, 0, 8)} ${ratio(c.cpuMs, sdk2.cpuMs)} ${cell(c.peakRssMiB, 1, 8)} ${ratio(c.peakRssMiB, floor.peakRssMiB)} ${ratio(c.peakRssMiB, sdk2.peakRssMiB)}`,
    );
  });
  const above = (index: number, key: 'wallMs' | 'cpuMs'): number =>
    pairedMedian(cold, index, 0, (own, base) => own[key] - base[key]);
  const per = (index: number, other: number, key: 'wallMs' | 'cpuMs'): number =>
    pairedMedian(cold, index, other, (own, base) => own[key] / base[key]);
  const decorated = indexOf('toolwright decorated');
  const handBuilt = indexOf('toolwright hand-built');
  const sdk2Index = indexOf('SDK 2.x');
  const before = indexOf('decorated before');
  console.log(`  judged start by start (the median over the ${starts} rounds of each round's difference or ratio):`);
  for (const index of [decorated, before]) {
    if (index === -1) continue;
    console.log(
      `  ${contenders[index]!.label} above the floor: ${above(index, 'wallMs').toFixed(0)} ms wall, ${above(index, 'cpuMs').toFixed(0)} ms CPU`,
    );
  }
  if (before !== -1)
    console.log(
      `  toolwright decorated / decorated before: x${per(decorated, before, 'wallMs').toFixed(2)} wall, x${per(decorated, before, 'cpuMs').toFixed(2)} CPU`,
    );
  const count = tools.toLocaleString('en-US');
  if (tools <= 100)
    targets.push({
      target: `cold start ${count}: decorated above the floor, wall`,
      value: above(decorated, 'wallMs'),
      bound: tools === 1 ? 15 : 25,
      unit: 'ms',
    });
  if (tools >= 1000) {
    targets.push(
      {
        target: `cold start ${count}: decorated wall / SDK 2.x`,
        value: per(decorated, sdk2Index, 'wallMs'),
        bound: 0.8,
        unit: 'x',
      },
      {
        target: `cold start ${count}: decorated CPU / SDK 2.x`,
        value: per(decorated, sdk2Index, 'cpuMs'),
        bound: 0.8,
        unit: 'x',
      },
    );
  }
  targets.push(
    {
      target: `cold start ${count}: hand-built wall / SDK 2.x`,
      value: per(handBuilt, sdk2Index, 'wallMs'),
      bound: 1,
      unit: 'x',
    },
    {
      target: `cold start ${count}: hand-built CPU / SDK 2.x`,
      value: per(handBuilt, sdk2Index, 'cpuMs'),
      bound: 1,
      unit: 'x',
    },
  );
  if (tools === 100)
    targets.push(
      {
        target: `peak RSS ${count}: decorated / floor`,
        value: rows[decorated]!.peakRssMiB / floor.peakRssMiB,
        bound: 1.1,
        unit: 'x',
      },
      {
        target: `peak RSS ${count}: hand-built / SDK 2.x`,
        value: rows[handBuilt]!.peakRssMiB / sdk2.peakRssMiB,
        bound: 1,
        unit: 'x',
      },
    );
}

/** Prints what each of `what` costs on each server, with its ratio to SDK 2.x's (RSS and heap). */
function printMemory(what: string, entries: readonly Entry[], costs: readonly MemoryCost[]): void {
  const sdk2 = costs[entries.findIndex((e) => e.contender.label.startsWith('SDK 2.x'))]!;
  console.log(
    `  memory per ${what} (growth over ${MEMORY_ITEMS} after ${MEMORY_WARMUP}, after GC; median of ${MEMORY_ROUNDS} interleaved runs)`,
  );
  console.log(
    `  ${'server'.padEnd(LABEL)} ${'RSS KiB'.padStart(8)} ${'/SDK 2'.padStart(7)} ${'heap KiB'.padStart(9)} ${'/SDK 2'.padStart(7)}`,
  );
  entries.forEach((entry, i) => {
    const c = costs[i]!;
    console.log(
      `  ${entry.contender.label.padEnd(LABEL)} ${cell(c.rssKiB, 1, 8)} ${ratio(c.rssKiB, sdk2.rssKiB)} ${cell(c.heapKiB, 1, 9)} ${ratio(c.heapKiB, sdk2.heapKiB)}`,
    );
  });
}

/**
 * The memory targets of issue 28 for one row set: toolwright's (decorated and hand-built) heap
 * and RSS per item at or below SDK 2.x's, as the difference in KiB.
 */
function memoryTargets(what: string, entries: readonly Entry[], costs: readonly MemoryCost[]): void {
  const sdk2 = costs[entries.findIndex((e) => e.contender.label.startsWith('SDK 2.x'))]!;
  for (const kind of ['decorated', 'hand-built'] as const) {
    const own = costs[entries.findIndex((e) => e.contender.label === `toolwright ${kind}`)];
    if (own === undefined) continue;
    for (const [measure, value, reference] of [
      ['heap', own.heapKiB, sdk2.heapKiB],
      ['RSS', own.rssKiB, sdk2.rssKiB],
    ] as const)
      targets.push({
        target: `${what}: ${kind} ${measure} - SDK 2.x ${measure}`,
        value: value - reference,
        bound: 0,
        unit: 'KiB',
      });
  }
}

function printTargets(): void {
  if (targets.length === 0) return;
  console.log(`  targets (issue 28), "ok" when within the bound`);
  console.log(`  ${'target'.padEnd(58)} ${'value'.padStart(9)} ${'bound'.padStart(9)}`);
  for (const t of targets) {
    const shown = (v: number): string => (t.unit === 'x' ? `x${v.toFixed(2)}` : `${v.toFixed(1)} ${t.unit}`);
    console.log(
      `  ${t.target.padEnd(58)} ${shown(t.value).padStart(9)} ${shown(t.bound).padStart(9)} ${t.value <= t.bound ? 'ok' : 'OVER'}`,
    );
  }
}

// ---------------------------------------------------------------------------------------------

export async function run(): Promise<void> {
  const which = process.env.EDGE_BENCH;
  const c = contendersOf();
  console.log('edge.bench: echo6 (6 properties); server CPU from the child itself; medians of interleaved runs');
  if (c.decoratedBefore === undefined)
    console.log(`  ("before" left out: git commit ${BASELINE_COMMIT} could not be built)`);
  targets.length = 0;
  if (which === undefined || which === 'calls') {
    const only = process.env.EDGE_BENCH_CALLS?.split(',');
    for (const scenario of callScenarios(c)) {
      if (only !== undefined && !only.includes(scenario.name)) continue;
      printCalls(scenario, await measureCalls(scenario));
    }
  }
  if (which === undefined || which === 'cold') {
    const cold = present([c.dtoFloor, c.sdk1, c.sdk2, c.decorated, c.handBuilt, c.decoratedBefore, c.handBuiltBefore]);
    for (const { tools, starts } of COLD_STARTS) printCold(cold, tools, starts, await coldStarts(cold, tools, starts));
  }
  if (which === undefined || which === 'memory') {
    const toolwright = present([c.decorated, c.handBuilt, c.decoratedBefore, c.handBuiltBefore]);
    const sessions: Entry[] = [c.sdk1, c.sdk2, ...toolwright].map((contender) => ({
      contender,
      transport: 'http',
      era: '2025',
    }));
    const perSession = await memoryRows(sessions, (url) => openIdleSession(url, ARGUMENTS));
    printMemory('idle 2025-11-25 HTTP session', sessions, perSession);
    const waiting: Entry[] = [
      { contender: c.sdk2, transport: 'http-stateless', era: '2026' },
      ...toolwright.map((contender) => ({ contender, transport: 'http' as const, era: '2026' as const })),
    ];
    const perRun = await memoryRows(waiting, (url, index) => leaveCallWaiting(url, index + 1));
    printMemory('2026-07-28 call waiting for input (toolwright: a parked run)', waiting, perRun);
    memoryTargets('idle session', sessions, perSession);
    memoryTargets('parked run', waiting, perRun);
  }
  printTargets();
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  run().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}

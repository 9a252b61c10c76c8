/**
 * Profiles one edge bench scenario and prints where the server's CPU goes (issue 28), so the next
 * person starts from data: the server child runs under `--cpu-prof` while a real SDK client makes
 * `calls` echo6 calls after a warm-up (the same load as `edge.bench`), then the child exits and its
 * profile is read. Printed: self time per call by area (node's own internals, the SDK, zod,
 * toolwright, garbage collection, ...) and the top self-time functions, each mapped through the
 * bundle's source maps back to `src/*.ts`.
 *
 *   npm run bench:profile -- [scenario] [server] [calls]
 *   node dist/bench/profile.js http decorated 4000
 *   node dist/bench/profile.js cold decorated 1000
 *
 * scenario: stdio | stdio-16 | http (default) | http-stateless | http-2026 | cold;
 * server: decorated (default) | hand-built | sdk2 | sdk1 | raw | floor (the cold starts' floor,
 * stdio only). `cold` profiles a cold start instead of calls: the server child starts over stdio
 * with `calls` tools (default 1,000) and is profiled from its start to its first `tools/list`
 * answer; printed are the same tables in milliseconds for the whole start, then where the start
 * goes (`COLD_PHASES`: parsing and finding modules, decorators, compile, schema generation,
 * serving, garbage collection), and the CPU of all the child's threads against what was sampled
 * on its main thread (the rest is V8's optimising compiler and the garbage collector's helpers on
 * their own threads). Profiling slows a start down: compare a server with the floor, both
 * profiled. The profile is kept in a temporary folder whose path is printed, for a closer look in
 * Chrome's DevTools.
 *
 *   node dist/bench/profile.js stdio decorated 2000 --trace-opt
 *
 * `--trace-opt` (any call scenario) counts what V8's optimising compiler does instead of sampling:
 * the server child runs under `--trace-opt --trace-deopt`, its traces written to a file (not its
 * stdout, which is the stdio transport), with no CPU profiler; the warm-up is then the edge bench's
 * 300 calls (`PROFILE_WARMUP=<calls>` sets another, in either mode). Printed, for the measured
 * calls only (the trace's lines written between the child's two CPU reports): the compiles V8
 * completed and their time on the main thread (prepare and finalize) and off it (the concurrent
 * compile), the deopts, and the top functions by compile count and time, each placed in
 * `src/*.ts` through the bundle's source maps when toolwright defines a function of that name
 * (`+n` when several do; nothing when none does: node's or a dependency's). V8 decides when to
 * compile from the time and allocations it sees, so the counts vary from run to run: take the
 * median of several runs.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  connectHttp,
  startHttp,
  startStdio,
  type ChildTransport,
  type ClientEra,
  type Session,
} from './support/bench-child.js';
import type { UsageReport } from './support/cpu-report.js';

const here = dirname(fileURLToPath(import.meta.url));
const SERVERS: Readonly<Record<string, string>> = {
  decorated: 'echo6-toolwright-server.js',
  'hand-built': 'echo6-handbuilt-server.js',
  sdk2: 'echo6-sdk2-server.js',
  sdk1: 'echo6-sdk1-server.js',
  raw: 'raw-echo-server.js',
  floor: 'echo6-floor-server.js',
};
const SCENARIOS: Readonly<
  Record<string, { transport: ChildTransport; era: ClientEra; sessions: number; inFlight: number }>
> = {
  stdio: { transport: 'stdio', era: '2025', sessions: 1, inFlight: 1 },
  'stdio-16': { transport: 'stdio', era: '2025', sessions: 1, inFlight: 16 },
  http: { transport: 'http', era: '2025', sessions: 4, inFlight: 8 },
  'http-stateless': { transport: 'http-stateless', era: '2025', sessions: 4, inFlight: 8 },
  'http-2026': { transport: 'http', era: '2026', sessions: 4, inFlight: 8 },
};
/** Calls made before the measured ones: `PROFILE_WARMUP`, else the edge bench's 300 with `--trace-opt`, else 500. */
const TRACE_OPT = process.argv.includes('--trace-opt');
const WARMUP = warmupOf(process.env.PROFILE_WARMUP, TRACE_OPT ? 300 : 500);
const TOP = 40;
const ARGUMENTS = { text: 'hi', count: 2, separator: '-', prefix: '<', suffix: '>', upper: false };

interface ProfileNode {
  readonly id: number;
  readonly callFrame: {
    readonly functionName: string;
    readonly url: string;
    readonly lineNumber: number;
    readonly columnNumber: number;
  };
  readonly children?: readonly number[];
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly startTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** The area a frame's script belongs to. */
function areaOf(url: string, functionName: string): string {
  if (url === '') return functionName === '' ? '(native)' : `(${functionName.replace(/[()]/g, '')})`;
  // node's own modules by name: node:_http_server, node:internal/deps/undici/undici (web Request
  // and Response), node:internal/webstreams/readablestream, ...
  if (url.startsWith('node:'))
    return `node:${url
      .slice(5)
      .replace(/^internal\//, '')
      .replace(/\/[^/]+$/, '/*')}`;
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules !== null) return modules[1]!;
  if (url.includes('/dist/bundle/') || url.includes('/dist/src/') || url.includes('/src/')) return 'toolwright';
  if (url.includes('/dist/bench/')) return 'bench server';
  return url;
}

const sourceMaps = new Map<string, SourceMap | null>();

/** Where a frame is in the source (through the script's `.map` when it has one). */
function placeOf(url: string, line: number, column: number): string {
  if (!url.startsWith('file://')) return url === '' ? '' : `${url}:${line + 1}`;
  const file = fileURLToPath(url);
  let map = sourceMaps.get(file);
  if (map === undefined) {
    try {
      map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')) as never);
    } catch {
      map = null;
    }
    sourceMaps.set(file, map);
  }
  const entry = map?.findEntry(line, column) as { originalSource?: string; originalLine?: number } | undefined;
  if (entry?.originalSource !== undefined) {
    const source = entry.originalSource.replace(/^.*?\/(src|node_modules)\//, '$1/');
    return `${source}:${(entry.originalLine ?? 0) + 1}`;
  }
  const short = file.replace(/^.*?\/(node_modules|dist)\//, '$1/');
  return `${short}:${line + 1}`;
}

function warmupOf(given: string | undefined, fallback: number): number {
  if (given === undefined || given === '') return fallback;
  const calls = Number(given);
  if (!Number.isInteger(calls) || calls < 0 || calls > 100_000)
    throw new RangeError(`PROFILE_WARMUP must be an integer from 0 to 100000, got ${JSON.stringify(given)}`);
  return calls;
}

async function load(session: Session, count: number, sessions: readonly Session[], inFlight: number): Promise<void> {
  let next = 0;
  const worker = async (s: Session): Promise<void> => {
    while (next < count) {
      const i = next++;
      const result = await s.callTool('echo6', { ...ARGUMENTS, text: `hi ${i}` });
      if (result.content?.[0]?.text !== `<hi ${i}-hi ${i}>`) throw new Error(`unexpected ${JSON.stringify(result)}`);
    }
  };
  await Promise.all(
    (sessions.length > 0 ? sessions : [session]).flatMap((s) => Array.from({ length: inFlight }, () => worker(s))),
  );
}

/**
 * A fresh temporary folder for a server child's profile, and the node flags that make the child
 * write it there (sampling every 50 µs) when SIGTERM ends it.
 */
function profilingFlags(): { dir: string; flags: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'toolwright-profile-'));
  const flags = [
    '--cpu-prof',
    '--cpu-prof-interval=50',
    `--cpu-prof-dir=${dir}`,
    '--import',
    join(here, 'support', 'exit-on-sigterm.js'),
  ];
  return { dir, flags };
}

async function main(): Promise<void> {
  const [scenarioName = 'http', serverName = 'decorated', callsText] = process.argv
    .slice(2)
    .filter((arg) => arg !== '--trace-opt');
  if (scenarioName === 'cold') return profileColdStart(serverName, Number(callsText ?? '1000'));
  const scenario = SCENARIOS[scenarioName];
  const script = SERVERS[serverName];
  const calls = Number(callsText ?? '4000');
  if (scenario === undefined || script === undefined || !Number.isInteger(calls) || calls < 1)
    throw new Error(`usage: profile [${Object.keys(SCENARIOS).join('|')}] [${Object.keys(SERVERS).join('|')}] [calls]`);
  const { dir, flags } = TRACE_OPT ? traceFlags() : profilingFlags();
  const contender = { label: serverName, script: join(here, 'support', script) };
  // The trace's length at each CPU report: the measured part lies between the two.
  const traceAt: number[] = [];
  const usageOf = async (child: { usage(): Promise<UsageReport> }): Promise<UsageReport> => {
    const usage = await child.usage();
    if (TRACE_OPT) traceAt.push(traceLength(dir));
    return usage;
  };
  // The SDK 2.x server serves the 2026-07-28 era through createMcpHandler.
  const transport = serverName === 'sdk2' && scenario.era === '2026' ? 'http-stateless' : scenario.transport;
  let measured: { cpuMicros: number; from: number; to: number };
  if (transport === 'stdio') {
    const { child, session } = await startStdio(contender, 1, flags);
    await load(session, WARMUP, [], scenario.inFlight);
    const before = await usageOf(child);
    await load(session, calls, [], scenario.inFlight);
    const after = await usageOf(child);
    measured = { cpuMicros: after.cpuMicros - before.cpuMicros, from: before.atMicros, to: after.atMicros };
    process.kill(child.pid, 'SIGTERM');
    await session.close().catch(() => undefined);
  } else {
    const child = await startHttp(contender, transport, flags);
    const era = serverName === 'raw' ? '2025' : scenario.era;
    const sessions: Session[] = [];
    for (let i = 0; i < scenario.sessions; i++) sessions.push(await connectHttp(child.url!, era));
    await load(sessions[0]!, WARMUP, sessions, scenario.inFlight);
    const before = await usageOf(child);
    await load(sessions[0]!, calls, sessions, scenario.inFlight);
    const after = await usageOf(child);
    measured = { cpuMicros: after.cpuMicros - before.cpuMicros, from: before.atMicros, to: after.atMicros };
    await Promise.allSettled(sessions.map((s) => s.close()));
    process.kill(child.pid, 'SIGTERM');
  }
  if (TRACE_OPT) return reportCompiles(dir, traceAt, calls, measured.cpuMicros, `${scenarioName} ${serverName}`);
  const file = await waitForProfile(dir);
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  report(profile, calls, measured, `${scenarioName} ${serverName}`, file);
}

const TRACE_FILE = 'v8-trace.log';

/** A fresh temporary folder and the node flags that make a child trace V8's compiles and deopts into it. */
function traceFlags(): { dir: string; flags: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'toolwright-trace-'));
  const flags = [
    '--trace-opt',
    '--trace-deopt',
    '--redirect-code-traces',
    `--redirect-code-traces-to=${join(dir, TRACE_FILE)}`,
  ];
  return { dir, flags };
}

/** The trace's length in bytes so far (V8 opens, writes and closes the file for each message). */
function traceLength(dir: string): number {
  try {
    return statSync(join(dir, TRACE_FILE)).size;
  } catch {
    return 0;
  }
}

/** `[completed compiling 0x.. <JSFunction name (sfi = ..)> (target TURBOFAN) OSR - took 0.1, 2.0, 0.1 ms]` */
const COMPILED = /^\[completed compiling \S+ <JSFunction ?(\S*) \(sfi[^>]*>.*?took ([\d.]+), ([\d.]+), ([\d.]+) ms/;
/** `[bailout (kind: deopt-eager, reason: wrong map): begin. deoptimizing 0x.. <JSFunction name (sfi = ..)>, ...` */
const DEOPTED = /^\[bailout \(kind: ([^,]+), reason: ([^)]*)\): begin\. deoptimizing \S+ <JSFunction ?(\S*) \(sfi/;

/**
 * Prints what V8's optimising compiler did during the measured calls: the trace's bytes from
 * `traceAt[0]` to `traceAt[1]` (its lengths at the two CPU reports).
 */
function reportCompiles(
  dir: string,
  traceAt: readonly number[],
  calls: number,
  cpuMicros: number,
  title: string,
): void {
  const text = readFileSync(join(dir, TRACE_FILE)).subarray(traceAt[0], traceAt[1]).toString('utf8');
  const byName = new Map<string, { compiles: number; mainMs: number; offMs: number; deopts: number }>();
  const reasons = new Map<string, number>();
  const entryOf = (name: string) => {
    let entry = byName.get(name);
    if (entry === undefined) byName.set(name, (entry = { compiles: 0, mainMs: 0, offMs: 0, deopts: 0 }));
    return entry;
  };
  let compiles = 0;
  let mainMs = 0;
  let offMs = 0;
  let deopts = 0;
  for (const line of text.split('\n')) {
    const compiled = COMPILED.exec(line);
    if (compiled !== null) {
      const entry = entryOf(compiled[1] || '(anonymous)');
      const main = Number(compiled[2]) + Number(compiled[4]);
      entry.compiles += 1;
      entry.mainMs += main;
      entry.offMs += Number(compiled[3]);
      compiles += 1;
      mainMs += main;
      offMs += Number(compiled[3]);
      continue;
    }
    const deopted = DEOPTED.exec(line);
    if (deopted === null) continue;
    entryOf(deopted[3] || '(anonymous)').deopts += 1;
    deopts += 1;
    const reason = `${deopted[1]}: ${deopted[2]}`;
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  }
  console.log(`V8 compiles of ${title}: ${calls} calls after ${WARMUP} to warm up`);
  console.log(`  measured server CPU (all threads), µs per call: ${(cpuMicros / calls).toFixed(1)}`);
  console.log(
    `  ${compiles} compiles completed (${mainMs.toFixed(1)} ms on the main thread, ${offMs.toFixed(1)} ms concurrent), ${deopts} deopts`,
  );
  for (const [reason, count] of [...reasons].sort((a, b) => b[1] - a[1])) console.log(`    deopt ${reason}: ${count}`);
  const places = placesByName();
  console.log(`  top ${TOP} functions by compiles, then main-thread ms: compiles, main ms, concurrent ms, deopts`);
  const rows = [...byName].sort((a, b) => b[1].compiles - a[1].compiles || b[1].mainMs - a[1].mainMs).slice(0, TOP);
  for (const [name, entry] of rows) {
    const found = places.get(name) ?? [];
    const place = found.length === 0 ? '' : `${found[0]}${found.length > 1 ? ` (+${found.length - 1})` : ''}`;
    console.log(
      `    ${String(entry.compiles).padStart(3)} ${entry.mainMs.toFixed(2).padStart(7)} ${entry.offMs.toFixed(2).padStart(7)} ${String(entry.deopts).padStart(3)}  ${name.slice(0, 40).padEnd(40)} ${place}`,
    );
  }
  console.log(`  trace: ${join(dir, TRACE_FILE)}`);
}

/**
 * A definition's name in a bundle: `function name(`, `name(...) {`, `name = (...) =>`, `class name`,
 * `name = class`.
 */
const DEFINITION =
  /(?:function\*?\s+([A-Za-z_$][\w$]*)\s*\()|(?:^\s*(?:static\s+|async\s+|\*\s*)*([A-Za-z_$][\w$]*)\s*\([^()]*\)\s*\{)|(?:([A-Za-z_$][\w$]*)\s*=\s*(?:async\s*)?(?:\([^()]*\)|[A-Za-z_$][\w$]*)\s*=>)|(?:class\s+([A-Za-z_$][\w$]*))|(?:([A-Za-z_$][\w$]*)\s*=\s*class\b)/gm;

/** Where each function name the bundle defines is in `src/*.ts` (through the bundle's source maps). */
function placesByName(): Map<string, string[]> {
  const places = new Map<string, string[]>();
  const bundle = join(here, '..', 'bundle');
  for (const relative of readdirSync(bundle, { recursive: true }) as string[]) {
    if (!relative.endsWith('.js')) continue;
    const file = join(bundle, relative);
    const text = readFileSync(file, 'utf8');
    const lineStarts = [0];
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
    for (const match of text.matchAll(DEFINITION)) {
      const name = match[1] ?? match[2] ?? match[3] ?? match[4] ?? match[5]!;
      if (name === 'if' || name === 'for' || name === 'while' || name === 'switch' || name === 'catch') continue;
      const offset = match.index + match[0].indexOf(name);
      let line = 0;
      for (let low = 0, high = lineStarts.length - 1; low <= high;) {
        const middle = (low + high) >> 1;
        if (lineStarts[middle]! <= offset) {
          line = middle;
          low = middle + 1;
        } else high = middle - 1;
      }
      const place = placeOf(pathToFileURL(file).href, line, offset - lineStarts[line]!);
      const list = places.get(name) ?? [];
      if (!list.includes(place)) list.push(place);
      places.set(name, list);
    }
  }
  return places;
}

/**
 * Where a cold start goes: each phase is the sampled time of the stacks holding a frame of one of
 * its `functions` (names as in the source), so phases may overlap (schema generation is part of
 * compile).
 */
const COLD_PHASES: ReadonlyArray<{ readonly phase: string; readonly functions: readonly string[] }> = [
  { phase: 'parsing modules (V8 compiling their source)', functions: ['compileSourceTextModule', 'wrapSafe'] },
  {
    phase: 'finding and reading modules',
    functions: ['Module._resolveFilename', 'defaultResolve', 'defaultLoad', 'cjsPreparseModuleExports'],
  },
  { phase: 'applying decorators (tsc helper __decorate)', functions: ['__decorate'] },
  { phase: 'compile()', functions: ['compile'] },
  { phase: '  schema generation (generateSchema)', functions: ['generateSchema'] },
  { phase: '  argument pipelines (createArgumentsPipeline)', functions: ['createArgumentsPipeline'] },
  { phase: 'serving (serveStdio, createServer)', functions: ['serveStdio', 'createServer'] },
  { phase: 'garbage collection (main thread)', functions: ['(garbage collector)'] },
];

/**
 * Profiles one cold start of `serverName` over stdio with `tools` tools: from the child's start
 * to its first `tools/list` answer, then the child exits and its profile is read.
 */
async function profileColdStart(serverName: string, tools: number): Promise<void> {
  const script = SERVERS[serverName];
  if (script === undefined || serverName === 'raw' || !Number.isInteger(tools) || tools < 1 || tools > 10_000)
    throw new Error(`usage: profile cold [decorated|hand-built|sdk2|sdk1] [tools, 1 to 10000]`);
  const { dir, flags } = profilingFlags();
  const started = process.hrtime.bigint();
  const { child, session } = await startStdio(
    { label: serverName, script: join(here, 'support', script) },
    tools,
    flags,
  );
  const listed = await session.listTools();
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  if (listed.tools.length !== tools) throw new Error(`listed ${listed.tools.length} tools, expected ${tools}`);
  const usage = await child.usage();
  process.kill(child.pid, 'SIGTERM');
  await session.close().catch(() => undefined);
  const file = await waitForProfile(dir);
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  // The window is the whole start: from the profile's start to the report after the answer.
  const measured = { cpuMicros: usage.cpuMicros, from: 0, to: usage.atMicros };
  report(
    profile,
    1,
    measured,
    `cold start of ${serverName} with ${tools} tools (${wallMs.toFixed(0)} ms wall)`,
    file,
    'ms',
  );
  printColdPhases(profile, usage.atMicros);
  const sampled = sampledMicros(profile, usage.atMicros);
  console.log(
    `  CPU outside the main thread's samples (V8's optimising compiler, GC helpers, libuv): ${((usage.cpuMicros - sampled) / 1000).toFixed(1)} ms of ${(usage.cpuMicros / 1000).toFixed(1)}`,
  );
}

/** The sampled µs of `profile` up to `until` (µs on the profile's clock), idle time left out. */
function sampledMicros(profile: CpuProfile, until: number): number {
  const idle = new Set(profile.nodes.filter((node) => node.callFrame.functionName === '(idle)').map((node) => node.id));
  let at = profile.startTime;
  let total = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at <= until && !idle.has(id)) total += delta;
  });
  return total;
}

/** Prints the sampled time of each of `COLD_PHASES` up to `until` (µs on the profile's clock). */
function printColdPhases(profile: CpuProfile, until: number): void {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const totals = COLD_PHASES.map(() => 0);
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at > until) return;
    const hit = COLD_PHASES.map(() => false);
    for (let node: number | undefined = id; node !== undefined; node = parent.get(node)) {
      // esbuild renames a function whose name clashes in a chunk by adding digits (`compile2`).
      const name = byId.get(node)!.callFrame.functionName.replace(/(?<=[A-Za-z_$])\d+$/, '');
      COLD_PHASES.forEach((phase, index) => {
        if (phase.functions.includes(name)) hit[index] = true;
      });
    }
    hit.forEach((yes, index) => {
      if (yes) totals[index]! += delta;
    });
  });
  console.log('  where the start goes (sampled ms on the main thread; phases may overlap)');
  COLD_PHASES.forEach((phase, index) =>
    console.log(`    ${phase.phase.padEnd(48)} ${(totals[index]! / 1000).toFixed(1).padStart(8)}`),
  );
}

async function waitForProfile(dir: string): Promise<string> {
  for (let i = 0; i < 300; i++) {
    const found = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
    if (found !== undefined) {
      // Written at exit: give the writer a moment to finish.
      await new Promise((resolve) => setTimeout(resolve, 200));
      return join(dir, found);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no profile appeared in ${dir} within 30 s`);
}

/**
 * Prints the profile's self time within the measured window (`from` to `to` on the monotonic clock,
 * the child's reports before and after the measured calls), per call.
 */
function report(
  profile: CpuProfile,
  calls: number,
  measured: { cpuMicros: number; from: number; to: number },
  title: string,
  file: string,
  unit: 'µs per call' | 'ms' = 'µs per call',
): void {
  // Cold starts are printed in ms for the whole start; calls in µs per call.
  const per = unit === 'ms' ? 1000 : calls;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<number, number>();
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at < measured.from || at > measured.to) return;
    self.set(id, (self.get(id) ?? 0) + delta);
  });
  const byFunction = new Map<string, { area: string; name: string; place: string; micros: number }>();
  const byArea = new Map<string, number>();
  let total = 0;
  for (const [id, micros] of self) {
    const { functionName, url, lineNumber, columnNumber } = byId.get(id)!.callFrame;
    if (functionName === '(idle)') continue;
    total += micros;
    const area = areaOf(url, functionName);
    byArea.set(area, (byArea.get(area) ?? 0) + micros);
    const place = placeOf(url, lineNumber, columnNumber);
    const key = `${functionName}|${place}`;
    const entry = byFunction.get(key) ?? { area, name: functionName || '(anonymous)', place, micros: 0 };
    entry.micros += micros;
    byFunction.set(key, entry);
  }
  const heading =
    unit === 'ms'
      ? `profile of ${title}: ${(total / per).toFixed(1)} ms sampled on the main thread`
      : `profile of ${title}: ${calls} calls after ${WARMUP} to warm up; ${(total / per).toFixed(1)} µs per call sampled on the main thread`;
  console.log(heading);
  console.log(`  measured server CPU (all threads), ${unit}: ${(measured.cpuMicros / per).toFixed(1)}`);
  console.log(`  self time by area, ${unit} (share of the sampled time)`);
  for (const [area, micros] of [...byArea].sort((a, b) => b[1] - a[1]))
    console.log(
      `    ${area.padEnd(40)} ${(micros / per).toFixed(1).padStart(8)}  ${((100 * micros) / total).toFixed(1).padStart(5)}%`,
    );
  console.log(`  top ${TOP} functions by self time, ${unit}`);
  for (const entry of [...byFunction.values()].sort((a, b) => b.micros - a.micros).slice(0, TOP))
    console.log(
      `    ${(entry.micros / per).toFixed(2).padStart(7)}  ${((100 * entry.micros) / total).toFixed(1).padStart(5)}%  ${entry.name.slice(0, 40).padEnd(40)} ${entry.area.padEnd(28)} ${entry.place}`,
    );
  console.log(`  profile: ${file}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

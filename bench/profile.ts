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
 *
 * scenario: stdio | stdio-16 | http (default) | http-stateless | http-2026;
 * server: decorated (default) | hand-built | sdk2 | sdk1 | raw. The profile is kept in a temporary
 * folder whose path is printed, for a closer look in Chrome's DevTools.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  connectHttp,
  startHttp,
  startStdio,
  type ChildTransport,
  type ClientEra,
  type Session,
} from './support/bench-child.js';

const here = dirname(fileURLToPath(import.meta.url));
const SERVERS: Readonly<Record<string, string>> = {
  decorated: 'echo6-toolwright-server.js',
  'hand-built': 'echo6-handbuilt-server.js',
  sdk2: 'echo6-sdk2-server.js',
  sdk1: 'echo6-sdk1-server.js',
  raw: 'raw-echo-server.js',
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
const WARMUP = 500;
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

async function main(): Promise<void> {
  const [scenarioName = 'http', serverName = 'decorated', callsText = '4000'] = process.argv.slice(2);
  const scenario = SCENARIOS[scenarioName];
  const script = SERVERS[serverName];
  const calls = Number(callsText);
  if (scenario === undefined || script === undefined || !Number.isInteger(calls) || calls < 1)
    throw new Error(`usage: profile [${Object.keys(SCENARIOS).join('|')}] [${Object.keys(SERVERS).join('|')}] [calls]`);
  const dir = mkdtempSync(join(tmpdir(), 'toolwright-profile-'));
  const flags = [
    '--cpu-prof',
    '--cpu-prof-interval=50',
    `--cpu-prof-dir=${dir}`,
    '--import',
    join(here, 'support', 'exit-on-sigterm.js'),
  ];
  const contender = { label: serverName, script: join(here, 'support', script) };
  // The SDK 2.x server serves the 2026-07-28 era through createMcpHandler.
  const transport = serverName === 'sdk2' && scenario.era === '2026' ? 'http-stateless' : scenario.transport;
  let measured: { cpuMicros: number; from: number; to: number };
  if (transport === 'stdio') {
    const { child, session } = await startStdio(contender, 1, flags);
    await load(session, WARMUP, [], scenario.inFlight);
    const before = await child.usage();
    await load(session, calls, [], scenario.inFlight);
    const after = await child.usage();
    measured = { cpuMicros: after.cpuMicros - before.cpuMicros, from: before.atMicros, to: after.atMicros };
    process.kill(child.pid, 'SIGTERM');
    await session.close().catch(() => undefined);
  } else {
    const child = await startHttp(contender, transport, flags);
    const era = serverName === 'raw' ? '2025' : scenario.era;
    const sessions: Session[] = [];
    for (let i = 0; i < scenario.sessions; i++) sessions.push(await connectHttp(child.url!, era));
    await load(sessions[0]!, WARMUP, sessions, scenario.inFlight);
    const before = await child.usage();
    await load(sessions[0]!, calls, sessions, scenario.inFlight);
    const after = await child.usage();
    measured = { cpuMicros: after.cpuMicros - before.cpuMicros, from: before.atMicros, to: after.atMicros };
    await Promise.allSettled(sessions.map((s) => s.close()));
    process.kill(child.pid, 'SIGTERM');
  }
  const file = await waitForProfile(dir);
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  report(profile, calls, measured, `${scenarioName} ${serverName}`, file);
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
): void {
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
  console.log(
    `profile of ${title}: ${calls} calls after ${WARMUP} to warm up; ${(total / calls).toFixed(1)} µs per call sampled on the main thread`,
  );
  console.log(`  measured server CPU per call (all threads): ${(measured.cpuMicros / calls).toFixed(1)} µs`);
  console.log(`  self time by area, µs per call (share of the sampled time)`);
  for (const [area, micros] of [...byArea].sort((a, b) => b[1] - a[1]))
    console.log(
      `    ${area.padEnd(40)} ${(micros / calls).toFixed(1).padStart(8)}  ${((100 * micros) / total).toFixed(1).padStart(5)}%`,
    );
  console.log(`  top ${TOP} functions by self time, µs per call`);
  for (const entry of [...byFunction.values()].sort((a, b) => b.micros - a.micros).slice(0, TOP))
    console.log(
      `    ${(entry.micros / calls).toFixed(2).padStart(7)}  ${((100 * entry.micros) / total).toFixed(1).padStart(5)}%  ${entry.name.slice(0, 40).padEnd(40)} ${entry.area.padEnd(28)} ${entry.place}`,
    );
  console.log(`  profile: ${file}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

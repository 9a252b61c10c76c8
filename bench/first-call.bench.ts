/**
 * What a cold start leaves to the first call (issue 28, cold start): toolwright compiles each
 * tool's validator and plans its DTO builder when the tool is first called, not at start, so a
 * start that only lists is cheaper and the first call pays the rest. This bench shows that cost
 * side by side with the SDK's, in one interleaved run: each server of `edge.bench`'s cold starts
 * (the floor of class-validator DTOs on SDK 2.x's plain `Server`, SDK 2.x `McpServer` + zod,
 * toolwright decorated and hand-built; see `support/echo6-*-server.ts`) is started over stdio with
 * 1 and 1,000 tools, lists them, then calls `echo6` twice. Printed, median of `STARTS` interleaved
 * starts, each with its ratio to SDK 2.x: the child's CPU until the first `tools/list` answer, the
 * CPU and client wall time of the first call, the CPU of the second (the first call's extra cost
 * is the difference), and start-to-first-call CPU in all.
 *
 * Every loop is bounded by the constants below. Figures vary with the machine; compare the ratios.
 *
 *   node dist/bench/first-call.bench.js      (or `npm run bench`)
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startStdio, type CallTool, type Contender } from './support/bench-child.js';
import { median } from './support/median.js';

const STARTS = 7;
const TOOL_COUNTS = [1, 1000] as const;
const ARGUMENTS = { text: 'hi', count: 2, separator: '-', prefix: '<', suffix: '>', upper: false };

const here = dirname(fileURLToPath(import.meta.url));
const support = (file: string): string => join(here, 'support', file);

const CONTENDERS: readonly Contender[] = [
  { label: 'floor: SDK 2.x Server + DTOs', script: support('echo6-floor-server.js') },
  { label: 'SDK 2.x McpServer+zod', script: support('echo6-sdk2-server.js') },
  { label: 'toolwright decorated', script: support('echo6-toolwright-server.js') },
  { label: 'toolwright hand-built', script: support('echo6-handbuilt-server.js') },
];
/** The contender every ratio is taken against. */
const REFERENCE = 1;

/** One start's figures, in milliseconds. */
interface FirstCall {
  /** The child's CPU from its start to the first `tools/list` answer. */
  readonly listCpu: number;
  /** The child's CPU for the first call, and the client's wall time for it. */
  readonly firstCpu: number;
  readonly firstWall: number;
  /** The child's CPU for the second call. */
  readonly secondCpu: number;
}

async function callEcho6(label: string, callTool: CallTool, i: number): Promise<void> {
  const text = `hi ${i}`;
  const result = await callTool('echo6', { ...ARGUMENTS, text });
  if (result.content?.[0]?.text !== `<${text}-${text}>`)
    throw new Error(`${label}: unexpected result ${JSON.stringify(result)}`);
}

async function oneStart(contender: Contender, tools: number): Promise<FirstCall> {
  const { child, session } = await startStdio(contender, tools);
  try {
    const listed = await session.listTools();
    if (listed.tools.length !== tools)
      throw new Error(`${contender.label}: listed ${listed.tools.length} tools, expected ${tools}`);
    const atList = (await child.usage()).cpuMicros;
    const started = performance.now();
    await callEcho6(contender.label, session.callTool, 1);
    const firstWall = performance.now() - started;
    const afterFirst = (await child.usage()).cpuMicros;
    await callEcho6(contender.label, session.callTool, 2);
    const afterSecond = (await child.usage()).cpuMicros;
    return {
      listCpu: atList / 1000,
      firstCpu: (afterFirst - atList) / 1000,
      firstWall,
      secondCpu: (afterSecond - afterFirst) / 1000,
    };
  } finally {
    await child.stop();
  }
}

const cell = (value: number, digits: number, width: number): string => value.toFixed(digits).padStart(width);
const ratio = (value: number, reference: number): string => `x${(value / reference).toFixed(2)}`.padStart(7);
const LABEL = 30;

export async function run(): Promise<void> {
  console.log(
    `first-call.bench: start, first tools/list, then two echo6 calls over stdio; the child's CPU (median of ${STARTS} interleaved starts), ratios to SDK 2.x`,
  );
  for (const tools of TOOL_COUNTS) {
    const samples = CONTENDERS.map(() => [] as FirstCall[]);
    for (let start = 0; start < STARTS; start++)
      for (const [index, contender] of CONTENDERS.entries()) samples[index]!.push(await oneStart(contender, tools));
    const medians = samples.map((values) => ({
      listCpu: median(values.map((v) => v.listCpu)),
      firstCpu: median(values.map((v) => v.firstCpu)),
      firstWall: median(values.map((v) => v.firstWall)),
      secondCpu: median(values.map((v) => v.secondCpu)),
      total: median(values.map((v) => v.listCpu + v.firstCpu)),
    }));
    const ref = medians[REFERENCE]!;
    console.log(`  ${tools.toLocaleString('en-US')} tool(s)`);
    console.log(
      `  ${'server'.padEnd(LABEL)} ${'list CPU'.padStart(9)} ${'/SDK 2'.padStart(7)} ${'1st call'.padStart(9)} ${'/SDK 2'.padStart(7)} ${'1st wall'.padStart(9)} ${'2nd call'.padStart(9)} ${'to 1st call'.padStart(12)} ${'/SDK 2'.padStart(7)}`,
    );
    CONTENDERS.forEach((contender, i) => {
      const m = medians[i]!;
      console.log(
        `  ${contender.label.padEnd(LABEL)} ${cell(m.listCpu, 0, 9)} ${ratio(m.listCpu, ref.listCpu)} ${cell(m.firstCpu, 2, 9)} ${ratio(m.firstCpu, ref.firstCpu)} ${cell(m.firstWall, 2, 9)} ${cell(m.secondCpu, 2, 9)} ${cell(m.total, 0, 12)} ${ratio(m.total, ref.total)}`,
      );
    });
  }
  console.log('  (CPU and wall in ms; "to 1st call" is the CPU from the start to the first call answered)');
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  run().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}

/**
 * What importing costs a fresh process (issue 7, part c: cold start), side by side in one run:
 * the CPU time (all threads, `process.cpuUsage`) of one `import()` in a new Node process, median
 * of interleaved starts, for
 *
 * - `toolwright` as published (the bundle in `dist/bundle/`, 9 files) and unbundled (`dist/src/`,
 *   164 modules, under the condition `toolwright-unbundled`): the difference is what bundling buys;
 * - `@modelcontextprotocol/server` (with its zod), which both toolwright and the SDK contender load;
 * - `class-validator` after `reflect-metadata`: what a decorated tool's own file loads, which no
 *   change inside toolwright can remove (the floor of `edge.bench`'s cold starts).
 *
 * Every loop is bounded by `STARTS`. Figures vary with the machine; compare the ratios.
 *
 *   node dist/bench/import.bench.js      (or `npm run bench`)
 */
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './support/median.js';

const STARTS = 7;
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

interface Importer {
  readonly label: string;
  readonly conditions?: string;
  readonly specifiers: readonly string[];
}

const IMPORTERS: readonly Importer[] = [
  { label: 'toolwright (bundle, as published)', specifiers: ['toolwright'] },
  { label: 'toolwright (unbundled, dist/src)', conditions: 'toolwright-unbundled', specifiers: ['toolwright'] },
  { label: '@modelcontextprotocol/server', specifiers: ['@modelcontextprotocol/server'] },
  { label: 'reflect-metadata + class-validator', specifiers: ['reflect-metadata', 'class-validator'] },
];

/** The CPU milliseconds one fresh process spends importing `importer`'s specifiers, in order. */
function importCpuMs(importer: Importer): number {
  const code = `const before = process.cpuUsage(); for (const s of ${JSON.stringify(importer.specifiers)}) await import(s); const used = process.cpuUsage(before); console.log((used.user + used.system) / 1000);`;
  const args = [
    ...(importer.conditions === undefined ? [] : [`--conditions=${importer.conditions}`]),
    '--input-type=module',
    '-e',
    code,
  ];
  return Number(execFileSync(process.execPath, args, { cwd: root, encoding: 'utf8' }).trim());
}

export async function run(): Promise<void> {
  const samples = IMPORTERS.map(() => [] as number[]);
  for (let start = 0; start < STARTS; start++) {
    IMPORTERS.forEach((importer, index) => samples[index]!.push(importCpuMs(importer)));
  }
  const medians = samples.map(median);
  const sdk = medians[2]!;
  console.log(`import.bench: CPU of one import() in a fresh process, median of ${STARTS} interleaved starts`);
  IMPORTERS.forEach((importer, index) => {
    console.log(
      `  ${importer.label.padEnd(38)} ${medians[index]!.toFixed(0).padStart(5)} ms   x${(medians[index]! / sdk).toFixed(2)} of the SDK's`,
    );
  });
  console.log(
    `  bundling saves ${(medians[1]! - medians[0]!).toFixed(0)} ms (x${(medians[0]! / medians[1]!).toFixed(2)} of the unbundled import)`,
  );
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  run().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}

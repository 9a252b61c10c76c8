/**
 * What the linter and the listing profiles cost, side by side in one run on the issue tracker
 * sample (6 tools): compiling the set (the baseline), linting every schema against every
 * provider, and making the portable listing; then one call of `link_issues` through the exact
 * tool (a map as an object) and through the portable tool (the same map as { key, value }
 * entries, turned back before validation). Interleaved rounds; medians per operation and the
 * ratio to the baseline of each group.
 *
 *   node dist/bench/lint.bench.js        (or `npm run bench`, which runs every bench)
 */
import 'reflect-metadata';
import { compile } from '../src/index.js';
import { applySchemaProfile, lintTools } from '../src/compiler/index.js';
import { createCallContext } from '../src/runtime/index.js';
import { tools } from '../samples/issues/tools.js';

const ROUNDS = 15;
const ctx = createCallContext({ call: { id: 'b', tool: 'link_issues', args: {} } });

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function timePerOp(fn: () => unknown, ops: number): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < ops; i++) await fn();
  return Number(process.hrtime.bigint() - start) / ops / 1_000;
}

export async function run(): Promise<void> {
  const exact = compile(tools);
  const portable = applySchemaProfile(exact, 'portable');
  const exactLink = exact.find((tool) => tool.name === 'link_issues')!;
  const portableLink = portable.find((tool) => tool.name === 'link_issues')!;
  const objectArgs = { issue: 3, links: { a: { relation: 'blocks', issue: 4 }, b: { relation: 'relates', issue: 5 } } };
  const entryArgs = {
    issue: 3,
    links: [
      { key: 'a', value: { relation: 'blocks', issue: 4 } },
      { key: 'b', value: { relation: 'relates', issue: 5 } },
    ],
  };
  const build = { compile: [] as number[], lint: [] as number[], profile: [] as number[] };
  const call = { exact: [] as number[], portable: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    build.compile.push(await timePerOp(() => compile(tools), 20));
    build.lint.push(await timePerOp(() => lintTools(exact), 20));
    build.profile.push(await timePerOp(() => applySchemaProfile(exact, 'portable'), 20));
    call.exact.push(await timePerOp(() => exactLink.execute(objectArgs, ctx), 2_000));
    call.portable.push(await timePerOp(() => portableLink.execute(entryArgs, ctx), 2_000));
  }
  const base = median(build.compile);
  console.log('per tool set of 6 tools (median of %d rounds):', ROUNDS);
  for (const [name, values] of Object.entries(build))
    console.log(
      `  ${name.padEnd(8)} ${median(values).toFixed(1).padStart(8)} µs  ${(median(values) / base).toFixed(2)}x compile`,
    );
  const callBase = median(call.exact);
  console.log('one link_issues call (median of %d rounds):', ROUNDS);
  for (const [name, values] of Object.entries(call))
    console.log(
      `  ${name.padEnd(8)} ${median(values).toFixed(2).padStart(8)} µs  ${(median(values) / callBase).toFixed(2)}x exact`,
    );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  run().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}

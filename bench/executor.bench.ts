/**
 * Executor overhead per call: a batch of 1,000 no-op calls run by a plain loop (each
 * `tool.execute` awaited in turn, and all at once with `Promise.all`) and through the
 * `Executor` (serial, default `maxParallel` 8, and unbounded). Rounds are interleaved, so
 * machine noise hits every variant alike, and the whole run is bounded in time. It prints
 * calls/s, µs per call, and each variant's time relative to its plain baseline.
 *
 *   node dist/bench/executor.bench.js        (or `npm run bench`, which runs every bench)
 *
 * To measure another way of running calls (say, tools wrapped by a permission policy with
 * hooks), add an entry to `VARIANTS` naming the baseline it should be compared with.
 */
import { createCallContext, type ContractTool } from '../src/contract/index.js';
import { Executor, type BatchCall } from '../src/runtime/executor/index.js';

const CALLS = 1_000;
const WARMUP_ROUNDS = 5;
const MAX_ROUNDS = 40;
const TIME_BUDGET_MS = 4_000;

/** One way of running a batch of calls, measured against the variant named by `baseline`. */
export interface BenchVariant {
  readonly label: string;
  /** The label of the variant this one is compared with; absent for a baseline. */
  readonly baseline?: string;
  run(calls: readonly BatchCall[]): Promise<unknown>;
}

const noop: ContractTool = {
  name: 'noop',
  description: 'does nothing',
  async execute() {
    return 'ok';
  },
};

const sharedCtx = createCallContext({ call: { id: 'bench', tool: 'noop', args: {} } });

const serialExecutor = new Executor({ serial: true });
const defaultExecutor = new Executor();
const wideExecutor = new Executor({ maxParallel: CALLS });

/** The variants measured, in print order. Add new ones here. */
export const VARIANTS: BenchVariant[] = [
  {
    label: 'plain loop (await each)',
    async run(calls) {
      for (const call of calls) await (call.tool as ContractTool).execute(call.args, sharedCtx);
    },
  },
  {
    label: 'plain Promise.all',
    run: (calls) => Promise.all(calls.map((call) => (call.tool as ContractTool).execute(call.args, sharedCtx))),
  },
  { label: 'executor serial', baseline: 'plain loop (await each)', run: (calls) => serialExecutor.run(calls) },
  { label: 'executor maxParallel 8', baseline: 'plain Promise.all', run: (calls) => defaultExecutor.run(calls) },
  { label: `executor maxParallel ${CALLS}`, baseline: 'plain Promise.all', run: (calls) => wideExecutor.run(calls) },
];

/** Measures `variants` on `calls`, interleaving rounds, and prints one line per variant. */
export async function measure(variants: readonly BenchVariant[], calls: readonly BatchCall[]): Promise<void> {
  const totals = new Map<string, number>(variants.map((v) => [v.label, 0]));
  for (let round = 0; round < WARMUP_ROUNDS; round += 1) for (const v of variants) await v.run(calls);
  const began = performance.now();
  let rounds = 0;
  while (rounds < MAX_ROUNDS && performance.now() - began < TIME_BUDGET_MS) {
    const order = rounds % 2 === 0 ? variants : [...variants].reverse();
    for (const v of order) {
      const start = performance.now();
      await v.run(calls);
      totals.set(v.label, totals.get(v.label)! + (performance.now() - start));
    }
    rounds += 1;
  }
  const perCallMicros = (label: string): number => (totals.get(label)! * 1000) / (rounds * calls.length);
  console.log(`executor: ${calls.length} no-op calls per batch, ${rounds} interleaved rounds`);
  const width = Math.max(...variants.map((v) => v.label.length));
  for (const v of variants) {
    const micros = perCallMicros(v.label);
    const callsPerSecond = Math.round(1e6 / micros);
    let comparison = '';
    if (v.baseline !== undefined) {
      const base = perCallMicros(v.baseline);
      comparison = `  ${(micros / base).toFixed(2)}x ${v.baseline}, overhead ${(micros - base).toFixed(2)} µs/call`;
    }
    console.log(
      `  ${v.label.padEnd(width)}  ${String(callsPerSecond).padStart(9)} calls/s  ${micros.toFixed(2).padStart(7)} µs/call${comparison}`,
    );
  }
}

export async function run(): Promise<void> {
  const calls: BatchCall[] = Array.from({ length: CALLS }, (_, i) => ({ id: `c${i}`, tool: noop, args: { i } }));
  await measure(VARIANTS, calls);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  run().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}

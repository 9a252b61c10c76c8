/**
 * What the shared stores cost per call against the memory stores, side by side in one run, on a
 * real redis-server on loopback (started and stopped here; skipped with a message when
 * `redis-server` is not installed):
 * - a keyed call: the `Executor` running batches of a `keyed` no-op tool, each call with a fresh
 *   idempotency key (one claim and one outcome per call), with a `MemoryReplayStore` and with a
 *   `RedisReplayStore`;
 * - a decision lookup: the `Executor` running batches of a no-op tool that checks one permission
 *   answered by a remembered "always" decision, with the policy's default `ScopedDecisions` and
 *   with a `RedisDecisionStore`;
 * - each store alone, one operation after another (latency, no parallelism): `begin` + `complete`,
 *   and `policy.decide`.
 * Rounds are interleaved (memory, Redis, memory, ...) and bounded in time; each Redis line prints
 * its time relative to its memory line. The Redis figures include the loopback round trips to a
 * redis-server on the same (shared) machine.
 *
 *   node dist/bench/stores.bench.js        (or `npm run bench`, which runs every bench)
 */
import { Executor, MemoryReplayStore, createPolicy, type BatchCall, type ReplayStore, type PermissionPolicy } from '../src/runtime/index.js';
import type { CallContext, ContractTool } from '../src/contract/index.js';
import { connectRedis, RedisDecisionStore, RedisReplayStore } from '../src/redis/index.js';
import { redisSkip, startRedisServer } from '../test/support/redis-server.js';

const BATCH = 200;
const SERIAL_OPS = 200;
const WARMUP_ROUNDS = 3;
const MAX_ROUNDS = 30;
const TIME_BUDGET_MS = 3_000;

const keyed: ContractTool = { name: 'keyed_noop', description: 'does nothing, once per key', replay: 'keyed', async execute() { return 'ok'; } };
const checking: ContractTool = {
  name: 'checking',
  description: 'checks write on its subject, then does nothing',
  async execute(_args: unknown, ctx: CallContext) {
    await ctx.requirePermission({ subject: '/workspace/file', capabilities: ['write'] });
    return 'ok';
  },
};

interface Variant {
  readonly label: string;
  readonly baseline?: string;
  /** Runs one round of `count` calls (or operations). */
  run(round: number): Promise<unknown>;
  readonly count: number;
}

/** Measures `variants`, interleaving rounds (reversed every other round), and prints µs per call and each ratio to its baseline. */
async function measure(title: string, variants: readonly Variant[]): Promise<void> {
  const totals = new Map<string, number>(variants.map((v) => [v.label, 0]));
  let round = 0;
  for (; round < WARMUP_ROUNDS; round += 1) for (const v of variants) await v.run(round);
  const began = performance.now();
  let measured = 0;
  while (measured < MAX_ROUNDS && performance.now() - began < TIME_BUDGET_MS) {
    const order = measured % 2 === 0 ? variants : [...variants].reverse();
    for (const v of order) {
      const start = performance.now();
      await v.run(round);
      totals.set(v.label, totals.get(v.label)! + (performance.now() - start));
    }
    measured += 1;
    round += 1;
  }
  const micros = (v: Variant): number => (totals.get(v.label)! * 1000) / (measured * v.count);
  console.log(`${title}, ${measured} interleaved rounds`);
  const width = Math.max(...variants.map((v) => v.label.length));
  for (const v of variants) {
    const base = v.baseline === undefined ? undefined : variants.find((b) => b.label === v.baseline);
    const ratio = base === undefined ? '' : `  ${(micros(v) / micros(base)).toFixed(2)}x ${base.label}, +${(micros(v) - micros(base)).toFixed(1)} µs/call`;
    console.log(`  ${v.label.padEnd(width)}  ${micros(v).toFixed(1).padStart(8)} µs/call${ratio}`);
  }
}

/** A batch of keyed calls with keys no other round used. */
function keyedBatch(prefix: string, round: number): BatchCall[] {
  return Array.from({ length: BATCH }, (_, i) => ({ id: `c${i}`, tool: keyed, args: { i }, idempotencyKey: `${prefix}-${round}-${i}` }));
}

const checkingBatch: BatchCall[] = Array.from({ length: BATCH }, (_, i) => ({ id: `c${i}`, tool: checking, args: { i } }));

/** Serial `begin` + `complete` of fresh keys on `store`. */
async function claimAndComplete(store: ReplayStore, prefix: string, round: number): Promise<void> {
  for (let i = 0; i < SERIAL_OPS; i += 1) {
    const key = `${prefix}-serial-${round}-${i}`;
    await store.begin({ key, tool: 'keyed_noop', args: { i } });
    await store.complete(key, { ok: true, result: { content: [] } });
  }
}

/** Serial decisions of a remembered capability. */
async function decideSerially(policy: PermissionPolicy): Promise<void> {
  for (let i = 0; i < SERIAL_OPS; i += 1) await policy.decide('checking', '/workspace/file', 'write');
}

export async function run(): Promise<void> {
  if (redisSkip !== undefined) {
    console.log(`stores: skipped: ${redisSkip}`);
    return;
  }
  const redis = await startRedisServer();
  const connection = await connectRedis({ url: redis.url });
  const redisReplay = new RedisReplayStore(connection);
  try {
    const memoryReplay = new MemoryReplayStore({ maxEntries: 1_000_000 });
    const memoryExecutor = new Executor({ replayStore: memoryReplay });
    const redisExecutor = new Executor({ replayStore: redisReplay });
    await measure(`stores: keyed call, Executor (maxParallel 8), batches of ${BATCH}, a fresh key per call`, [
      { label: 'MemoryReplayStore', count: BATCH, run: (round) => memoryExecutor.run(keyedBatch('m', round)) },
      { label: 'RedisReplayStore', baseline: 'MemoryReplayStore', count: BATCH, run: (round) => redisExecutor.run(keyedBatch('r', round)) },
    ]);

    const memoryPolicy = createPolicy({ decisionScope: 'server' });
    const redisPolicy = createPolicy({ decisionScope: 'server', decisionStore: new RedisDecisionStore(connection, { namespace: 'bench' }) });
    memoryPolicy.remember('checking', '/workspace/file', ['write'], 'allow');
    await redisPolicy.remember('checking', '/workspace/file', ['write'], 'allow');
    const memoryChecks = new Executor({ policy: memoryPolicy });
    const redisChecks = new Executor({ policy: redisPolicy });
    await measure(`stores: decision lookup (one requirePermission answered by a remembered "always"), Executor, batches of ${BATCH}`, [
      { label: 'ScopedDecisions (memory)', count: BATCH, run: () => memoryChecks.run(checkingBatch) },
      { label: 'RedisDecisionStore', baseline: 'ScopedDecisions (memory)', count: BATCH, run: () => redisChecks.run(checkingBatch) },
    ]);

    await measure(`stores: each store alone, ${SERIAL_OPS} operations one after another`, [
      { label: 'MemoryReplayStore begin+complete', count: SERIAL_OPS, run: (round) => claimAndComplete(memoryReplay, 'm', round) },
      { label: 'RedisReplayStore begin+complete', baseline: 'MemoryReplayStore begin+complete', count: SERIAL_OPS, run: (round) => claimAndComplete(redisReplay, 'r', round) },
      { label: 'policy.decide, memory', count: SERIAL_OPS, run: () => decideSerially(memoryPolicy) },
      { label: 'policy.decide, Redis', baseline: 'policy.decide, memory', count: SERIAL_OPS, run: () => decideSerially(redisPolicy) },
    ]);
  } finally {
    redisReplay.close();
    await connection.close();
    await redis.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  run().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}

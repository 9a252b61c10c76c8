/**
 * What the shared stores cost per call against the memory stores, side by side in one run, on a
 * real redis-server on loopback (started and stopped here; skipped with a message when
 * `redis-server` is not installed):
 * - a keyed call: the `Executor` running batches of a `keyed` no-op tool, each call with a fresh
 *   idempotency key (one claim and one outcome per call), with a `MemoryReplayStore` and with a
 *   `RedisReplayStore`;
 * - a decision lookup: the `Executor` running batches of a no-op tool that checks one permission
 *   answered by a remembered "always" decision, with the policy's default `MemoryDecisionStore` and
 *   with a `RedisDecisionStore`;
 * - a keyed call end to end: a 2025-era SDK client calling a served keyed tool over HTTP on
 *   loopback, one call after another, with the server's `replay` a `MemoryReplayStore` and a
 *   `RedisReplayStore`;
 * - each store alone, one operation after another (latency, no parallelism): `begin` + `complete`,
 *   and `policy.decide`.
 * Rounds are interleaved and bounded in time (`measure` of executor.bench); each Redis line prints
 * its time relative to its memory line (the header line `executor: 200 no-op calls per batch`
 * gives the round size). The Redis figures include the loopback round trips to a
 * redis-server on the same (shared) machine.
 *
 *   node dist/bench/stores.bench.js        (or `npm run bench`, which runs every bench)
 */
import {
  Executor,
  MemoryReplayStore,
  createPolicy,
  type BatchCall,
  type ReplayStore,
  type PermissionPolicy,
} from '../src/runtime/index.js';
import type { ContractTool } from '../src/contract/index.js';
import { connectRedis, RedisDecisionStore, RedisReplayStore } from '../src/redis/index.js';
import { redisSkip, startRedisServer } from '../test/support/redis-server.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { IDEMPOTENCY_KEY_META, serveHttp } from '../src/mcp/index.js';
import { measure } from './executor.bench.js';
import { checking } from './policy.bench.js';

/** Calls (or store operations) per round of every variant. */
const CALLS = 200;
/** Calls per round over HTTP (each takes milliseconds, so fewer per round and more rounds fit the time budget). */
const HTTP_CALLS = 40;

const keyed: ContractTool = {
  name: 'keyed_noop',
  description: 'does nothing, once per key',
  replay: 'keyed',
  async execute() {
    return 'ok';
  },
};

/** A batch of keyed calls whose keys no other batch used. */
let batches = 0;
function keyedBatch(prefix: string): BatchCall[] {
  batches += 1;
  return Array.from({ length: CALLS }, (_, i) => ({
    id: `c${i}`,
    tool: keyed,
    args: { i },
    idempotencyKey: `${prefix}-${batches}-${i}`,
  }));
}

const checkingBatch: BatchCall[] = Array.from({ length: CALLS }, (_, i) => ({
  id: `c${i}`,
  tool: checking,
  args: { i },
}));

/** Serial `begin` + `complete` of fresh keys on `store`. */
async function claimAndComplete(store: ReplayStore, prefix: string): Promise<void> {
  batches += 1;
  for (let i = 0; i < CALLS; i += 1) {
    const key = `${prefix}-serial-${batches}-${i}`;
    await store.begin({ key, tool: 'keyed_noop', args: { i } });
    await store.complete(key, { ok: true, result: { content: [] } });
  }
}

/** Serial decisions of a remembered capability. */
async function decideSerially(policy: PermissionPolicy): Promise<void> {
  for (let i = 0; i < CALLS; i += 1) await policy.decide('checking', '/workspace/file', 'read');
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
    console.log(
      `stores: keyed call through the Executor (maxParallel 8), a fresh idempotency key per call; Redis on loopback`,
    );
    await measure(
      [
        { label: 'MemoryReplayStore', run: () => memoryExecutor.run(keyedBatch('m')) },
        { label: 'RedisReplayStore', baseline: 'MemoryReplayStore', run: () => redisExecutor.run(keyedBatch('r')) },
      ],
      checkingBatch,
    );

    const memoryPolicy = createPolicy({ decisionScope: 'server' });
    const redisPolicy = createPolicy({
      decisionScope: 'server',
      decisionStore: new RedisDecisionStore(connection, { namespace: 'bench' }),
    });
    void memoryPolicy.remember('checking', '/workspace/file', ['read'], 'allow');
    await redisPolicy.remember('checking', '/workspace/file', ['read'], 'allow');
    const memoryChecks = new Executor({ policy: memoryPolicy });
    const redisChecks = new Executor({ policy: redisPolicy });
    console.log(
      'stores: decision lookup (one requirePermission answered by a remembered "always") through the Executor',
    );
    await measure(
      [
        { label: 'MemoryDecisionStore (memory)', run: () => memoryChecks.run(checkingBatch) },
        {
          label: 'RedisDecisionStore',
          baseline: 'MemoryDecisionStore (memory)',
          run: () => redisChecks.run(checkingBatch),
        },
      ],
      checkingBatch,
    );

    console.log(
      `stores: keyed call end to end: a 2025-era SDK client calling a served tool over HTTP on loopback, ${HTTP_CALLS} calls one after another, a fresh key each`,
    );
    const memoryServer = await serveHttp({ name: 'bench', version: '1.0.0' }, [keyed], {
      replay: new MemoryReplayStore({ maxEntries: 1_000_000 }),
    });
    const redisServer = await serveHttp({ name: 'bench', version: '1.0.0' }, [keyed], { replay: redisReplay });
    const memoryClient = new Client({ name: 'bench', version: '1.0.0' });
    const redisClient = new Client({ name: 'bench', version: '1.0.0' });
    try {
      await memoryClient.connect(new StreamableHTTPClientTransport(new URL(memoryServer.url)));
      await redisClient.connect(new StreamableHTTPClientTransport(new URL(redisServer.url)));
      const callsOn = async (client: Client, prefix: string) => {
        batches += 1;
        for (let i = 0; i < HTTP_CALLS; i += 1)
          await client.callTool({
            name: 'keyed_noop',
            arguments: { i },
            _meta: { [IDEMPOTENCY_KEY_META]: `${prefix}-http-${batches}-${i}` },
          });
      };
      await measure(
        [
          { label: 'served, MemoryReplayStore', run: () => callsOn(memoryClient, 'm') },
          {
            label: 'served, RedisReplayStore',
            baseline: 'served, MemoryReplayStore',
            run: () => callsOn(redisClient, 'r'),
          },
        ],
        checkingBatch.slice(0, HTTP_CALLS),
      );
    } finally {
      await memoryClient.close();
      await redisClient.close();
      await memoryServer.close();
      await redisServer.close();
    }

    console.log('stores: each store alone, one operation after another (latency)');
    await measure(
      [
        { label: 'MemoryReplayStore begin+complete', run: () => claimAndComplete(memoryReplay, 'm') },
        {
          label: 'RedisReplayStore begin+complete',
          baseline: 'MemoryReplayStore begin+complete',
          run: () => claimAndComplete(redisReplay, 'r'),
        },
        { label: 'policy.decide, memory', run: () => decideSerially(memoryPolicy) },
        { label: 'policy.decide, Redis', baseline: 'policy.decide, memory', run: () => decideSerially(redisPolicy) },
      ],
      checkingBatch,
    );
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

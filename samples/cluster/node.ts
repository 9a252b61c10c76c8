import { serveHttp, type HttpHandle, type ServeHttpOptions } from '../../src/index.js';
import { createPolicy, MemoryReplayStore } from '../../src/runtime/index.js';
import {
  connectRedis,
  RedisDecisionStore,
  RedisReplayStore,
  RedisSchedulingStore,
  redisRelayBus,
} from '../../src/redis/index.js';
import { nodeRollouts } from './rollout.js';
import { memoryState, redisState } from './state.js';
import { clusterFeatures, clusterTools } from './tools.js';
import { startSampleTracing } from './telemetry.js';

/** Options of `startClusterNode`. */
export interface ClusterNodeOptions {
  /**
   * This process's node id: in front of every `requestState` it mints, and what `whoami` says. 1 to
   * 64 of `A-Za-z0-9_-`.
   */
  readonly nodeId: string;
  /** The port on 127.0.0.1; default 0 (a free one). */
  readonly port?: number;
  /**
   * The Redis the processes share (`redis://host:port`). Set, a 2026-07-28-era retry that reaches
   * this process for a call parked on another is relayed to that process through Redis
   * (`redisRelayBus`), and keyed calls are deduplicated across the processes (`RedisReplayStore`).
   * Unset, the node needs no service: parked calls stay in this process and keys are kept in its
   * memory (`MemoryReplayStore`).
   */
  readonly redisUrl?: string;
  /** The replay store's claim lease with Redis (see `RedisReplayStoreOptions.leaseMs`); default its own (30 s). */
  readonly replayLeaseMs?: number;
  /**
   * The lease of a scheduling turn in Redis (see `RedisSchedulingStoreOptions.leaseMs`): how long
   * a turn of a process that died stays taken. Default its own (10 s).
   */
  readonly turnLeaseMs?: number;
  /** More `serveHttp` options (auth, input-round options, ...), merged over the defaults. */
  readonly serve?: ServeHttpOptions;
}

/**
 * Serves the cluster sample's tools (`whoami`, `slow`, `confirm`, `order`, `rollout`; `report`
 * once a rollout serves it on every node, see `nodeRollouts`), its resource
 * (`cluster://node`) and its prompt (`briefing`) over streamable HTTP at `/mcp` as one node of a
 * cluster: both protocol eras on one endpoint (2025-era sessions, which
 * the balancer keeps sticky, and stateless 2026-07-28-era requests), with `nodeId` as the
 * node id of its parked runs and, with `redisUrl`, their relay through Redis. `close()` stops the
 * server, then the Redis connections.
 */
export async function startClusterNode(options: ClusterNodeOptions): Promise<HttpHandle> {
  const me = { pid: process.pid, node: options.nodeId };
  const serve = options.serve ?? {};
  const shared = options.redisUrl === undefined ? undefined : await connectRedis({ url: options.redisUrl });
  const relay = shared === undefined ? undefined : redisRelayBus({ connection: shared, url: options.redisUrl });
  const replay =
    shared === undefined
      ? new MemoryReplayStore()
      : new RedisReplayStore(shared, options.replayLeaseMs === undefined ? {} : { leaseMs: options.replayLeaseMs });
  const scheduling =
    shared === undefined
      ? undefined
      : new RedisSchedulingStore(shared, options.turnLeaseMs === undefined ? {} : { leaseMs: options.turnLeaseMs });
  const state = shared === undefined ? memoryState() : redisState(shared);
  const rollouts = nodeRollouts(me, relay);
  // Each close is bounded by the connection's command bound (2 s), and they run side by side, so
  // a stop with Redis away takes about that long rather than their sum.
  const stopShared = async (): Promise<void> => {
    if (replay instanceof RedisReplayStore) replay.close();
    await scheduling?.close();
    await Promise.all([rollouts.close(), relay?.close(), shared?.close()]);
  };
  try {
    const handle = await serveHttp(
      { name: 'toolwright-cluster-sample', version: '0.1.0' },
      [...clusterTools(me, state), rollouts.tool],
      {
        replay,
        // The "always" answers of `publish`, per principal (else session), seen by every process.
        policy: createPolicy({
          // Reading the sample's resource needs no question; `publish` asks.
          rules: [{ effect: 'allow', capabilities: ['read'], subject: 'cluster://**' }],
          ...(shared === undefined ? {} : { decisionStore: new RedisDecisionStore(shared) }),
        }),
        // `@Resource('ledger')` holds across the processes: stateless calls are ordered per
        // principal, else for the whole server, in Redis.
        scheduling: { scope: 'principal', ...(scheduling === undefined ? {} : { store: scheduling }) },
        // The balancer on loopback writes X-Forwarded-For (`option forwardfor`): believe it, so
        // per-client limits count each client, not the balancer.
        forwarded: { trustedProxies: ['127.0.0.1'] },
        // Readiness reports Redis without failing on it (see docs/cluster.md).
        ...(shared === undefined ? {} : { health: { checks: { redis: () => shared.health() } } }),
        ...clusterFeatures(me, state),
        ...serve,
        port: options.port ?? 0,
        inputRounds: { ...serve.inputRounds, nodeId: options.nodeId, ...(relay !== undefined ? { relay } : {}) },
      },
    );
    await rollouts.follow(handle).catch(async (error: unknown) => {
      await handle.close();
      throw error;
    });
    return {
      get url() {
        return handle.url;
      },
      get port() {
        return handle.port;
      },
      get server() {
        return handle.server;
      },
      get sessionCount() {
        return handle.sessionCount;
      },
      close: async () => {
        await handle.close();
        await stopShared();
      },
      drain: (timeoutMs?: number) => handle.drain(timeoutMs),
      shutdown: async (timeoutMs?: number) => {
        await handle.shutdown(timeoutMs);
        await stopShared();
      },
    };
  } catch (error) {
    await stopShared();
    throw error;
  }
}

/** What a node process prints on its first stdout line once it listens (one JSON object). */
export interface NodeReady {
  readonly port: number;
  readonly pid: number;
  readonly node: string;
}

/**
 * Runs `start` as the body of a node process: prints `NodeReady` as one JSON line once listening,
 * and on SIGTERM or SIGINT shuts down (readiness goes 503 `draining` at once, calls being answered
 * get up to 5 s to end, then the server closes, ending its sessions and calls) and exits 0. A start
 * failure is printed to stderr and exits 1. With `CLUSTER_TRACE=1` the process traces its
 * requests and calls first (see `startSampleTracing`).
 */
export function runNodeProcess(nodeId: string, start: () => Promise<HttpHandle>): void {
  const tracing = process.env.CLUSTER_TRACE === '1' ? startSampleTracing() : Promise.resolve();
  tracing.then(start).then(
    (handle) => {
      const ready: NodeReady = { port: handle.port, pid: process.pid, node: nodeId };
      process.stdout.write(`${JSON.stringify(ready)}\n`);
      const shut = (): void => void handle.shutdown().then(() => process.exit(0));
      process.once('SIGTERM', shut);
      process.once('SIGINT', shut);
    },
    (error: unknown) => {
      process.stderr.write(
        `toolwright cluster node ${nodeId}: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      process.exit(1);
    },
  );
}

import { ToolwrightError } from '../contract/index.js';
import { errorText } from '../util/describe.js';
import { RedisUnavailableError } from './errors.js';
import type { ScriptSender } from './script.js';

/**
 * What `connectRedis` does when Redis could lose what toolwright's shared stores promise
 * (persistence off, or an evicting memory policy): `'require'` (the default) refuses the
 * connection with `RedisDurabilityError`; `'warn'` connects and says so once through the
 * connection's `log`; `'off'` connects without looking (for a Redis used only for the relay bus,
 * or tests that mean to lose data).
 */
export type RedisDurabilityMode = 'require' | 'warn' | 'off';

/**
 * What Redis said about how it keeps data, as `checkRedisDurability` read it from `INFO`. A field
 * is `undefined` when Redis did not say (an old server, or `INFO` refused: see `unknown`).
 */
export interface RedisDurability {
  /** `redis_mode`: `standalone`, `sentinel` or `cluster`. */
  readonly mode: string | undefined;
  /** True when the append-only file is on (`appendonly yes`): a restart keeps every write. */
  readonly appendOnly: boolean | undefined;
  /** `maxmemory_policy`: `noeviction` keeps every key; any other policy may drop keys once `maxmemory` is reached. */
  readonly maxmemoryPolicy: string | undefined;
  /** `maxmemory` in bytes; 0 means no limit (nothing is ever evicted, whatever the policy). */
  readonly maxmemory: number | undefined;
  /** Each way Redis could lose what the stores promise, in words (empty when none). */
  readonly problems: readonly string[];
  /** Why Redis could not be checked (it refused `INFO`), or `undefined` when it could. */
  readonly unknown: string | undefined;
}

/**
 * Redis could lose what toolwright's shared stores promise (an idempotency key's first outcome,
 * a claim): its persistence is off or its memory policy evicts keys. The message names Redis,
 * every problem and the two ways out: fix Redis, or connect with `durability: 'warn'`. Code
 * `redis-not-durable`.
 */
export class RedisDurabilityError extends ToolwrightError {
  override readonly name = 'RedisDurabilityError';
  readonly problems: readonly string[];

  constructor(where: string, problems: readonly string[]) {
    super(
      'redis-not-durable',
      `Redis at ${where} cannot keep what toolwright's shared stores promise: ${problems.join('; ')}. Fix Redis, or pass durability: 'warn' to connectRedis to run anyway (see docs/cluster.md, "Redis")`,
    );
    this.problems = problems;
  }
}

/**
 * The Redis is a Redis Cluster (or the client a cluster client), which toolwright's stores do
 * not support: their loss detection and checks are per server, and the shards of a cluster lose
 * data independently. Code `redis-cluster-unsupported`.
 */
export class RedisClusterUnsupportedError extends ToolwrightError {
  override readonly name = 'RedisClusterUnsupportedError';

  constructor(what: string) {
    super(
      'redis-cluster-unsupported',
      `${what} is a Redis Cluster, which toolwright's stores do not support: use a single Redis (with replicas and Sentinel for failover); see docs/cluster.md, "Redis"`,
    );
  }
}

/** The `key:value` lines of an `INFO` reply, as a map. */
function infoFields(reply: unknown): Map<string, string> {
  const fields = new Map<string, string>();
  if (typeof reply !== 'string') return fields;
  for (const line of reply.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0 && !line.startsWith('#')) fields.set(line.slice(0, colon), line.slice(colon + 1).trim());
  }
  return fields;
}

/** The problems of a Redis that keeps data as `info` says (see `RedisDurability.problems`). */
function problemsOf(info: Omit<RedisDurability, 'problems' | 'unknown'>): string[] {
  const problems: string[] = [];
  if (info.appendOnly === false)
    problems.push(
      'its persistence is off (appendonly no), so a restart loses every idempotency key and claim and keyed calls from before it could run again; start it with --appendonly yes (or CONFIG SET appendonly yes, then CONFIG REWRITE)',
    );
  if (info.maxmemoryPolicy !== undefined && info.maxmemoryPolicy !== 'noeviction' && info.maxmemory !== 0)
    problems.push(
      `its maxmemory-policy is ${info.maxmemoryPolicy} with maxmemory ${info.maxmemory ?? 'unknown'}, so it may evict idempotency keys and claims once full; set maxmemory-policy noeviction`,
    );
  return problems;
}

/**
 * Asks Redis how it keeps data (`INFO server`, `INFO persistence`, `INFO memory`, one command
 * each, so Redis 6 answers too) and says what could lose the stores' promises. It reads `INFO`,
 * not `CONFIG`, which managed services (ElastiCache, Azure Cache, Memorystore) refuse while they
 * answer `INFO`. A Redis that refuses `INFO` too (an ACL without `@dangerous`) resolves with
 * `unknown` set and no problems; Redis being away rejects with `RedisUnavailableError`. Never
 * changes anything in Redis.
 */
export async function checkRedisDurability(sender: ScriptSender): Promise<RedisDurability> {
  const sections = new Map<string, string>();
  for (const section of ['server', 'persistence', 'memory']) {
    let reply: unknown;
    try {
      reply = await sender.command(['INFO', section]);
    } catch (thrown) {
      if (thrown instanceof RedisUnavailableError) throw thrown;
      return {
        mode: undefined,
        appendOnly: undefined,
        maxmemoryPolicy: undefined,
        maxmemory: undefined,
        problems: [],
        unknown: `it refused INFO ${section} (${errorText(thrown)})`,
      };
    }
    for (const [key, value] of infoFields(reply)) sections.set(key, value);
  }
  const aof = sections.get('aof_enabled');
  const maxmemory = sections.get('maxmemory');
  const info = {
    mode: sections.get('redis_mode'),
    appendOnly: aof === undefined ? undefined : aof === '1',
    maxmemoryPolicy: sections.get('maxmemory_policy'),
    maxmemory: maxmemory === undefined || !/^\d+$/.test(maxmemory) ? undefined : Number(maxmemory),
  };
  return { ...info, problems: problemsOf(info), unknown: undefined };
}

/**
 * The line `connectRedis` logs when Redis was not checked or has problems and the mode lets it
 * connect: what is wrong (or why it could not be checked) and what still protects the stores.
 */
export function durabilityWarning(where: string, durability: RedisDurability): string | undefined {
  if (durability.unknown !== undefined)
    return `Redis at ${where} could not be checked for persistence and eviction: ${durability.unknown}. Make sure it runs with appendonly yes and maxmemory-policy noeviction; a restart that loses its data is still detected while a toolwright process stays connected (see docs/cluster.md, "Redis")`;
  if (durability.problems.length === 0) return undefined;
  return `Redis at ${where} can lose what toolwright's shared stores keep: ${durability.problems.join('; ')}. Running anyway (durability: 'warn'); a restart that loses its data is still detected while a toolwright process stays connected (see docs/cluster.md, "Redis")`;
}

import { createHash, randomUUID } from 'node:crypto';
import { isPositiveInteger, MAX_TIMEOUT_MS } from '../util/limits.js';
import {
  LostOutcomeError,
  type ReplayBegin,
  type ReplayClaim,
  type ReplayOutcome,
  type ReplayStore,
} from '../runtime/index.js';
import { fingerprint, ownedReplayKey } from '../runtime/internal.js';
import type { RedisConnection } from './connection.js';
import { RedisBadReplyError } from './errors.js';
import { outcomeFromJson, outcomeToJson } from './outcome-json.js';
import { checkOptionsObject, optionKeys, invalidOption } from '../util/options.js';

/** Options of `RedisReplayStore`. Every member is optional. */
export interface RedisReplayStoreOptions {
  /**
   * How long a key is kept after its call finished, in milliseconds (a positive whole number, or
   * `Infinity` to keep keys until Redis evicts them). Default 24 hours. A retry after that runs
   * the tool again as a new call.
   */
  readonly ttlMs?: number;
  /**
   * How long a claim holds without news from the process running its call, in milliseconds
   * (default 30 s). The running process renews it every third of that; when it stops (the
   * process died, or cannot reach Redis), the claim lapses and the key's outcome is lost: see
   * `LostOutcomeError`.
   */
  readonly leaseMs?: number;
}

const OPTION_KEYS = optionKeys<RedisReplayStoreOptions>()('ttlMs', 'leaseMs');

/** The default time a finished key is kept: 24 hours. */
export const DEFAULT_REPLAY_TTL_MS = 24 * 60 * 60 * 1000;
/** The default lease of a claim: 30 s, renewed every 10 s while its call runs. */
export const DEFAULT_REPLAY_LEASE_MS = 30_000;

/*
 * One hash per key: fp (the claim's fingerprint), state (running | lost | done), token (the
 * claim's owner), lease (until when the claim holds, by Redis's clock, so the processes' clocks
 * never matter) and outcome (JSON). ARGV lengths are milliseconds; ttl 0 means no expiry.
 */
const NOW = "local t = redis.call('TIME') local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)";

/**
 * Claims a key: `{'new'}`, `{'done', outcome}`, `{'running'}`, `{'lost'}` or
 * `{'different-arguments'}`. ARGV: fp, token, leaseMs, ttlMs.
 */
const BEGIN = `${NOW}
local e = redis.call('HMGET', KEYS[1], 'fp', 'state', 'lease', 'outcome')
if not e[1] then
  redis.call('HSET', KEYS[1], 'fp', ARGV[1], 'state', 'running', 'token', ARGV[2], 'lease', now + tonumber(ARGV[3]))
  local ttl = tonumber(ARGV[4])
  if ttl > 0 then redis.call('PEXPIRE', KEYS[1], math.max(ttl, 2 * tonumber(ARGV[3]))) end
  return {'new'}
end
if e[1] ~= ARGV[1] then return {'different-arguments'} end
if e[2] == 'done' then return {'done', e[4]} end
if e[2] == 'lost' then return {'lost'} end
if tonumber(e[3]) < now then
  redis.call('HSET', KEYS[1], 'state', 'lost')
  return {'lost'}
end
return {'running'}`;

/**
 * Extends a claim's lease while its call runs; 1 when renewed, 0 when the claim is no longer this
 * token's running one. ARGV: token, leaseMs, ttlMs.
 */
const RENEW = `${NOW}
local e = redis.call('HMGET', KEYS[1], 'token', 'state')
if e[1] ~= ARGV[1] or e[2] ~= 'running' then return 0 end
redis.call('HSET', KEYS[1], 'lease', now + tonumber(ARGV[2]))
local ttl = tonumber(ARGV[3])
if ttl > 0 then redis.call('PEXPIRE', KEYS[1], math.max(ttl, 2 * tonumber(ARGV[2]))) end
return 1`;

/**
 * Records a claim's outcome (also over `lost`: the real outcome is better news); 1 when written.
 * ARGV: token, outcome, ttlMs.
 */
const COMPLETE = `
local e = redis.call('HMGET', KEYS[1], 'token', 'state')
if e[1] ~= ARGV[1] or e[2] == 'done' then return 0 end
redis.call('HSET', KEYS[1], 'state', 'done', 'outcome', ARGV[2])
redis.call('HDEL', KEYS[1], 'lease')
local ttl = tonumber(ARGV[3])
if ttl > 0 then redis.call('PEXPIRE', KEYS[1], ttl) else redis.call('PERSIST', KEYS[1]) end
return 1`;

/**
 * Withdraws a claim whose answer never came back (the claim may or may not have reached Redis);
 * 1 when it removed it. ARGV: token.
 */
const WITHDRAW = `
local e = redis.call('HMGET', KEYS[1], 'token', 'state')
if e[1] ~= ARGV[1] or e[2] ~= 'running' then return 0 end
redis.call('DEL', KEYS[1])
return 1`;

/**
 * A claim this process holds: its token, the timer renewing its lease, and, once the call ended
 * but Redis could not take the outcome, the outcome still to record (each tick tries again).
 */
interface HeldClaim {
  readonly token: string;
  readonly redisKey: string;
  readonly timer: NodeJS.Timeout;
  pending: string | undefined;
}

function checkOptions(options: RedisReplayStoreOptions): { ttlMs: number; leaseMs: number } {
  checkOptionsObject('RedisReplayStore', options, OPTION_KEYS);
  const ttlMs = options.ttlMs ?? DEFAULT_REPLAY_TTL_MS;
  if (ttlMs !== Infinity && !isPositiveInteger(ttlMs))
    throw invalidOption('RedisReplayStore', 'ttlMs', 'a positive whole number of milliseconds or Infinity', ttlMs);
  const leaseMs = options.leaseMs ?? DEFAULT_REPLAY_LEASE_MS;
  if (!isPositiveInteger(leaseMs) || leaseMs < 30 || leaseMs > MAX_TIMEOUT_MS)
    throw invalidOption('RedisReplayStore', 'leaseMs', 'a whole number of milliseconds from 30', leaseMs);
  return { ttlMs: ttlMs === Infinity ? 0 : ttlMs, leaseMs };
}

/**
 * A `ReplayStore` in Redis, shared by every process connected to it (give the `Executor` its
 * `replayStore`, or an MCP server its `replay` option). It answers as `MemoryReplayStore` does,
 * across processes: a key is claimed atomically (a Lua script), so of two processes beginning the
 * same key at once exactly one gets `new`; the other, and any retry while the first call runs,
 * gets `running`; a retry after it gets the first outcome (`done`), from any process; a key
 * reused with another tool or other arguments gets `different-arguments` (arguments compared as
 * canonical JSON, key order ignored, as a SHA-256 of it).
 *
 * A claim has a lease (`leaseMs`), renewed while its call runs. When the process running a call
 * dies (or loses Redis) for longer than the lease, the key reads as `done` with a
 * `LostOutcomeError`: its outcome is unknown, so, as the replay rules say, it is never run again
 * under that key. If the call does finish after all, its real outcome replaces that answer.
 * Finished keys expire `ttlMs` after they finished (running ones never before twice the lease).
 *
 * Outcomes are stored as JSON (see `outcomeToJson`: a result's `details` and an error's class,
 * stack and extra fields are lost; a failure comes back as a `StoredFailure` with the first
 * failure's name, code and message). When Redis is down or slow, `begin` and `complete` reject
 * with `RedisUnavailableError`: the executor and the server then fail the call with that error
 * (`begin`), or leave the key running until its lease lapses (`complete`).
 */
export class RedisReplayStore implements ReplayStore {
  private readonly ttlMs: number;
  private readonly leaseMs: number;
  private readonly held = new Map<string, HeldClaim>();

  /** Throws a `TypeError` naming a bad option. */
  constructor(
    private readonly redis: RedisConnection,
    options: RedisReplayStoreOptions = {},
  ) {
    if (typeof (redis as { command?: unknown } | null)?.command !== 'function')
      throw new TypeError('RedisReplayStore: the first argument must be a RedisConnection (see connectRedis)');
    ({ ttlMs: this.ttlMs, leaseMs: this.leaseMs } = checkOptions(options));
  }

  /** The number of claims this process holds (calls it runs whose outcome is not recorded yet). */
  get holding(): number {
    return this.held.size;
  }

  /** See `ReplayStore.begin`: the claim is one atomic Redis command, shared by every process. */
  async begin(claim: ReplayClaim): Promise<ReplayBegin> {
    const print = createHash('sha256')
      .update(fingerprint({ tool: claim.tool, args: claim.args }))
      .digest('base64');
    const token = randomUUID();
    const owned = ownedReplayKey(claim.key, claim.owner);
    const key = this.keyOf(owned);
    let reply: unknown;
    try {
      reply = await this.redis.command([
        'EVAL',
        BEGIN,
        '1',
        key,
        print,
        token,
        String(this.leaseMs),
        String(this.ttlMs),
      ]);
    } catch (thrown) {
      // A claim that timed out may still reach Redis later (a hung server that wakes up):
      // withdraw it, so the key does not read as running for a call that never ran.
      this.redis.command(['EVAL', WITHDRAW, '1', key, token]).catch(() => undefined);
      throw thrown;
    }
    const [status, outcome] = Array.isArray(reply) ? (reply as unknown[]) : [];
    switch (status) {
      case 'new':
        this.hold(owned, key, token);
        return { status: 'new' };
      case 'done':
        if (typeof outcome !== 'string') break;
        return { status: 'done', outcome: outcomeFromJson(outcome, `replay key ${JSON.stringify(claim.key)}`) };
      case 'lost':
        return { status: 'done', outcome: { ok: false, error: new LostOutcomeError(claim.key) } };
      case 'running':
      case 'different-arguments':
        return { status };
    }
    throw new RedisBadReplyError(
      `replay key ${JSON.stringify(claim.key)}: Redis answered ${JSON.stringify(reply)} to a claim`,
    );
  }

  /**
   * Records the outcome of a call this process claimed. When Redis cannot take it (down, slow),
   * this rejects with `RedisUnavailableError`, and the store keeps trying on every lease tick
   * while the process runs (renewals stop: past the lease, other processes read the key as
   * lost until the outcome lands).
   */
  async complete(given: string, outcome: ReplayOutcome, owner?: string): Promise<void> {
    const key = ownedReplayKey(given, owner);
    const held = this.held.get(key);
    if (held === undefined || held.pending !== undefined) return;
    held.pending = outcomeToJson(outcome);
    await this.record(key, held);
  }

  /** Sends a held claim's pending outcome; forgets the claim once Redis took it. */
  private async record(key: string, held: HeldClaim): Promise<void> {
    await this.redis.command(['EVAL', COMPLETE, '1', held.redisKey, held.token, held.pending!, String(this.ttlMs)]);
    clearInterval(held.timer);
    if (this.held.get(key) === held) this.held.delete(key);
  }

  /** Stops renewing this process's claims (their leases then lapse); call it when the process stops serving. */
  close(): void {
    for (const held of this.held.values()) clearInterval(held.timer);
    this.held.clear();
  }

  private keyOf(key: string): string {
    return `${this.redis.keyPrefix}replay:${key}`;
  }

  private hold(key: string, redisKey: string, token: string): void {
    const timer = setInterval(
      () => {
        const held = this.held.get(key);
        if (held === undefined) return;
        const sent =
          held.pending === undefined
            ? this.redis.command(['EVAL', RENEW, '1', redisKey, token, String(this.leaseMs), String(this.ttlMs)])
            : this.record(key, held);
        sent.catch(() => {
          // Redis is away: the next tick tries again; past the lease, the claim reads as lost.
        });
      },
      Math.max(10, Math.floor(this.leaseMs / 3)),
    );
    timer.unref();
    this.held.set(key, { token, redisKey, timer, pending: undefined });
  }
}

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
import { outcomeFromJson, outcomeToJson, StoredFailure } from './outcome-json.js';
import { guardedScript } from './generation.js';
import { RedisScript } from './script.js';
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
  /**
   * The largest outcome kept for a key, in bytes of its JSON form (a positive whole number, or
   * `Infinity`; default 64 KiB). A larger one is not kept: a retry gets, in its place, the failure
   * `the first outcome of idempotency key "k" (<n> bytes) was larger than the replay store keeps
   * (maxOutcomeBytes <max>); it is not kept, and the call is not run again` (code
   * `outcome-not-kept`), so the promise "never twice" holds and Redis's memory stays bounded.
   */
  readonly maxOutcomeBytes?: number;
}

const OPTION_KEYS = optionKeys<RedisReplayStoreOptions>()('ttlMs', 'leaseMs', 'maxOutcomeBytes');

/** The default time a finished key is kept: 24 hours. */
export const DEFAULT_REPLAY_TTL_MS = 24 * 60 * 60 * 1000;
/** The default lease of a claim: 30 s, renewed every 10 s while its call runs. */
export const DEFAULT_REPLAY_LEASE_MS = 30_000;
/** The default largest outcome a key keeps: 64 KiB of JSON. */
export const DEFAULT_MAX_OUTCOME_BYTES = 64 * 1024;

/*
 * One hash per key: fp (the claim's fingerprint), state (running | lost | done), token (the
 * claim's owner), lease (until when the claim holds, by Redis's clock, so the processes' clocks
 * never matter) and outcome (JSON). ARGV lengths are milliseconds; ttl 0 means no expiry. Every
 * script is guarded by the generation marker (KEYS[1], ARGV[1]; see `guardedScript`), so it
 * never runs in a Redis that lost its data unnoticed.
 */

/**
 * Claims a key: `{'new'}`, `{'done', outcome}`, `{'running'}`, `{'lost'}` or
 * `{'different-arguments'}`. KEYS: marker, key. ARGV: generation, fp, token, leaseMs, ttlMs.
 * A key not found while Redis's last loss (`lostAt`) is recent enough that it could have held it
 * (within the longer of ttl and twice the lease; for ever without a ttl) is unknown: it is
 * written as lost, never claimed as new.
 */
const BEGIN = guardedScript(
  'replay begin',
  `local e = redis.call('HMGET', KEYS[2], 'fp', 'state', 'lease', 'outcome')
local lease = tonumber(ARGV[4])
local ttl = tonumber(ARGV[5])
if not e[1] then
  if lostAt > 0 and (ttl == 0 or now < lostAt + math.max(ttl, 2 * lease)) then
    redis.call('HSET', KEYS[2], 'fp', ARGV[2], 'state', 'lost')
    if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) end
    return {'lost'}
  end
  redis.call('HSET', KEYS[2], 'fp', ARGV[2], 'state', 'running', 'token', ARGV[3], 'lease', now + lease)
  if ttl > 0 then redis.call('PEXPIRE', KEYS[2], math.max(ttl, 2 * lease)) end
  return {'new'}
end
if e[1] ~= ARGV[2] then return {'different-arguments'} end
if e[2] == 'done' then return {'done', e[4]} end
if e[2] == 'lost' then return {'lost'} end
if tonumber(e[3]) < now then
  redis.call('HSET', KEYS[2], 'state', 'lost')
  return {'lost'}
end
return {'running'}`,
);

/**
 * Extends a claim's lease while its call runs; `{1}` when renewed, `{0}` when the claim is no
 * longer this token's running one. KEYS: marker, key. ARGV: generation, token, leaseMs, ttlMs.
 */
const RENEW = guardedScript(
  'replay renew',
  `local e = redis.call('HMGET', KEYS[2], 'token', 'state')
if e[1] ~= ARGV[2] or e[2] ~= 'running' then return {0} end
redis.call('HSET', KEYS[2], 'lease', now + tonumber(ARGV[3]))
local ttl = tonumber(ARGV[4])
if ttl > 0 then redis.call('PEXPIRE', KEYS[2], math.max(ttl, 2 * tonumber(ARGV[3]))) end
return {1}`,
);

/**
 * Records a claim's outcome: over this token's claim, over `lost` (the real outcome is better
 * news), and over nothing (the key was lost with Redis's data, or expired while Redis was away);
 * never over another token's claim or a recorded outcome. `{1}` when written. KEYS: marker, key.
 * ARGV: generation, token, fp, outcome, ttlMs.
 */
const COMPLETE = guardedScript(
  'replay complete',
  `local e = redis.call('HMGET', KEYS[2], 'token', 'state', 'fp')
if e[2] == 'done' then return {0} end
if e[1] and e[1] ~= ARGV[2] then return {0} end
if e[3] and e[3] ~= ARGV[3] then return {0} end
redis.call('HSET', KEYS[2], 'fp', ARGV[3], 'state', 'done', 'outcome', ARGV[4])
redis.call('HDEL', KEYS[2], 'lease', 'token')
local ttl = tonumber(ARGV[5])
if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) else redis.call('PERSIST', KEYS[2]) end
return {1}`,
);

/**
 * Withdraws a claim whose answer never came back (the claim may or may not have reached Redis);
 * 1 when it removed it. KEYS: key. ARGV: token. Not guarded: it only removes this token's claim.
 */
const WITHDRAW = new RedisScript(
  'replay withdraw',
  `local e = redis.call('HMGET', KEYS[1], 'token', 'state')
if e[1] ~= ARGV[1] or e[2] ~= 'running' then return 0 end
redis.call('DEL', KEYS[1])
return 1`,
);

/**
 * A claim this process holds: its token, the timer renewing its lease, and, once the call ended
 * but Redis could not take the outcome, the outcome still to record (each tick tries again).
 */
interface HeldClaim {
  readonly token: string;
  readonly redisKey: string;
  readonly print: string;
  readonly timer: NodeJS.Timeout;
  pending: string | undefined;
}

function checkOptions(options: RedisReplayStoreOptions): { ttlMs: number; leaseMs: number; maxOutcomeBytes: number } {
  checkOptionsObject('RedisReplayStore', options, OPTION_KEYS);
  const ttlMs = options.ttlMs ?? DEFAULT_REPLAY_TTL_MS;
  if (ttlMs !== Infinity && !isPositiveInteger(ttlMs))
    throw invalidOption('RedisReplayStore', 'ttlMs', 'a positive whole number of milliseconds or Infinity', ttlMs);
  const leaseMs = options.leaseMs ?? DEFAULT_REPLAY_LEASE_MS;
  if (!isPositiveInteger(leaseMs) || leaseMs < 30 || leaseMs > MAX_TIMEOUT_MS)
    throw invalidOption('RedisReplayStore', 'leaseMs', 'a whole number of milliseconds from 30', leaseMs);
  const maxOutcomeBytes = options.maxOutcomeBytes ?? DEFAULT_MAX_OUTCOME_BYTES;
  if (maxOutcomeBytes !== Infinity && !isPositiveInteger(maxOutcomeBytes))
    throw invalidOption(
      'RedisReplayStore',
      'maxOutcomeBytes',
      'a positive whole number of bytes or Infinity',
      maxOutcomeBytes,
    );
  return { ttlMs: ttlMs === Infinity ? 0 : ttlMs, leaseMs, maxOutcomeBytes };
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
 * A Redis that lost its data (a restart without persistence, a flush, a failover to a replica
 * without it) is detected by the connection's generation marker (see `RedisGeneration`): from
 * then on, for as long as a key from before could still have been kept (the longer of `ttlMs`
 * and twice the lease after the loss; for ever with `ttlMs: Infinity`), a key the store does not
 * find is answered as lost (`LostOutcomeError`), never claimed as new, so nothing keyed runs
 * twice; `connection.generation.acceptLoss()` ends that window early. Connect to a Redis with
 * persistence on (`connectRedis` checks) so this never happens.
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
  private readonly maxOutcomeBytes: number;
  private readonly held = new Map<string, HeldClaim>();

  /** Throws a `TypeError` naming a bad option. */
  constructor(
    private readonly redis: RedisConnection,
    options: RedisReplayStoreOptions = {},
  ) {
    if (typeof (redis as { command?: unknown } | null)?.command !== 'function')
      throw new TypeError('RedisReplayStore: the first argument must be a RedisConnection (see connectRedis)');
    ({ ttlMs: this.ttlMs, leaseMs: this.leaseMs, maxOutcomeBytes: this.maxOutcomeBytes } = checkOptions(options));
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
      reply = await this.redis.generation.run(BEGIN, [key], [print, token, String(this.leaseMs), String(this.ttlMs)]);
    } catch (thrown) {
      // A claim that timed out may still reach Redis later (a hung server that wakes up):
      // withdraw it, so the key does not read as running for a call that never ran. By EVAL with
      // the text: this command is sent once and may itself time out, so it cannot fall back from
      // an EVALSHA that Redis answers NOSCRIPT after we stopped listening.
      this.redis.command(['EVAL', WITHDRAW.source, '1', key, token]).catch(() => undefined);
      throw thrown;
    }
    const [status, outcome] = Array.isArray(reply) ? (reply as unknown[]) : [];
    switch (status) {
      case 'new':
        this.hold(owned, key, token, print);
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
    held.pending = this.keptForm(given, outcome);
    await this.record(key, held);
  }

  /** The JSON kept for `outcome`: itself, or the `outcome-not-kept` failure when it is over `maxOutcomeBytes`. */
  private keptForm(key: string, outcome: ReplayOutcome): string {
    const json = outcomeToJson(outcome);
    if (this.maxOutcomeBytes === Infinity || json.length <= this.maxOutcomeBytes / 3) return json;
    const bytes = Buffer.byteLength(json);
    if (bytes <= this.maxOutcomeBytes) return json;
    return outcomeToJson({
      ok: false,
      error: new StoredFailure(
        'OutcomeNotKeptError',
        'outcome-not-kept',
        `the first outcome of idempotency key ${JSON.stringify(key)} (${bytes} bytes) was larger than the replay store keeps (maxOutcomeBytes ${this.maxOutcomeBytes}); it is not kept, and the call is not run again`,
      ),
    });
  }

  /** Sends a held claim's pending outcome; forgets the claim once Redis took it. */
  private async record(key: string, held: HeldClaim): Promise<void> {
    await this.redis.generation.run(
      COMPLETE,
      [held.redisKey],
      [held.token, held.print, held.pending!, String(this.ttlMs)],
    );
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

  private hold(key: string, redisKey: string, token: string, print: string): void {
    const timer = setInterval(
      () => {
        const held = this.held.get(key);
        if (held === undefined) return;
        const sent =
          held.pending === undefined
            ? this.redis.generation.run(RENEW, [redisKey], [token, String(this.leaseMs), String(this.ttlMs)])
            : this.record(key, held);
        sent.catch(() => {
          // Redis is away: the next tick tries again; past the lease, the claim reads as lost.
        });
      },
      Math.max(10, Math.floor(this.leaseMs / 3)),
    );
    timer.unref();
    this.held.set(key, { token, redisKey, print, timer, pending: undefined });
  }
}

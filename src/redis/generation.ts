import { randomUUID } from 'node:crypto';
import { RedisBadReplyError } from './errors.js';
import { RedisScript, runScript, type ScriptSender } from './script.js';

/**
 * The Lua every guarded script starts with (see `guardedScript`): `KEYS[1]` is the generation
 * marker, `ARGV[1]` the generation this process knows. When they differ the script answers
 * `{'generation'}` and does nothing else. Otherwise it leaves two locals for the rest: `now`
 * (Redis's clock, in milliseconds) and `lostAt` (when Redis was last found to have lost its data,
 * 0 when never).
 */
const PRELUDE = `local gen = redis.call('HMGET', KEYS[1], 'id', 'lostAt')
if gen[1] ~= ARGV[1] then return {'generation'} end
local lostAt = tonumber(gen[2]) or 0
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
`;

/**
 * A script that runs only in the generation of Redis this process knows (see `RedisGeneration`).
 * `body` is Lua that follows `PRELUDE`: its own keys start at `KEYS[2]` and its own arguments at
 * `ARGV[2]`; it may read `now` and `lostAt`; it must answer a table whose first element is not
 * `'generation'`.
 */
export function guardedScript(name: string, body: string): RedisScript {
  return new RedisScript(name, `${PRELUDE}${body}`);
}

const NOW = `local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
`;

/** KEYS: marker. ARGV: a fresh id. Makes the marker when there is none; answers its id and lostAt. */
const START = new RedisScript(
  'generation start',
  `${NOW}if redis.call('EXISTS', KEYS[1]) == 0 then redis.call('HSET', KEYS[1], 'id', ARGV[1], 'since', now) end
return redis.call('HMGET', KEYS[1], 'id', 'lostAt')`,
);

/**
 * KEYS: marker. ARGV: the id this process knew (no longer the marker's), a fresh id. The data
 * of that generation is gone: records when, unless a process recorded that loss first (even one
 * accepted since: `previous` names it), and answers the marker's id, lostAt ('0' when accepted)
 * and whether the marker itself was gone.
 */
const RECORD_LOSS = new RedisScript(
  'generation loss',
  `${NOW}local cur = redis.call('HMGET', KEYS[1], 'id', 'lostAt', 'previous')
if not cur[1] then
  redis.call('HSET', KEYS[1], 'id', ARGV[2], 'since', now, 'lostAt', now, 'previous', ARGV[1])
  return {ARGV[2], tostring(now), 'gone'}
end
if not cur[2] and cur[3] ~= ARGV[1] then
  redis.call('HSET', KEYS[1], 'lostAt', now, 'previous', ARGV[1])
  cur[2] = tostring(now)
end
return {cur[1], cur[2] or '0', 'replaced'}`,
);

/** KEYS: marker. Ends the loss window (see `RedisGeneration.acceptLoss`); answers 1 when there was one. */
const ACCEPT_LOSS = new RedisScript('generation accept loss', `return redis.call('HDEL', KEYS[1], 'lostAt')`);

/** What `RedisGeneration` tells its `onLoss` listener. */
export interface RedisLoss {
  /** The generation this process knew, whose data is gone. */
  readonly previous: string;
  /** The generation Redis is in now. */
  readonly current: string;
  /** When the loss was recorded, in milliseconds since the epoch by Redis's clock. */
  readonly lostAt: number;
}

/**
 * Detects a Redis that lost its data since this process last saw it. Redis holds one marker
 * (`<keyPrefix>generation`, a hash: a random `id`, `since`, and `lostAt` once a loss was
 * found); this process learns its `id` on first use and every guarded script (see
 * `guardedScript`) checks, inside Redis and atomically with its own work, that the marker still
 * has that id. A Redis that restarted without persistence, was flushed, or failed over to a
 * replica without the data has no marker (or another one): the script answers `generation`, and
 * this records the loss in the marker (`lostAt`, by Redis's clock; the first process to notice
 * records it, the others adopt it), logs it once, and runs the script again in the new
 * generation. The stores read `lostAt` inside their scripts and treat state that could have been
 * written before it as unknown, never as absent (the replay store answers `LostOutcomeError` for
 * a key it does not find; the claim store grants nothing until every holder from before has
 * found out).
 *
 * What it cannot see: a loss while no process was connected (every process restarted with
 * Redis), and a Redis restored from an older snapshot (the marker survives in it). The
 * persistence check at connect (`RedisDurability`) is the guard against those.
 */
export class RedisGeneration {
  /** The marker's key: `<keyPrefix>generation`. */
  readonly key: string;
  private known: string | undefined;
  private starting: Promise<string> | undefined;
  private readonly listeners = new Set<(loss: RedisLoss) => void>();

  constructor(
    private readonly sender: ScriptSender,
    keyPrefix: string,
    private readonly log: (message: string) => void,
    private readonly where: string,
  ) {
    this.key = `${keyPrefix}generation`;
  }

  /** The generation this process knows, or `undefined` before its first guarded script. */
  get id(): string | undefined {
    return this.known;
  }

  /** Calls `listener` each time this process finds that Redis lost its data. Returns a function that removes it. */
  onLoss(listener: (loss: RedisLoss) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /**
   * Runs a guarded script (`guardedScript`) with its own `keys` and `args` in the generation this
   * process knows (learning it first when it has none). When Redis lost its data meanwhile,
   * records the loss (see the class comment) and runs the script once more in the new
   * generation. Resolves the script's reply; rejects as the connection does (Redis away:
   * `RedisUnavailableError`), or with `RedisBadReplyError` when the generation changed again
   * under the second run.
   */
  async run(script: RedisScript, keys: readonly string[], args: readonly string[]): Promise<unknown> {
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const id = this.known ?? (await this.start());
      const reply = await runScript(this.sender, script, [this.key, ...keys], [id, ...args]);
      if (!(Array.isArray(reply) && reply[0] === 'generation')) return reply;
      await this.recordLoss(id);
    }
    throw new RedisBadReplyError(
      `Redis at ${this.where}: the generation marker ${this.key} changed twice during one ${script.name} script`,
    );
  }

  /**
   * Ends the loss window: from now on state a store does not find reads as absent again (new),
   * in every process. Call it, once, from any process, when you know which calls from before the
   * loss ran (or that none did). Resolves true when there was a window to end.
   */
  async acceptLoss(): Promise<boolean> {
    return Number(await runScript(this.sender, ACCEPT_LOSS, [this.key], [])) === 1;
  }

  /** Learns the marker's id, making the marker when Redis has none (once; a failure is tried again next time). */
  private start(): Promise<string> {
    this.starting ??= (async () => {
      try {
        const reply = await runScript(this.sender, START, [this.key], [randomUUID()]);
        const [id] = Array.isArray(reply) ? (reply as unknown[]) : [];
        if (typeof id !== 'string')
          throw new RedisBadReplyError(`Redis at ${this.where} answered ${JSON.stringify(reply)} for ${this.key}`);
        this.known = id;
        return id;
      } finally {
        this.starting = undefined;
      }
    })();
    return this.starting;
  }

  /** Records that the data of generation `previous` is gone and adopts the marker's generation. */
  private async recordLoss(previous: string): Promise<void> {
    const reply = await runScript(this.sender, RECORD_LOSS, [this.key], [previous, randomUUID()]);
    const [current, lostAt] = Array.isArray(reply) ? (reply as unknown[]) : [];
    if (typeof current !== 'string' || typeof lostAt !== 'string')
      throw new RedisBadReplyError(`Redis at ${this.where} answered ${JSON.stringify(reply)} for ${this.key}`);
    if (this.known !== previous) return; // another call of this process recorded it already
    this.known = current;
    const loss: RedisLoss = { previous, current, lostAt: Number(lostAt) };
    if (loss.lostAt === 0) return; // the loss was recorded and accepted (`acceptLoss`) already
    this.log(
      `Redis at ${this.where} lost its data since this process last saw it (generation ${previous} is gone, now ${current}, loss recorded at ${new Date(loss.lostAt).toISOString()}): idempotency keys and claims from before are treated as unknown, never as absent (see docs/cluster.md, "Redis")`,
    );
    for (const listener of this.listeners) {
      try {
        listener(loss);
      } catch {
        // A listener's failure never changes what the stores do.
      }
    }
  }
}

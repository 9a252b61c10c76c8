import { randomUUID } from 'node:crypto';
import { kindOf } from '../util/describe.js';
import { isPositiveInteger, MAX_TIMEOUT_MS } from '../util/limits.js';
import { raceTimeout } from '../util/timeout.js';
import { checkOptionsObject, invalidOption, optionKeys } from '../util/options.js';
import { TurnLostError, type HeldTurn, type SchedulingStore, type TurnRequest } from '../runtime/index.js';
import type { RedisConnection } from './connection.js';
import { RedisBadReplyError } from './errors.js';
import { guardedScript } from './generation.js';

/** Options of `RedisSchedulingStore`. Every member is optional. */
export interface RedisSchedulingStoreOptions {
  /**
   * Keeps this store's scopes apart from other deployments' in the same Redis and key prefix
   * (default `default`).
   */
  readonly namespace?: string;
  /**
   * How long a turn (waiting or running) holds without news from its process, in milliseconds
   * (default 10 s, from 300). The process renews it every third of that while the call waits or
   * runs; a process that died (or cannot reach Redis) loses it when the lease ends, and the calls
   * behind it go on.
   */
  readonly leaseMs?: number;
  /**
   * How often a waiting call asks Redis whether its turn came, in milliseconds (default 100, from
   * 10 to a third of `leaseMs`). A turn given back in this process wakes its waiters at once.
   */
  readonly pollMs?: number;
}

const OPTION_KEYS = optionKeys<RedisSchedulingStoreOptions>()('namespace', 'leaseMs', 'pollMs');

/** The default lease of a turn: 10 s, renewed every 3.3 s while its call waits or runs. */
export const DEFAULT_TURN_LEASE_MS = 10_000;
/** How often a waiting call asks Redis by default: every 100 ms. */
export const DEFAULT_TURN_POLL_MS = 100;

/*
 * Per scope (KEYS[2..4], one hash tag per scope): a sorted set of ticket ids by arrival (INCR of
 * the scope's seq), a hash id -> JSON ticket {x: 1 exclusive / 0, k: kind, r: resource, l:
 * label, s: 'w' waiting / 'r' running, e: lease end (Redis's clock), f: fencing token}, and the
 * seq. KEYS[5] is the namespace's fencing counter (never expires: tokens only grow). The scope's
 * keys expire twice the lease after their last use. `pump` grants exactly what the in-process
 * `Scheduler` would, in arrival order.
 */
const COMMON = `local q, t = KEYS[2], KEYS[3]
local function quoted(s) return '"' .. (string.gsub((string.gsub(s, '\\\\', '\\\\\\\\')), '"', '\\\\"')) .. '"' end
local function load()
  local ids = redis.call('ZRANGE', q, 0, -1)
  local list = {}
  if #ids == 0 then return list end
  local raw = redis.call('HMGET', t, unpack(ids))
  for i, id in ipairs(ids) do
    if raw[i] then
      local ticket = cjson.decode(raw[i])
      ticket.id = id
      table.insert(list, ticket)
    else
      redis.call('ZREM', q, id)
    end
  end
  return list
end
local function prune(list)
  local kept = {}
  for _, ticket in ipairs(list) do
    if ticket.e < now then
      redis.call('ZREM', q, ticket.id)
      redis.call('HDEL', t, ticket.id)
    else
      table.insert(kept, ticket)
    end
  end
  return kept
end
local function save(ticket)
  local id = ticket.id
  ticket.id = nil
  redis.call('HSET', t, id, cjson.encode(ticket))
  ticket.id = id
end
local function touch(lease)
  for i = 2, 4 do redis.call('PEXPIRE', KEYS[i], 2 * lease) end
end
local function pump(list, max, lease)
  local granted = {}
  if lostAt > 0 and now < lostAt + lease then return granted end
  local running, exclusive, held = 0, false, {}
  for _, w in ipairs(list) do
    if w.s == 'r' then
      running = running + 1
      if w.x == 1 then exclusive = true end
      if w.r ~= '' then held[w.r] = true end
    end
  end
  if exclusive then return granted end
  local queued = {}
  for _, w in ipairs(list) do
    if w.s == 'w' then
      local ready = w.r == '' or (not held[w.r] and not queued[w.r])
      if w.r ~= '' then queued[w.r] = true end
      if ready then
        if w.x == 1 and running > 0 then return granted end
        if w.x ~= 1 and running >= max then return granted end
        w.s = 'r'
        w.f = redis.call('INCR', KEYS[5])
        w.e = now + lease
        save(w)
        table.insert(granted, w.id)
        if w.x == 1 then return granted end
        running = running + 1
        if w.r ~= '' then held[w.r] = true end
      end
    end
  end
  return granted
end
local function reasonOf(list, at, lease, max)
  if lostAt > 0 and now < lostAt + lease then
    return 'waits until the calls that held turns before Redis lost its data have stopped'
  end
  local me = list[at]
  local running, before, exclusive = 0, {}, nil
  for i, w in ipairs(list) do
    if w.s == 'r' then
      running = running + 1
      if w.x == 1 then exclusive = w end
    elseif i < at then
      table.insert(before, w)
    end
  end
  if me.x == 1 then
    local count = running + #before
    local why = me.k == 'sequential' and 'a sequential tool runs alone' or 'a barrier runs alone'
    return 'waits for ' .. count .. ' earlier ' .. (count == 1 and 'call' or 'calls') .. ' to finish (' .. why .. ')'
  end
  if not exclusive then
    for _, w in ipairs(before) do
      if w.x == 1 then exclusive = w break end
    end
  end
  if exclusive then
    return 'waits for ' .. (exclusive.k == 'sequential' and 'the sequential tool' or 'the barrier') .. ' ' .. quoted(exclusive.l) .. ' to finish'
  end
  if me.r ~= '' then
    local ahead = nil
    for _, w in ipairs(before) do
      if w.r == me.r then ahead = w end
    end
    if ahead then return 'waits for resource ' .. quoted(me.r) .. ', behind ' .. quoted(ahead.l) end
    for _, w in ipairs(list) do
      if w.s == 'r' and w.r == me.r then return 'waits for resource ' .. quoted(me.r) .. ', held by ' .. quoted(w.l) end
    end
  end
  if max == 1 then return 'waits for a free slot (at most 1 call runs at once)' end
  return 'waits for a free slot (at most ' .. max .. ' calls run at once)'
end
local function statusOf(list, id, lease, max)
  for i, w in ipairs(list) do
    if w.id == id then
      if w.s == 'r' then return {'running', tostring(w.f)} end
      return {'waiting', reasonOf(list, i, lease, max)}
    end
  end
  return {'gone'}
end
`;

/**
 * Queues a ticket and answers its status: `{'running', fence}`, `{'waiting', reason}`. KEYS:
 * marker, q, t, seq, fence. ARGV: generation, id, exclusive (1/0), kind, resource, label,
 * leaseMs, maxConcurrent.
 */
const ENTER = guardedScript(
  'turn enter',
  `${COMMON}local lease, max = tonumber(ARGV[7]), tonumber(ARGV[8])
local list = prune(load())
local seq = redis.call('INCR', KEYS[4])
local me = {x = tonumber(ARGV[3]), k = ARGV[4], r = ARGV[5], l = ARGV[6], s = 'w', e = now + lease, id = ARGV[2]}
redis.call('ZADD', q, seq, ARGV[2])
save(me)
table.insert(list, me)
pump(list, max, lease)
touch(lease)
return statusOf(list, ARGV[2], lease, max)`,
);

/**
 * Renews a ticket's lease and answers its status (`{'gone'}` once it lapsed or was never there).
 * KEYS: as ENTER. ARGV: generation, id, leaseMs, maxConcurrent.
 */
const POLL = guardedScript(
  'turn poll',
  `${COMMON}local lease, max = tonumber(ARGV[3]), tonumber(ARGV[4])
local list = prune(load())
for _, w in ipairs(list) do
  if w.id == ARGV[2] then
    w.e = now + lease
    save(w)
  end
end
pump(list, max, lease)
if #list > 0 then touch(lease) end
return statusOf(list, ARGV[2], lease, max)`,
);

/**
 * Removes a ticket (a finished call, or a withdrawn one) and grants the turns that frees; answers
 * `{'released', granted ids...}`. KEYS: as ENTER. ARGV: generation, id, leaseMs, maxConcurrent.
 */
const RELEASE = guardedScript(
  'turn release',
  `${COMMON}local lease, max = tonumber(ARGV[3]), tonumber(ARGV[4])
redis.call('ZREM', q, ARGV[2])
redis.call('HDEL', t, ARGV[2])
local list = prune(load())
local granted = pump(list, max, lease)
if #list > 0 then touch(lease) end
local out = {'released'}
for _, id in ipairs(granted) do table.insert(out, id) end
return out`,
);

/** True once `signal` aborted (a function, so a check after an await is not narrowed away). */
function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

/** A status a script answered for one ticket. */
type Status =
  | { readonly state: 'running'; readonly fence: number }
  | { readonly state: 'waiting'; readonly reason: string }
  | { readonly state: 'gone' };

function statusOf(reply: unknown, scope: string): Status {
  const [state, detail] = Array.isArray(reply) ? (reply as unknown[]) : [];
  if (state === 'running' && typeof detail === 'string' && /^\d+$/.test(detail))
    return { state, fence: Number(detail) };
  if (state === 'waiting' && typeof detail === 'string') return { state, reason: detail };
  if (state === 'gone') return { state };
  throw new RedisBadReplyError(`scheduling scope ${JSON.stringify(scope)}: Redis answered ${JSON.stringify(reply)}`);
}

function checkOptions(options: RedisSchedulingStoreOptions): Required<RedisSchedulingStoreOptions> {
  checkOptionsObject('RedisSchedulingStore', options, OPTION_KEYS);
  const namespace = options.namespace ?? 'default';
  if (typeof namespace !== 'string' || namespace === '' || /[{}]/.test(namespace))
    throw invalidOption(
      'RedisSchedulingStore',
      'namespace',
      'a non-empty string without { or }',
      namespace,
      typeof namespace === 'string' ? JSON.stringify(namespace) : kindOf(namespace),
    );
  const leaseMs = options.leaseMs ?? DEFAULT_TURN_LEASE_MS;
  if (!isPositiveInteger(leaseMs) || leaseMs < 300 || leaseMs > MAX_TIMEOUT_MS)
    throw invalidOption('RedisSchedulingStore', 'leaseMs', 'a whole number of milliseconds from 300', leaseMs);
  const pollMs = options.pollMs ?? Math.min(DEFAULT_TURN_POLL_MS, Math.floor(leaseMs / 3));
  if (!isPositiveInteger(pollMs) || pollMs < 10 || pollMs > Math.floor(leaseMs / 3))
    throw invalidOption(
      'RedisSchedulingStore',
      'pollMs',
      `a whole number of milliseconds from 10 to a third of leaseMs (${Math.floor(leaseMs / 3)})`,
      pollMs,
    );
  return { namespace, leaseMs, pollMs };
}

/** The keys of one scope's scripts (after the generation marker). */
type ScopeKeys = readonly [string, string, string, string];

/** A call of this process waiting for its turn: how to ask again at once. */
interface Waiting {
  readonly scope: string;
  askNow(): void;
}

/**
 * A `SchedulingStore` in Redis, shared by every process connected to it (give it to a server as
 * `scheduling: { store }`): the claims `@Resource`, `@Sequential` and `@Barrier` then hold per
 * principal or server scope across the processes, by the same rules as in one process (calls of
 * one resource never overlap and start in arrival order, an exclusive call runs alone, at most
 * `maxConcurrent` calls of a scope run at once). Arrival order is the order in which Redis
 * received the calls (one atomic script per call, so as far as one Redis can order them).
 *
 * Every turn, waiting or running, has a lease (`leaseMs`) its process renews; a process that
 * dies, pauses or loses Redis for longer loses its turns, and the calls behind them go on. A
 * process that lost a running turn finds out when its renewal is answered, or at once from its
 * own clock once the lease would have ended without one: the turn's `lost` signal (and so the
 * call's `ctx.signal`) aborts with `TurnLostError`, and `heldTurnOf(ctx).check()` asks Redis
 * before the tool acts. Every grant gets a fencing token (`heldTurnOf(ctx).fencingToken`) that
 * grows across the namespace, for the systems the tool writes to.
 *
 * A call waits as long as its time limit and its signal let it (a waiting call asks Redis every
 * `pollMs`, and is woken at once by a turn given back in this process); a withdrawn call leaves
 * the queue at once. When Redis cannot be reached, taking a turn fails with
 * `RedisUnavailableError` (the call is answered with it) and a waiting call fails with it too. A
 * Redis that lost its data (see `RedisGeneration`) grants nothing for one lease, until every
 * holder from before has found out. Scripts are guarded by the generation marker and declare
 * every key, with one hash tag per scope.
 */
export class RedisSchedulingStore implements SchedulingStore {
  readonly shared = true;
  private readonly namespace: string;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly waiting = new Set<Waiting>();
  private readonly running = new Set<RedisTurn>();
  private closed = false;

  /** Throws a `TypeError` naming a bad option. */
  constructor(
    private readonly redis: RedisConnection,
    options: RedisSchedulingStoreOptions = {},
  ) {
    if (typeof (redis as { command?: unknown } | null)?.command !== 'function')
      throw new TypeError('RedisSchedulingStore: the first argument must be a RedisConnection (see connectRedis)');
    ({ namespace: this.namespace, leaseMs: this.leaseMs, pollMs: this.pollMs } = checkOptions(options));
  }

  /** How many turns this process holds now (calls running with a turn from this store). */
  get holding(): number {
    return this.running.size;
  }

  /** See `SchedulingStore.enter`. */
  async enter(request: TurnRequest): Promise<HeldTurn> {
    const { signal } = request;
    signal?.throwIfAborted();
    const keys = this.keysOf(request.scope);
    const id = randomUUID();
    const sentAt = Date.now();
    const status = statusOf(await this.sendEnter(keys, id, request), request.scope);
    if (isAborted(signal)) {
      // Withdrawn while Redis was queueing it.
      void this.give(keys, id, request);
      signal!.throwIfAborted();
    }
    if (status.state === 'running') return this.hold(keys, id, request, status.fence, sentAt);
    if (status.state === 'gone')
      throw new RedisBadReplyError(`scheduling scope ${JSON.stringify(request.scope)}: a new turn was gone at once`);
    try {
      request.onWait?.(status.reason);
    } catch {
      // A reporter's failure never changes the call's place.
    }
    return this.waitFor(keys, id, request);
  }

  /**
   * Stops renewing and gives back (best effort, within the connection's command bound) every turn
   * this process holds or waits for; their calls are not stopped. For shutdown. Idempotent.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const turns = [...this.running];
    for (const turn of turns) turn.stop();
    await raceTimeout(Promise.allSettled(turns.map((turn) => turn.giveBack())), this.redis.commandTimeoutMs, () => []);
  }

  /** Queues ticket `id` for `request` in its scope (one atomic script); resolves Redis's reply. */
  private sendEnter(keys: ScopeKeys, id: string, request: TurnRequest): Promise<unknown> {
    return this.redis.generation.run(ENTER, keys, [
      id,
      request.claims.exclusive ? '1' : '0',
      request.claims.kind,
      request.claims.resource,
      request.label,
      String(this.leaseMs),
      String(request.maxConcurrent),
    ]);
  }

  private keysOf(scope: string): ScopeKeys {
    const base = `${this.redis.keyPrefix}sched:${this.namespace}:{${scope}}:`;
    return [`${base}q`, `${base}t`, `${base}seq`, `${this.redis.keyPrefix}sched:${this.namespace}:fence`];
  }

  /** Sends a ticket's removal, then wakes this process's waiters of the scope. Never rejects. */
  private async give(keys: ScopeKeys, id: string, request: TurnRequest): Promise<void> {
    try {
      await this.redis.generation.run(RELEASE, keys, [id, String(this.leaseMs), String(request.maxConcurrent)]);
    } catch {
      // Redis away: the ticket's lease lapses on its own.
    }
    for (const waiter of this.waiting) if (waiter.scope === request.scope) waiter.askNow();
  }

  private hold(keys: ScopeKeys, id: string, request: TurnRequest, fence: number, sentAt: number): RedisTurn {
    const turn = new RedisTurn({
      label: request.label,
      fence,
      validUntil: sentAt + this.leaseMs,
      leaseMs: this.leaseMs,
      poll: async () => {
        const sent = Date.now();
        const status = statusOf(
          await this.redis.generation.run(POLL, keys, [id, String(this.leaseMs), String(request.maxConcurrent)]),
          request.scope,
        );
        return status.state === 'running' && status.fence === fence ? sent + this.leaseMs : undefined;
      },
      giveBack: () => {
        this.running.delete(turn);
        return this.give(keys, id, request);
      },
    });
    this.running.add(turn);
    return turn;
  }

  /** Waits for a queued ticket's turn (see the class comment). */
  private waitFor(keys: ScopeKeys, first: string, request: TurnRequest): Promise<HeldTurn> {
    const { signal } = request;
    return new Promise<HeldTurn>((resolve, reject) => {
      let id = first;
      let timer: NodeJS.Timeout | undefined;
      let asking = false;
      let again = false;
      let done = false;
      const finish = (): void => {
        done = true;
        clearTimeout(timer);
        this.waiting.delete(waiter);
        signal?.removeEventListener('abort', onAbort);
      };
      const onAbort = (): void => {
        if (done) return;
        finish();
        void this.give(keys, id, request);
        reject(signal!.reason);
      };
      const ask = async (): Promise<void> => {
        if (done) return;
        if (asking) {
          again = true;
          return;
        }
        asking = true;
        clearTimeout(timer);
        try {
          const sentAt = Date.now();
          let status = statusOf(
            await this.redis.generation.run(POLL, keys, [id, String(this.leaseMs), String(request.maxConcurrent)]),
            request.scope,
          );
          if (done) {
            // Withdrawn meanwhile: the abort gave the ticket back already.
            return;
          }
          if (status.state === 'gone') {
            // Its lease lapsed (this process paused), or Redis lost its data: queue again, at the back.
            id = randomUUID();
            status = statusOf(await this.sendEnter(keys, id, request), request.scope);
          }
          if (status.state === 'running') {
            finish();
            resolve(this.hold(keys, id, request, status.fence, sentAt));
            return;
          }
        } catch (error) {
          finish();
          void this.give(keys, id, request);
          reject(error);
          return;
        } finally {
          asking = false;
        }
        if (again) {
          again = false;
          void ask();
        } else {
          timer = setTimeout(() => void ask(), this.pollMs);
        }
      };
      const waiter: Waiting = { scope: request.scope, askNow: () => void ask() };
      this.waiting.add(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
      timer = setTimeout(() => void ask(), this.pollMs);
    });
  }
}

/** What a `RedisTurn` needs from its store. */
interface TurnLink {
  readonly label: string;
  readonly fence: number;
  /** Until when the lease holds by this process's clock (the send time of the last renewal, plus the lease). */
  readonly validUntil: number;
  readonly leaseMs: number;
  /** Renews the lease: resolves the new `validUntil`, or `undefined` when the turn is no longer this one. */
  poll(): Promise<number | undefined>;
  /** Removes the ticket and wakes the scope's waiters. */
  giveBack(): Promise<void>;
}

/** A running turn of this process in Redis: renewed every third of its lease until released or lost. */
class RedisTurn implements HeldTurn {
  readonly fencingToken: number;
  private readonly controller = new AbortController();
  private validUntil: number;
  private readonly timer: NodeJS.Timeout;
  private released = false;

  constructor(private readonly link: TurnLink) {
    this.fencingToken = link.fence;
    this.validUntil = link.validUntil;
    this.timer = setInterval(() => void this.renew(), Math.max(10, Math.floor(link.leaseMs / 3)));
    this.timer.unref();
  }

  get lost(): AbortSignal {
    return this.controller.signal;
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.stop();
    void this.link.giveBack();
  }

  async check(): Promise<void> {
    this.throwIfLost();
    const until = await this.link.poll().catch(() => undefined);
    if (until !== undefined) this.validUntil = until;
    else if (Date.now() > this.validUntil) this.lose('its lease lapsed and Redis did not confirm it');
    else this.lose('Redis says another call holds it now');
    this.throwIfLost();
  }

  /** Stops renewing (the turn is released or lost, or the store is closing). */
  stop(): void {
    clearInterval(this.timer);
  }

  /** Gives the ticket back in Redis (for the store's close). */
  giveBack(): Promise<void> {
    this.released = true;
    return this.link.giveBack();
  }

  private throwIfLost(): void {
    if (Date.now() > this.validUntil && !this.controller.signal.aborted)
      this.lose(`its lease of ${this.link.leaseMs} ms lapsed before it was renewed`);
    this.controller.signal.throwIfAborted();
  }

  private async renew(): Promise<void> {
    if (this.released || this.controller.signal.aborted) return;
    if (Date.now() > this.validUntil) {
      this.lose(`its lease of ${this.link.leaseMs} ms lapsed before it was renewed`);
      return;
    }
    let until: number | undefined;
    try {
      until = await this.link.poll();
    } catch {
      // Redis away: the next tick tries again; past the lease, the turn is lost.
      return;
    }
    if (this.released) return;
    if (until === undefined) this.lose('Redis says another call holds it now: its lease lapsed');
    else this.validUntil = until;
  }

  private lose(why: string): void {
    if (this.controller.signal.aborted) return;
    this.stop();
    this.controller.abort(new TurnLostError(this.link.label, why));
  }
}

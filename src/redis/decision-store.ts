import { kindOf } from '../util/describe.js';
import { isPositiveInteger } from '../util/limits.js';
import {
  MemoryDecisionStore,
  type DecisionOwner,
  type DecisionSelector,
  type PermissionEffect,
  type RememberedDecisionStore,
  type StoredDecision,
} from '../runtime/index.js';
import type { RedisConnection } from './connection.js';
import { RedisBadReplyError } from './errors.js';
import { checkOptionsObject, invalidOption, optionKeys } from '../util/options.js';

/** Options of `RedisDecisionStore`. Every member is optional. */
export interface RedisDecisionStoreOptions {
  /**
   * Keeps this store's decisions apart from other policies' in the same Redis and key prefix
   * (default `default`): give each policy of a deployment its own name.
   */
  readonly namespace?: string;
  /**
   * How long a session's decisions are kept after the last one was remembered, in milliseconds
   * (default 24 hours): a session's decisions have no use after it ended, and Redis never learns
   * that it did. Principal and server decisions are kept until revoked.
   */
  readonly sessionTtlMs?: number;
}

const OPTION_KEYS = optionKeys<RedisDecisionStoreOptions>()('namespace', 'sessionTtlMs');

/** The default time a session's remembered decisions are kept: 24 hours. */
export const DEFAULT_SESSION_DECISIONS_TTL_MS = 24 * 60 * 60 * 1000;

/*
 * Per owner, one hash per (tool, subject): field = capability, value = JSON {seq, effect, reason?}
 * (seq orders `list` as remembered); and one set, the owner's index of its hashes (members are
 * JSON [tool, subject]). ARGV[1] of the list and revoke scripts is the hash key without its member.
 */

/** KEYS: hash, index, seq. ARGV: member, ttlMs (0: none), effect, hasReason (1/0), reason, capabilities... */
const REMEMBER = `
local seq = redis.call('INCR', KEYS[3])
local value = {seq = seq, effect = ARGV[3]}
if ARGV[4] == '1' then value.reason = ARGV[5] end
local encoded = cjson.encode(value)
for i = 6, #ARGV do redis.call('HSET', KEYS[1], ARGV[i], encoded) end
redis.call('SADD', KEYS[2], ARGV[1])
local ttl = tonumber(ARGV[2])
if ttl > 0 then
  redis.call('PEXPIRE', KEYS[1], ttl)
  redis.call('PEXPIRE', KEYS[2], ttl)
end
return seq`;

/** KEYS: hash. Answers its fields and values, flat. */
const LOAD = `return redis.call('HGETALL', KEYS[1])`;

/**
 * KEYS: index. ARGV: hash key base. Answers [member, fields, member, fields, ...]; drops index
 * members whose hash is gone.
 */
const LIST = `
local out = {}
for _, member in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local fields = redis.call('HGETALL', ARGV[1] .. member)
  if #fields == 0 then redis.call('SREM', KEYS[1], member) else
    table.insert(out, member)
    table.insert(out, fields)
  end
end
return out`;

/** KEYS: index. ARGV: hash key base, tool, subject, capability ('' for any). Answers how many decisions it forgot. */
const REVOKE = `
local forgotten = 0
for _, member in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local ts = cjson.decode(member)
  if (ARGV[2] == '' or ts[1] == ARGV[2]) and (ARGV[3] == '' or ts[2] == ARGV[3]) then
    local hash = ARGV[1] .. member
    if ARGV[4] == '' then
      forgotten = forgotten + redis.call('HLEN', hash)
      redis.call('DEL', hash)
    else
      forgotten = forgotten + redis.call('HDEL', hash, ARGV[4])
    end
    if redis.call('EXISTS', hash) == 0 then redis.call('SREM', KEYS[1], member) end
  end
end
return forgotten`;

/** How many keys one SCAN step of `clear` asks for, and the bound on its steps. */
const SCAN_COUNT = '500';
const MAX_SCAN_STEPS = 100_000;

function checkOptions(options: RedisDecisionStoreOptions): { namespace: string; sessionTtlMs: number } {
  checkOptionsObject('RedisDecisionStore', options, OPTION_KEYS);
  const namespace = options.namespace ?? 'default';
  if (typeof namespace !== 'string' || namespace === '' || /[*?[\]\\]/.test(namespace))
    throw invalidOption(
      'RedisDecisionStore',
      'namespace',
      'a non-empty string without *, ?, [, ] or \\',
      namespace,
      typeof namespace === 'string' ? JSON.stringify(namespace) : kindOf(namespace),
    );
  const sessionTtlMs = options.sessionTtlMs ?? DEFAULT_SESSION_DECISIONS_TTL_MS;
  if (!isPositiveInteger(sessionTtlMs))
    throw invalidOption('RedisDecisionStore', 'sessionTtlMs', 'a positive whole number of milliseconds', sessionTtlMs);
  return { namespace, sessionTtlMs };
}

/** `text` with the glob characters of SCAN MATCH escaped. */
function globEscaped(text: string): string {
  return text.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}

/** Pairs of a flat [field, value, ...] reply. */
function pairsOf(reply: unknown, where: string): [string, string][] {
  if (!Array.isArray(reply) || reply.length % 2 !== 0 || !reply.every((x) => typeof x === 'string'))
    throw new RedisBadReplyError(`${where}: Redis answered ${JSON.stringify(reply)} for a decision hash`);
  const pairs: [string, string][] = [];
  for (let i = 0; i < reply.length; i += 2) pairs.push([reply[i] as string, reply[i + 1] as string]);
  return pairs;
}

/** A decision as stored, with its order. */
interface Ordered {
  readonly seq: number;
  readonly decision: StoredDecision;
}

function decisionOf(tool: string, subject: string, capability: string, value: string, where: string): Ordered {
  let parsed: { seq?: unknown; effect?: unknown; reason?: unknown };
  try {
    parsed = JSON.parse(value) as typeof parsed;
  } catch {
    throw new RedisBadReplyError(`${where}: the stored decision for ${JSON.stringify(capability)} is not JSON`);
  }
  const { seq, effect, reason } = parsed ?? {};
  if (
    typeof seq !== 'number' ||
    (effect !== 'allow' && effect !== 'deny') ||
    (reason !== undefined && typeof reason !== 'string')
  ) {
    throw new RedisBadReplyError(
      `${where}: the stored decision for ${JSON.stringify(capability)} is not one toolwright wrote`,
    );
  }
  const decision = Object.freeze(
    reason === undefined ? { tool, subject, capability, effect } : { tool, subject, capability, effect, reason },
  );
  return { seq, decision };
}

/**
 * A `RememberedDecisionStore` in Redis (give it to a policy as `decisionStore`): the "always"
 * answers of every process sharing one Redis, kept apart per owner exactly as in memory (the
 * server; one principal, by its id; one session, by its session id), so an answer given through
 * one process is honoured by every process for the same owner, and never for another. Each
 * check reads Redis afresh (one round trip per subject, none when the rules decide), so a
 * revocation (`policy.revoke`, `revoke`) holds for every process from its next check.
 *
 * A session without an id (stdio, in memory: one process by nature) keeps its decisions in this
 * process's memory, as the default store does. A session's decisions in Redis expire
 * `sessionTtlMs` after the last one was remembered; principal and server decisions are kept
 * until revoked. When Redis is down or slow, every method rejects with `RedisUnavailableError`,
 * and a call whose check needs the store fails with it (a rule that decides needs no store).
 */
export class RedisDecisionStore implements RememberedDecisionStore {
  private readonly base: string;
  private readonly sessionTtlMs: number;
  /** The decisions of sessions without an id, which no other process could reach. */
  private readonly local = new MemoryDecisionStore();

  /** Throws a `TypeError` naming a bad option. */
  constructor(
    private readonly redis: RedisConnection,
    options: RedisDecisionStoreOptions = {},
  ) {
    if (typeof (redis as { command?: unknown } | null)?.command !== 'function')
      throw new TypeError('RedisDecisionStore: the first argument must be a RedisConnection (see connectRedis)');
    const checked = checkOptions(options);
    this.base = `${redis.keyPrefix}decisions:${checked.namespace}:`;
    this.sessionTtlMs = checked.sessionTtlMs;
  }

  async decisionsOn(owner: DecisionOwner, tool: string, subject: string): Promise<readonly StoredDecision[]> {
    const key = this.ownerKey(owner);
    if (key === undefined) return this.local.decisionsOn(owner, tool, subject);
    const where = `remembered decisions of ${key}`;
    const reply = await this.redis.command(['EVAL', LOAD, '1', this.hashKey(key, memberOf(tool, subject))]);
    return pairsOf(reply, where)
      .map(([capability, value]) => decisionOf(tool, subject, capability, value, where))
      .sort((a, b) => a.seq - b.seq)
      .map((o) => o.decision);
  }

  async remember(
    owner: DecisionOwner,
    tool: string,
    subject: string,
    capabilities: readonly string[],
    effect: PermissionEffect,
    reason?: string,
  ): Promise<void> {
    const key = this.ownerKey(owner);
    if (key === undefined) return this.local.remember(owner, tool, subject, capabilities, effect, reason);
    if (capabilities.length === 0) return;
    const member = memberOf(tool, subject);
    const ttl = owner.kind === 'session' ? String(this.sessionTtlMs) : '0';
    await this.redis.command([
      'EVAL',
      REMEMBER,
      '3',
      this.hashKey(key, member),
      this.indexKey(key),
      `${this.base}seq`,
      member,
      ttl,
      effect,
      reason === undefined ? '0' : '1',
      reason ?? '',
      ...capabilities,
    ]);
  }

  async list(owner: DecisionOwner): Promise<readonly StoredDecision[]> {
    const key = this.ownerKey(owner);
    if (key === undefined) return this.local.list(owner);
    const where = `remembered decisions of ${key}`;
    const reply = await this.redis.command(['EVAL', LIST, '1', this.indexKey(key), this.hashKey(key, '')]);
    if (!Array.isArray(reply) || reply.length % 2 !== 0)
      throw new RedisBadReplyError(`${where}: Redis answered ${JSON.stringify(reply)} for a list of decisions`);
    const all: Ordered[] = [];
    for (let i = 0; i < reply.length; i += 2) {
      const [tool, subject] = toolAndSubjectOf(reply[i], where);
      for (const [capability, value] of pairsOf(reply[i + 1], where))
        all.push(decisionOf(tool, subject, capability, value, where));
    }
    return all.sort((a, b) => a.seq - b.seq).map((o) => o.decision);
  }

  async revoke(owner: DecisionOwner, selector: DecisionSelector = {}): Promise<number> {
    const key = this.ownerKey(owner);
    if (key === undefined) return this.local.revoke(owner, selector);
    const reply = await this.redis.command([
      'EVAL',
      REVOKE,
      '1',
      this.indexKey(key),
      this.hashKey(key, ''),
      selector.tool ?? '',
      selector.subject ?? '',
      selector.capability ?? '',
    ]);
    return Number(reply);
  }

  /** Forgets every owner's decisions in this store's namespace, for every process (a SCAN over its keys, then DEL). */
  async clear(): Promise<void> {
    this.local.clear();
    let cursor = '0';
    for (let step = 0; step < MAX_SCAN_STEPS; step += 1) {
      const reply = await this.redis.command([
        'SCAN',
        cursor,
        'MATCH',
        `${globEscaped(this.base)}*`,
        'COUNT',
        SCAN_COUNT,
      ]);
      const [next, keys] = Array.isArray(reply) ? (reply as [unknown, unknown]) : [undefined, undefined];
      if (typeof next !== 'string' || !Array.isArray(keys))
        throw new RedisBadReplyError(`remembered decisions: Redis answered ${JSON.stringify(reply)} to SCAN`);
      if (keys.length > 0) await this.redis.command(['DEL', ...(keys as string[])]);
      cursor = next;
      if (cursor === '0') return;
    }
  }

  /** The Redis name of `owner`, or `undefined` for an owner kept in this process (a session without an id; `none`). */
  private ownerKey(owner: DecisionOwner): string | undefined {
    switch (owner.kind) {
      case 'server':
        return 'server';
      case 'principal':
        return `principal:${owner.id}`;
      case 'session':
        return owner.session.id === '' ? undefined : `session:${owner.session.id}`;
      case 'none':
        return undefined;
    }
  }

  private hashKey(ownerKey: string, member: string): string {
    return `${this.base}${ownerKey}|${member}`;
  }

  private indexKey(ownerKey: string): string {
    return `${this.base}${ownerKey}`;
  }
}

/** The index member of `tool` on `subject`: JSON `[tool, subject]`. */
function memberOf(tool: string, subject: string): string {
  return JSON.stringify([tool, subject]);
}

function toolAndSubjectOf(member: unknown, where: string): [string, string] {
  try {
    const parsed = JSON.parse(String(member)) as unknown;
    if (Array.isArray(parsed) && parsed.length === 2 && typeof parsed[0] === 'string' && typeof parsed[1] === 'string')
      return [parsed[0], parsed[1]];
  } catch {
    // Reported below.
  }
  throw new RedisBadReplyError(
    `${where}: the index names ${JSON.stringify(member)}, which is not a [tool, subject] pair`,
  );
}

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
import { RedisScript } from './script.js';

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
 * JSON [tool, subject]). Every key a script touches is in its KEYS: `list` and `revoke` read the
 * index first and then name the hashes they touch.
 */

/** KEYS: hash, index, seq. ARGV: member, ttlMs (0: none), effect, hasReason (1/0), reason, capabilities... */
const REMEMBER = new RedisScript(
  'decision remember',
  `local seq = redis.call('INCR', KEYS[3])
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
return seq`,
);

/**
 * KEYS: hash. Answers its fields and values as one flat array (a script, because node-redis
 * answers a bare `HGETALL` as an object whose shape depends on the protocol version).
 */
const LOAD = new RedisScript('decision load', `return redis.call('HGETALL', KEYS[1])`);

/**
 * KEYS: index, then the hashes of ARGV's members, in order. ARGV: members. Answers [member,
 * fields, member, fields, ...]; drops from the index the members whose hash is gone.
 */
const LIST = new RedisScript(
  'decision list',
  `local out = {}
for i, member in ipairs(ARGV) do
  local fields = redis.call('HGETALL', KEYS[i + 1])
  if #fields == 0 then redis.call('SREM', KEYS[1], member) else
    table.insert(out, member)
    table.insert(out, fields)
  end
end
return out`,
);

/**
 * KEYS: index, then the hashes of the members after ARGV[1], in order. ARGV: capability ('' for
 * any), members. Answers how many decisions it forgot; drops emptied hashes from the index.
 */
const REVOKE = new RedisScript(
  'decision revoke',
  `local forgotten = 0
for i = 2, #ARGV do
  local hash = KEYS[i]
  if ARGV[1] == '' then
    forgotten = forgotten + redis.call('HLEN', hash)
    redis.call('DEL', hash)
  else
    forgotten = forgotten + redis.call('HDEL', hash, ARGV[1])
  end
  if redis.call('EXISTS', hash) == 0 then redis.call('SREM', KEYS[1], ARGV[i]) end
end
return forgotten`,
);

/** How many hashes one `list` or `revoke` script names at most (more are done in several scripts). */
const HASHES_PER_SCRIPT = 500;

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
    const reply = await this.redis.script(LOAD, [this.hashKey(key, memberOf(tool, subject))], []);
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
    await this.redis.script(
      REMEMBER,
      [this.hashKey(key, member), this.indexKey(key), `${this.base}seq`],
      [member, ttl, effect, reason === undefined ? '0' : '1', reason ?? '', ...capabilities],
    );
  }

  async list(owner: DecisionOwner): Promise<readonly StoredDecision[]> {
    const key = this.ownerKey(owner);
    if (key === undefined) return this.local.list(owner);
    const where = `remembered decisions of ${key}`;
    const all: Ordered[] = [];
    for (const members of chunks(await this.membersOf(key, where), HASHES_PER_SCRIPT)) {
      const reply = await this.redis.script(
        LIST,
        [this.indexKey(key), ...members.map((member) => this.hashKey(key, member))],
        members,
      );
      if (!Array.isArray(reply) || reply.length % 2 !== 0)
        throw new RedisBadReplyError(`${where}: Redis answered ${JSON.stringify(reply)} for a list of decisions`);
      for (let i = 0; i < reply.length; i += 2) {
        const [tool, subject] = toolAndSubjectOf(reply[i], where);
        for (const [capability, value] of pairsOf(reply[i + 1], where))
          all.push(decisionOf(tool, subject, capability, value, where));
      }
    }
    return all.sort((a, b) => a.seq - b.seq).map((o) => o.decision);
  }

  async revoke(owner: DecisionOwner, selector: DecisionSelector = {}): Promise<number> {
    const key = this.ownerKey(owner);
    if (key === undefined) return this.local.revoke(owner, selector);
    const where = `remembered decisions of ${key}`;
    const matching = (await this.membersOf(key, where)).filter((member) => {
      const [tool, subject] = toolAndSubjectOf(member, where);
      return (
        (selector.tool === undefined || selector.tool === tool) &&
        (selector.subject === undefined || selector.subject === subject)
      );
    });
    let forgotten = 0;
    for (const members of chunks(matching, HASHES_PER_SCRIPT)) {
      const reply = await this.redis.script(
        REVOKE,
        [this.indexKey(key), ...members.map((member) => this.hashKey(key, member))],
        [selector.capability ?? '', ...members],
      );
      forgotten += Number(reply);
    }
    return forgotten;
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

  /** The members of an owner's index (JSON `[tool, subject]` pairs). */
  private async membersOf(ownerKey: string, where: string): Promise<string[]> {
    const reply = await this.redis.command(['SMEMBERS', this.indexKey(ownerKey)]);
    if (!Array.isArray(reply) || !reply.every((member) => typeof member === 'string'))
      throw new RedisBadReplyError(`${where}: Redis answered ${JSON.stringify(reply)} for its index`);
    return reply as string[];
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

/** `items` in runs of at most `size`, in order. */
function chunks<T>(items: readonly T[], size: number): T[][] {
  const runs: T[][] = [];
  for (let at = 0; at < items.length; at += size) runs.push(items.slice(at, at + size));
  return runs;
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

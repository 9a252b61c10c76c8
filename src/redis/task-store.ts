import { randomUUID } from 'node:crypto';
import { MAX_TASK_TTL_MS } from '../contract/index.js';
import {
  isTerminalStatus,
  TaskLimitError,
  type TaskChange,
  type TaskInit,
  type TaskPage,
  type TaskRecord,
  type TaskStatus,
  type TaskStore,
} from '../runtime/index.js';
import { isPositiveInteger } from '../util/limits.js';
import { checkOptionsObject, invalidOption, optionKeys } from '../util/options.js';
import type { RedisConnection } from './connection.js';
import { RedisBadReplyError } from './errors.js';
import { guardedScript } from './generation.js';

/** Options of `RedisTaskStore`. Every member is optional. */
export interface RedisTaskStoreOptions {
  /** Live tasks one owner may have at once, all processes together. Default 32. */
  readonly maxLivePerOwner?: number;
  /** Live tasks at once, all owners and processes together. Default 1,000. */
  readonly maxLive?: number;
  /**
   * How long a task holds without news from the process running it, in milliseconds (default
   * 15 s). Past it, the task reads as `failed` ("the process running the task stopped: its lease
   * of <n> ms lapsed"), in every process; it is never run again.
   */
  readonly leaseMs?: number;
  /**
   * How often the process running a task renews its lease and looks for a cancel recorded by
   * another process, in milliseconds (default 1,000; at most a third of the lease).
   */
  readonly tickMs?: number;
}

/** The default lease of a running task: 15 s. */
export const DEFAULT_TASK_LEASE_MS = 15_000;
/** The default tick of a running task's lease and cancel check: 1 s. */
export const DEFAULT_TASK_TICK_MS = 1_000;

const OPTION_KEYS = optionKeys<RedisTaskStoreOptions>()('maxLivePerOwner', 'maxLive', 'leaseMs', 'tickMs');

/** The message of a task whose process stopped renewing its lease. */
export function leaseLapsedText(leaseMs: number): string {
  return `the process running the task stopped: its lease of ${leaseMs} ms lapsed`;
}

/** The message of a task whose state Redis lost (read as failed, never as absent). */
export const TASK_STATE_LOST_TEXT =
  "Redis lost the task's state (a restart without persistence, a flush or a failover); it may or may not have finished";

const FIELDS = `'owner', 'tool', 'status', 'statusMessage', 'createdAt', 'lastUpdatedAt', 'ttlMs', 'pollIntervalMs', 'result', 'error', 'inputRequests', 'lease'`;

/*
 * One hash per task (`<prefix>task:<id>`, expiring with the task's TTL), a sorted set of the live
 * tasks by lease end (`<prefix>tasks:live`), a hash of their owners (`<prefix>tasks:live-owner`)
 * and one sorted set per owner of its tasks by creation (`<prefix>tasks:owner:<owner>`, for
 * `tasks/list`). Every script is guarded by the generation marker (KEYS[1], ARGV[1]).
 */

/**
 * KEYS: marker, task, live, live-owner, owner list. ARGV: generation, id, owner, tool, ttlMs,
 * pollIntervalMs, leaseMs, maxLivePerOwner, maxLive. Drops lapsed live entries first (their
 * tasks read as failed when read), then checks the bounds: `{'limit', which}` or `{'ok', now}`.
 */
const CREATE = guardedScript(
  'task create',
  `for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now)) do
  redis.call('ZREM', KEYS[3], id)
  redis.call('HDEL', KEYS[4], id)
end
if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[9]) then return {'limit', 'maxLive'} end
if ARGV[3] ~= '*' then
  local mine = 0
  for _, owner in ipairs(redis.call('HVALS', KEYS[4])) do if owner == ARGV[3] then mine = mine + 1 end end
  if mine >= tonumber(ARGV[8]) then return {'limit', 'maxLivePerOwner'} end
end
local lease = now + tonumber(ARGV[7])
redis.call('HSET', KEYS[2], 'owner', ARGV[3], 'tool', ARGV[4], 'status', 'working', 'createdAt', now,
  'lastUpdatedAt', now, 'ttlMs', ARGV[5], 'pollIntervalMs', ARGV[6], 'lease', lease)
redis.call('PEXPIRE', KEYS[2], tonumber(ARGV[5]))
redis.call('ZADD', KEYS[3], lease, ARGV[2])
redis.call('HSET', KEYS[4], ARGV[2], ARGV[3])
redis.call('ZADD', KEYS[5], now, ARGV[2])
redis.call('PEXPIRE', KEYS[5], ${MAX_TASK_TTL_MS})
return {'ok', tostring(now)}`,
);

/**
 * KEYS: marker, task, live, live-owner. ARGV: generation, id, lapsed message, lost window (ms).
 * A live task whose lease lapsed is failed here, once. A task not found while Redis's last loss is
 * recent enough that it could have held it is `{'lost'}`; else `{'none'}`; else `{'task', ...}`.
 */
const GET = guardedScript(
  'task get',
  `local t = redis.call('HMGET', KEYS[2], ${FIELDS})
if not t[3] then
  if lostAt > 0 and now < lostAt + tonumber(ARGV[4]) then return {'lost'} end
  return {'none'}
end
if (t[3] == 'working' or t[3] == 'input_required') and tonumber(t[12]) < now then
  local err = cjson.encode({code = -32603, message = ARGV[3]})
  redis.call('HSET', KEYS[2], 'status', 'failed', 'statusMessage', ARGV[3], 'error', err, 'lastUpdatedAt', now)
  redis.call('ZREM', KEYS[3], ARGV[2])
  redis.call('HDEL', KEYS[4], ARGV[2])
  t = redis.call('HMGET', KEYS[2], ${FIELDS})
end
return {'task', unpack(t, 1, 11)}`,
);

/**
 * KEYS: marker, task, live, live-owner. ARGV: generation, id, status, statusMessage ('' none),
 * result JSON ('' none), error JSON ('' none), inputRequests JSON ('' none). Never changes a
 * terminal task. `{'none'}` or the task.
 */
const UPDATE = guardedScript(
  'task update',
  `local s = redis.call('HGET', KEYS[2], 'status')
if not s then return {'none'} end
if s == 'working' or s == 'input_required' then
  redis.call('HSET', KEYS[2], 'status', ARGV[3], 'lastUpdatedAt', now)
  if ARGV[4] ~= '' then redis.call('HSET', KEYS[2], 'statusMessage', ARGV[4]) else redis.call('HDEL', KEYS[2], 'statusMessage') end
  if ARGV[5] ~= '' then redis.call('HSET', KEYS[2], 'result', ARGV[5]) end
  if ARGV[6] ~= '' then redis.call('HSET', KEYS[2], 'error', ARGV[6]) end
  if ARGV[7] ~= '' then redis.call('HSET', KEYS[2], 'inputRequests', ARGV[7]) else redis.call('HDEL', KEYS[2], 'inputRequests') end
  if ARGV[3] ~= 'working' and ARGV[3] ~= 'input_required' then
    redis.call('ZREM', KEYS[3], ARGV[2])
    redis.call('HDEL', KEYS[4], ARGV[2])
  end
end
local t = redis.call('HMGET', KEYS[2], ${FIELDS})
return {'task', unpack(t, 1, 11)}`,
);

/**
 * KEYS: marker, task, live. ARGV: generation, id, leaseMs. Renews a live task's lease and takes
 * the answers another process delivered (fields `answer:<key>`, removed as they are taken):
 * `{'ok', key1, json1, key2, json2, ...}`; `{'ended', statusMessage}` once it is terminal;
 * `{'none'}` when it is gone.
 */
const RENEW = guardedScript(
  'task renew',
  `local t = redis.call('HMGET', KEYS[2], 'status', 'statusMessage')
if not t[1] then return {'none'} end
if t[1] ~= 'working' and t[1] ~= 'input_required' then return {'ended', t[2] or t[1]} end
local lease = now + tonumber(ARGV[3])
redis.call('HSET', KEYS[2], 'lease', lease)
redis.call('ZADD', KEYS[3], 'XX', lease, ARGV[2])
local out = {'ok'}
local all = redis.call('HGETALL', KEYS[2])
for i = 1, #all, 2 do
  if string.sub(all[i], 1, 7) == 'answer:' then
    table.insert(out, string.sub(all[i], 8))
    table.insert(out, all[i + 1])
    redis.call('HDEL', KEYS[2], all[i])
  end
end
return out`,
);

/**
 * KEYS: marker, task. ARGV: generation, then key and answer JSON pairs. Records answers for the
 * owner's next renew (`answer:<key>` fields) while the task is `input_required`: `{'ok'}`; else
 * drops them: `{'dropped'}`.
 */
const DELIVER = guardedScript(
  'task deliver',
  `if redis.call('HGET', KEYS[2], 'status') ~= 'input_required' then return {'dropped'} end
for i = 2, #ARGV, 2 do redis.call('HSET', KEYS[2], 'answer:' .. ARGV[i], ARGV[i + 1]) end
return {'ok'}`,
);

/**
 * Keeps tasks in Redis, shared by every process of a deployment: any process answers
 * `tasks/get`, `tasks/result` (by polling at the task's interval) and `tasks/cancel` for a task
 * another runs. A cancel is recorded here and reaches the owner within `tickMs` (its run's signal
 * aborts). A 2026-07-28 task's open questions are kept with it (every process shows them), and a
 * `tasks/update` answered by another process is recorded here (`deliver`) and reaches the owner
 * within `tickMs`, each answer once. The owner renews each running task's lease every `tickMs`; a task whose owner died
 * reads as `failed` once its lease lapsed ("the process running the task stopped: its lease of
 * <n> ms lapsed"), never `working` for ever, and is never run again (only the process that
 * created a task runs it). Bounds as `MemoryTaskStore` (32 live per owner, 1,000 live, TTL at
 * most 24 hours), counted across processes; lapsed tasks stop counting. A Redis that lost its
 * data is detected by the generation marker (see `RedisGeneration`): a task not found then reads
 * as `failed` with `TASK_STATE_LOST_TEXT` (for as long as one from before could still be kept),
 * and a running task whose state is gone is aborted.
 */
export class RedisTaskStore implements TaskStore {
  readonly shared = true;
  private readonly maxLivePerOwner: number;
  private readonly maxLive: number;
  private readonly leaseMs: number;
  private readonly tickMs: number;
  private readonly watched = new Map<string, ReturnType<typeof setInterval>>();

  /** Throws a `TypeError` naming a bad option. */
  constructor(
    private readonly redis: RedisConnection,
    options: RedisTaskStoreOptions = {},
  ) {
    if (typeof (redis as { command?: unknown } | null)?.command !== 'function')
      throw new TypeError('RedisTaskStore: the first argument must be a RedisConnection (see connectRedis)');
    checkOptionsObject('RedisTaskStore', options, OPTION_KEYS);
    for (const key of ['maxLivePerOwner', 'maxLive', 'leaseMs', 'tickMs'] as const) {
      const value = options[key];
      if (value !== undefined && !isPositiveInteger(value))
        throw invalidOption('RedisTaskStore', key, 'a positive whole number', value);
    }
    this.maxLivePerOwner = options.maxLivePerOwner ?? 32;
    this.maxLive = options.maxLive ?? 1_000;
    this.leaseMs = options.leaseMs ?? DEFAULT_TASK_LEASE_MS;
    this.tickMs = Math.min(options.tickMs ?? DEFAULT_TASK_TICK_MS, Math.max(1, Math.floor(this.leaseMs / 3)));
  }

  async create(init: TaskInit): Promise<TaskRecord> {
    const taskId = randomUUID();
    const ttlMs = Math.min(init.ttlMs, MAX_TASK_TTL_MS);
    const reply = await this.redis.generation.run(
      CREATE,
      [this.taskKey(taskId), this.liveKey(), this.liveOwnerKey(), this.ownerKey(init.owner)],
      [
        taskId,
        init.owner,
        init.tool,
        String(ttlMs),
        String(init.pollIntervalMs),
        String(this.leaseMs),
        String(this.maxLivePerOwner),
        String(this.maxLive),
      ],
    );
    const [status, value] = Array.isArray(reply) ? (reply as unknown[]) : [];
    if (status === 'limit') {
      const limit = value === 'maxLive' ? 'maxLive' : 'maxLivePerOwner';
      throw new TaskLimitError(limit, limit === 'maxLive' ? this.maxLive : this.maxLivePerOwner);
    }
    if (status !== 'ok') throw this.badReply('create', reply);
    const now = Number(value);
    return Object.freeze({
      taskId,
      owner: init.owner,
      tool: init.tool,
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs,
      pollIntervalMs: init.pollIntervalMs,
    });
  }

  async get(taskId: string, owner: string): Promise<TaskRecord | undefined> {
    const reply = await this.redis.generation.run(
      GET,
      [this.taskKey(taskId), this.liveKey(), this.liveOwnerKey()],
      [taskId, leaseLapsedText(this.leaseMs), String(MAX_TASK_TTL_MS)],
    );
    const [status] = Array.isArray(reply) ? (reply as unknown[]) : [];
    if (status === 'none') return undefined;
    if (status === 'lost') {
      const now = Date.now();
      return Object.freeze({
        taskId,
        owner,
        tool: '',
        status: 'failed',
        statusMessage: TASK_STATE_LOST_TEXT,
        createdAt: now,
        lastUpdatedAt: now,
        ttlMs: 0,
        pollIntervalMs: 1_000,
        error: { code: -32603, message: TASK_STATE_LOST_TEXT },
      });
    }
    const task = this.recordOf(taskId, reply);
    return task.owner === owner || task.owner === '*' ? task : undefined;
  }

  async update(taskId: string, change: TaskChange): Promise<TaskRecord | undefined> {
    const reply = await this.redis.generation.run(
      UPDATE,
      [this.taskKey(taskId), this.liveKey(), this.liveOwnerKey()],
      [
        taskId,
        change.status,
        change.statusMessage ?? '',
        change.result === undefined ? '' : JSON.stringify(change.result),
        change.error === undefined ? '' : JSON.stringify(change.error),
        change.inputRequests === undefined ? '' : JSON.stringify(change.inputRequests),
      ],
    );
    if (Array.isArray(reply) && reply[0] === 'none') return undefined;
    const task = this.recordOf(taskId, reply);
    if (isTerminalStatus(task.status)) this.unwatch(taskId);
    return task;
  }

  async list(owner: string, options: { readonly cursor?: string; readonly limit: number }): Promise<TaskPage> {
    if (owner === '*') return { tasks: [] };
    const ids = ((await this.redis.command(['ZREVRANGE', this.ownerKey(owner), '0', '-1'])) as string[]) ?? [];
    const start = options.cursor === undefined ? 0 : ids.indexOf(options.cursor) + 1;
    const tasks: TaskRecord[] = [];
    let index = start;
    for (; index < ids.length && tasks.length < options.limit; index++) {
      const task = await this.get(ids[index]!, owner);
      if (task !== undefined && task.tool !== '') tasks.push(task);
    }
    return index < ids.length && tasks.length > 0 ? { tasks, nextCursor: tasks[tasks.length - 1]!.taskId } : { tasks };
  }

  watch(
    taskId: string,
    onEnded: (reason: string) => void,
    onAnswers?: (answers: Readonly<Record<string, unknown>>) => void,
  ): () => void {
    const timer = setInterval(() => {
      this.redis.generation
        .run(RENEW, [this.taskKey(taskId), this.liveKey()], [taskId, String(this.leaseMs)])
        .then((reply) => {
          const [status, message] = Array.isArray(reply) ? (reply as unknown[]) : [];
          if (status === 'ok') {
            const taken = (reply as unknown[]).slice(1);
            if (taken.length > 0 && onAnswers !== undefined) onAnswers(answersOf(taken));
            return;
          }
          this.unwatch(taskId);
          onEnded(status === 'ended' ? String(message) : TASK_STATE_LOST_TEXT);
        })
        .catch(() => {
          // Redis is away: the next tick tries again; past the lease, the task reads as failed.
        });
    }, this.tickMs);
    timer.unref();
    this.watched.set(taskId, timer);
    return () => this.unwatch(taskId);
  }

  /**
   * Records `answers` (by key) for the process running the task `taskId`, which takes them at its
   * next tick (within `tickMs`); dropped when the task is not `input_required`.
   */
  async deliver(taskId: string, answers: Readonly<Record<string, unknown>>): Promise<void> {
    const pairs = Object.entries(answers).flatMap(([key, answer]) => [key, JSON.stringify(answer)]);
    if (pairs.length === 0) return;
    const reply = await this.redis.generation.run(DELIVER, [this.taskKey(taskId)], pairs);
    const [status] = Array.isArray(reply) ? (reply as unknown[]) : [];
    if (status !== 'ok' && status !== 'dropped') throw this.badReply('deliver', reply);
  }

  /** Stops renewing this process's tasks (their leases then lapse, and they read as failed). */
  async close(): Promise<void> {
    for (const timer of this.watched.values()) clearInterval(timer);
    this.watched.clear();
  }

  private unwatch(taskId: string): void {
    clearInterval(this.watched.get(taskId));
    this.watched.delete(taskId);
  }

  private recordOf(taskId: string, reply: unknown): TaskRecord {
    if (!Array.isArray(reply) || reply[0] !== 'task') throw this.badReply('read', reply);
    const [
      ,
      owner,
      tool,
      status,
      statusMessage,
      createdAt,
      lastUpdatedAt,
      ttlMs,
      pollIntervalMs,
      result,
      error,
      inputRequests,
    ] = reply as (string | null)[];
    return Object.freeze({
      taskId,
      owner: owner ?? '',
      tool: tool ?? '',
      status: status as TaskStatus,
      ...(statusMessage === null || statusMessage === undefined ? {} : { statusMessage }),
      createdAt: Number(createdAt),
      lastUpdatedAt: Number(lastUpdatedAt),
      ttlMs: Number(ttlMs),
      pollIntervalMs: Number(pollIntervalMs),
      ...(result === null || result === undefined ? {} : { result: JSON.parse(result) as Record<string, unknown> }),
      ...(error === null || error === undefined ? {} : { error: JSON.parse(error) as TaskRecord['error'] & object }),
      ...(inputRequests === null || inputRequests === undefined
        ? {}
        : { inputRequests: JSON.parse(inputRequests) as NonNullable<TaskRecord['inputRequests']> }),
    });
  }

  private badReply(what: string, reply: unknown): RedisBadReplyError {
    return new RedisBadReplyError(`task store ${what}: Redis answered ${JSON.stringify(reply)}`);
  }

  private taskKey(taskId: string): string {
    return `${this.redis.keyPrefix}task:${taskId}`;
  }
  private liveKey(): string {
    return `${this.redis.keyPrefix}tasks:live`;
  }
  private liveOwnerKey(): string {
    return `${this.redis.keyPrefix}tasks:live-owner`;
  }
  private ownerKey(owner: string): string {
    return `${this.redis.keyPrefix}tasks:owner:${owner}`;
  }
}

/** The answers a renew took (`key1, json1, key2, json2, ...`), by key; an answer that is not JSON is dropped. */
function answersOf(pairs: readonly unknown[]): Record<string, unknown> {
  const answers: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (let index = 0; index + 1 < pairs.length; index += 2) {
    try {
      answers[String(pairs[index])] = JSON.parse(String(pairs[index + 1]));
    } catch {
      // Only this store writes these fields, as JSON: nothing else can be there.
    }
  }
  return answers;
}

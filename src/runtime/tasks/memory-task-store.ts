import { randomUUID } from 'node:crypto';
import { MAX_TASK_TTL_MS } from '../../contract/index.js';
import { checkOptionsObject, invalidOption } from '../../util/options.js';
import { isPositiveInteger } from '../../util/limits.js';
import { TaskLimitError } from './errors.js';
import {
  isTerminalStatus,
  type TaskChange,
  type TaskInit,
  type TaskPage,
  type TaskRecord,
  type TaskStore,
} from './task-store.js';

/** The bounds of a `MemoryTaskStore`. */
export interface MemoryTaskStoreOptions {
  /** Live (`working` or `input_required`) tasks one owner may have at once. Default 32. */
  readonly maxLivePerOwner?: number;
  /** Live tasks the store holds at once, all owners together. Default 1,000. */
  readonly maxLive?: number;
  /** Tasks the store keeps at once, live and ended (until their TTL passes). Default 10,000. */
  readonly maxTasks?: number;
  /** The clock, in milliseconds since the epoch (default `Date.now`); for tests. */
  readonly now?: () => number;
}

/** How often a create sweeps expired tasks at most (and whenever the store is full): 1,000 ms. */
const SWEEP_EVERY_MS = 1_000;

/** The default bounds of a `MemoryTaskStore`. */
export const MEMORY_TASK_STORE_DEFAULTS = Object.freeze({ maxLivePerOwner: 32, maxLive: 1_000, maxTasks: 10_000 });

/**
 * Keeps tasks in this process (the default task store of a server). Bounded: at most
 * `maxLivePerOwner` (32) live tasks per owner and `maxLive` (1,000) on the server, at most
 * `maxTasks` (10,000) kept, live and ended; a new task past a bound is refused with a retryable
 * `TaskLimitError`. A task's TTL is capped at `MAX_TASK_TTL_MS` (24 hours); an ended task and its
 * result are kept until the TTL passes, then dropped (expired tasks are swept as new ones come, at
 * most once a second or when the store is full, never by a timer; live tasks are counted as they
 * start and end, so a create never scans them). Records are frozen; a terminal task never changes.
 */
export class MemoryTaskStore implements TaskStore {
  readonly shared = false;
  private readonly tasks = new Map<string, TaskRecord>();
  private readonly live = new Set<string>();
  private readonly liveByOwner = new Map<string, number>();
  private sweptAt = 0;
  private readonly maxLivePerOwner: number;
  private readonly maxLive: number;
  private readonly maxTasks: number;
  private readonly now: () => number;

  constructor(options: MemoryTaskStoreOptions = {}) {
    checkOptionsObject('MemoryTaskStore', options, ['maxLivePerOwner', 'maxLive', 'maxTasks', 'now']);
    for (const key of ['maxLivePerOwner', 'maxLive', 'maxTasks'] as const) {
      const value = options[key];
      if (value !== undefined && !isPositiveInteger(value))
        throw invalidOption('MemoryTaskStore', key, 'a positive integer', value);
    }
    if (options.now !== undefined && typeof options.now !== 'function')
      throw invalidOption('MemoryTaskStore', 'now', 'a function returning milliseconds', options.now);
    this.maxLivePerOwner = options.maxLivePerOwner ?? MEMORY_TASK_STORE_DEFAULTS.maxLivePerOwner;
    this.maxLive = options.maxLive ?? MEMORY_TASK_STORE_DEFAULTS.maxLive;
    this.maxTasks = options.maxTasks ?? MEMORY_TASK_STORE_DEFAULTS.maxTasks;
    this.now = options.now ?? Date.now;
  }

  async create(init: TaskInit): Promise<TaskRecord> {
    const now = this.now();
    if (this.tasks.size >= this.maxTasks || now - this.sweptAt >= SWEEP_EVERY_MS) this.sweep(now);
    if (init.owner !== '*' && (this.liveByOwner.get(init.owner) ?? 0) >= this.maxLivePerOwner)
      throw new TaskLimitError('maxLivePerOwner', this.maxLivePerOwner);
    if (this.live.size >= this.maxLive) throw new TaskLimitError('maxLive', this.maxLive);
    if (this.tasks.size >= this.maxTasks) throw new TaskLimitError('maxTasks', this.maxTasks);
    const record: TaskRecord = Object.freeze({
      taskId: randomUUID(),
      owner: init.owner,
      tool: init.tool,
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: Math.min(init.ttlMs, MAX_TASK_TTL_MS),
      pollIntervalMs: init.pollIntervalMs,
    });
    this.tasks.set(record.taskId, record);
    this.countLive(record, 1);
    return record;
  }

  async get(taskId: string, owner: string): Promise<TaskRecord | undefined> {
    const task = this.tasks.get(taskId);
    if (task === undefined) return undefined;
    if (this.expired(task, this.now())) {
      this.drop(task);
      return undefined;
    }
    return task.owner === owner || task.owner === '*' ? task : undefined;
  }

  async update(taskId: string, change: TaskChange): Promise<TaskRecord | undefined> {
    const task = this.tasks.get(taskId);
    if (task === undefined) return undefined;
    if (isTerminalStatus(task.status)) return task;
    const next: TaskRecord = Object.freeze({
      taskId: task.taskId,
      owner: task.owner,
      tool: task.tool,
      status: change.status,
      ...(change.statusMessage === undefined ? {} : { statusMessage: change.statusMessage }),
      createdAt: task.createdAt,
      lastUpdatedAt: Math.max(this.now(), task.lastUpdatedAt),
      ttlMs: task.ttlMs,
      pollIntervalMs: task.pollIntervalMs,
      ...(change.result === undefined ? {} : { result: change.result }),
      ...(change.error === undefined ? {} : { error: change.error }),
      ...(change.inputRequests === undefined ? {} : { inputRequests: change.inputRequests }),
    });
    this.tasks.set(taskId, next);
    if (isTerminalStatus(next.status)) this.countLive(next, -1);
    return next;
  }

  async list(owner: string, options: { readonly cursor?: string; readonly limit: number }): Promise<TaskPage> {
    if (owner === '*') return { tasks: [] };
    const now = this.now();
    this.sweep(now);
    const mine = [...this.tasks.values()].filter((task) => task.owner === owner).reverse();
    const start = options.cursor === undefined ? 0 : mine.findIndex((task) => task.taskId === options.cursor) + 1;
    const page = mine.slice(start, start + options.limit);
    const more = start + options.limit < mine.length;
    return more ? { tasks: page, nextCursor: page[page.length - 1]!.taskId } : { tasks: page };
  }

  /** How many tasks the store keeps now (live and ended, expired ones not yet swept included). */
  get size(): number {
    return this.tasks.size;
  }

  private expired(task: TaskRecord, now: number): boolean {
    return now >= task.createdAt + task.ttlMs;
  }

  private sweep(now: number): void {
    this.sweptAt = now;
    for (const task of this.tasks.values()) if (this.expired(task, now)) this.drop(task);
  }

  private drop(task: TaskRecord): void {
    this.tasks.delete(task.taskId);
    if (!isTerminalStatus(task.status)) this.countLive(task, -1);
  }

  /** Keeps the live counts (all, and per owner) as tasks start and end, so a create never scans. */
  private countLive(task: TaskRecord, delta: 1 | -1): void {
    if (delta === 1) this.live.add(task.taskId);
    else this.live.delete(task.taskId);
    const count = (this.liveByOwner.get(task.owner) ?? 0) + delta;
    if (count <= 0) this.liveByOwner.delete(task.owner);
    else this.liveByOwner.set(task.owner, count);
  }
}

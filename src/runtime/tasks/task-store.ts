/**
 * The state of one MCP task as a task store keeps it: who owns it, where it is in its life, and
 * its outcome once it has one. Times are milliseconds since the epoch.
 */
export interface TaskRecord {
  /** Unguessable: 122 random bits (`crypto.randomUUID`). */
  readonly taskId: string;
  /**
   * Who may see the task (see `TaskOwner`): a principal key, a session, or `*` for whoever holds
   * the id (an unauthenticated stateless request).
   */
  readonly owner: string;
  /** The tool the task runs. */
  readonly tool: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  readonly createdAt: number;
  readonly lastUpdatedAt: number;
  /** How long the task is kept from `createdAt`, in milliseconds. */
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  /** The MCP `CallToolResult` of a `completed` task. */
  readonly result?: Readonly<Record<string, unknown>>;
  /** The JSON-RPC error of a `failed` task. */
  readonly error?: TaskError;
  /**
   * The questions an `input_required` task waits on (2026-07-28), by key: each the request the
   * client would otherwise get (`elicitation/create`, `sampling/createMessage`, `roots/list`).
   */
  readonly inputRequests?: Readonly<Record<string, TaskInputRequest>>;
}

/** One question of a task (an entry of `inputRequests`): the request's method and params. */
export interface TaskInputRequest {
  readonly method: string;
  readonly params: Readonly<Record<string, unknown>>;
}

/** A task's status: `working` and `input_required` are live; the other three are terminal and final. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** The JSON-RPC error a `failed` task carries. */
export interface TaskError {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** What a new task is made of (the store adds the id, the status `working` and the times). */
export interface TaskInit {
  readonly owner: string;
  readonly tool: string;
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
}

/** A change of status, with what comes with it. */
export interface TaskChange {
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  readonly result?: Readonly<Record<string, unknown>>;
  readonly error?: TaskError;
  /** The questions of an `input_required` task (a change without them clears them). */
  readonly inputRequests?: Readonly<Record<string, TaskInputRequest>>;
}

/** One page of an owner's tasks, newest first. */
export interface TaskPage {
  readonly tasks: readonly TaskRecord[];
  readonly nextCursor?: string;
}

/** True for `completed`, `failed` and `cancelled`: a task there never changes again. */
export function isTerminalStatus(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/**
 * Where a server keeps its tasks: `MemoryTaskStore` for one process (the default), a shared
 * store (`RedisTaskStore` in `toolwright/redis`) for several. A store never runs a tool; the
 * server runs it and records what happens. Every method may reject when the store cannot be
 * reached; the server then answers a JSON-RPC error and changes nothing.
 */
export interface TaskStore {
  /** True when other processes see the same tasks. */
  readonly shared: boolean;
  /**
   * Records a new `working` task and resolves it once a `get` would find it. Rejects with a
   * `TaskLimitError` (retryable) when a bound of the store is reached; nothing is recorded then.
   */
  create(init: TaskInit): Promise<TaskRecord>;
  /**
   * The task `taskId` as `owner` may see it: `undefined` when there is none, when it belongs to
   * someone else (a task owned by `*` is seen by anyone with its id), or when its TTL has passed.
   */
  get(taskId: string, owner: string): Promise<TaskRecord | undefined>;
  /**
   * Moves the task to `change.status` and resolves the record as it now is. A terminal task never
   * changes: the record is resolved unchanged (a late completion after a cancel is dropped). A task
   * that is gone resolves `undefined`.
   */
  update(taskId: string, change: TaskChange): Promise<TaskRecord | undefined>;
  /** The tasks of `owner`, newest first, `limit` at a time (none for the owner `*`). */
  list(owner: string, options: { readonly cursor?: string; readonly limit: number }): Promise<TaskPage>;
  /**
   * Watches a task that runs in this process, for a shared store: keeps its owner's lease alive
   * (so other processes do not read it as orphaned) and calls `onEnded` once when the task ends
   * elsewhere (a `tasks/cancel` answered by another process) or its state is gone (its TTL
   * passed, Redis lost its data), and `onAnswers` with the answers `deliver` recorded for it in
   * another process (each answer once). Returns the function that stops watching. A store of one
   * process has no need of it.
   */
  watch?(
    taskId: string,
    onEnded: (reason: string) => void,
    onAnswers?: (answers: Readonly<Record<string, unknown>>) => void,
  ): () => void;
  /**
   * Records answers to the questions of a task that runs in another process (a `tasks/update`
   * answered here), for its owner's `watch` to pick up. Answers to a task that is not
   * `input_required` are dropped. A store of one process has no need of it.
   */
  deliver?(taskId: string, answers: Readonly<Record<string, unknown>>): Promise<void>;
  /** Releases what the store holds (timers, connections). */
  close?(): Promise<void>;
}

import { ToolwrightError, type ToolRecord, type ToolResult } from '../../contract/index.js';
import { isPositiveInteger } from '../../util/limits.js';
import { fingerprint } from './fingerprint.js';
import { invalidOption } from '../../util/options.js';

/**
 * The outcome of a keyed call as a replay store keeps it (a failure with the failed call's record,
 * when it had one).
 */
export type ReplayOutcome =
  | { readonly ok: true; readonly result: ToolResult }
  | { readonly ok: false; readonly error: Error; readonly record?: ToolRecord };

/**
 * The outcome a shared replay store (one whose claims have a lease, such as `RedisReplayStore`)
 * gives for a key whose first call ended without an outcome: the process running it stopped, or
 * lost the store for longer than the claim's lease. The call may or may not have acted, so, as
 * the replay rules say of a call whose outcome is unknown, it is never run again under that key.
 * Message: `the call that first used idempotency key "<key>" ended without an outcome (the
 * process running it stopped or lost the shared store); whether it acted is unknown, so it is not
 * run again`. Code `lost-outcome`.
 */
export class LostOutcomeError extends ToolwrightError {
  override readonly name = 'LostOutcomeError';
  readonly key: string;
  constructor(key: string) {
    super(
      'lost-outcome',
      `the call that first used idempotency key ${JSON.stringify(key)} ended without an outcome (the process running it stopped or lost the shared store); whether it acted is unknown, so it is not run again`,
    );
    this.key = key;
  }
}

/**
 * What a keyed call claims before it runs: its key, its tool and its raw arguments, and whose key
 * space the key belongs to (`owner`: the MCP server gives the principal's key when the request
 * has a principal, so two principals' keys never meet; absent, one shared space).
 */
export interface ReplayClaim {
  readonly key: string;
  readonly tool: string;
  readonly args: unknown;
  readonly owner?: string;
}

/** The key a store files a claim under: `key` itself without an owner, else the owner (as JSON) and the key. */
export function ownedReplayKey(key: string, owner: string | undefined): string {
  return owner === undefined ? key : `${JSON.stringify(owner)}:${key}`;
}

/**
 * The store's answer to `begin`: `new` (the key is now taken; run the tool, then `complete`),
 * `done` (the key's first call finished; here is its outcome), `running` (its first call is still
 * running) or `different-arguments` (the key was first used with another tool or other arguments).
 */
export type ReplayBegin =
  | { readonly status: 'new' }
  | { readonly status: 'done'; readonly outcome: ReplayOutcome }
  | { readonly status: 'running' }
  | { readonly status: 'different-arguments' };

/**
 * Where the executor records the calls of `keyed` tools by idempotency key, so a re-run with the
 * same key returns the first outcome instead of acting twice. Both methods may be asynchronous,
 * so a durable store (a database row per key) fits. `complete` is called exactly once after every
 * `begin` that answered `new`, with the tool's real outcome, even when the executor stopped
 * waiting for it (a timeout): until then the key reads as `running`.
 *
 * Two implementations ship: `MemoryReplayStore` (one process; the default of the `Executor`) and
 * `RedisReplayStore` (`toolwright/redis`: every process sharing one Redis sees every key).
 */
export interface ReplayStore {
  /**
   * Claims the call's key, or says what is already recorded for it: `new` (run the tool, then
   * `complete`), `done` (the first outcome), `running` (a call with the key has not finished) or
   * `different-arguments` (the key was used with other arguments).
   */
  begin(claim: ReplayClaim): ReplayBegin | Promise<ReplayBegin>;
  /** Records the outcome of the call that began `key` (with the claim's `owner`, when it had one). */
  complete(key: string, outcome: ReplayOutcome, owner?: string): void | Promise<void>;
}

interface MemoryEntry {
  readonly fingerprint: string;
  outcome: ReplayOutcome | undefined;
}

/** Options of `MemoryReplayStore`. */
export interface MemoryReplayStoreOptions {
  /** How many finished keys to keep; the oldest finished ones are forgotten first (default 10,000). */
  readonly maxEntries?: number;
}

/**
 * A `ReplayStore` in memory, for one process. It answers a repeated key with the first outcome,
 * refuses a key whose first call is still running, and refuses a key reused with another tool
 * or different arguments (compared as canonical JSON, key order ignored). Keys of different
 * owners (`ReplayClaim.owner`) are apart. It keeps at most
 * `maxEntries` finished keys, forgetting the oldest; running keys are never forgotten.
 */
export class MemoryReplayStore implements ReplayStore {
  private readonly entries = new Map<string, MemoryEntry>();
  private readonly maxEntries: number;

  constructor(options: MemoryReplayStoreOptions = {}) {
    const max = options.maxEntries ?? 10_000;
    if (!isPositiveInteger(max)) {
      throw invalidOption('MemoryReplayStore', 'maxEntries', 'a positive integer', max);
    }
    this.maxEntries = max;
  }

  /** The number of keys held (running and finished). */
  get size(): number {
    return this.entries.size;
  }

  /** See `ReplayStore.begin`. */
  begin(claim: ReplayClaim): ReplayBegin {
    const print = fingerprint({ tool: claim.tool, args: claim.args });
    const key = ownedReplayKey(claim.key, claim.owner);
    const entry = this.entries.get(key);
    if (entry === undefined) {
      this.entries.set(key, { fingerprint: print, outcome: undefined });
      return { status: 'new' };
    }
    if (entry.fingerprint !== print) return { status: 'different-arguments' };
    if (entry.outcome === undefined) return { status: 'running' };
    return { status: 'done', outcome: entry.outcome };
  }

  complete(given: string, outcome: ReplayOutcome, owner?: string): void {
    const key = ownedReplayKey(given, owner);
    const entry = this.entries.get(key);
    if (entry === undefined || entry.outcome !== undefined) return;
    entry.outcome = outcome;
    // Re-insert so eviction order is completion order.
    this.entries.delete(key);
    this.entries.set(key, entry);
    this.evict();
  }

  private evict(): void {
    if (this.entries.size <= this.maxEntries) return;
    for (const [key, entry] of this.entries) {
      if (this.entries.size <= this.maxEntries) return;
      if (entry.outcome !== undefined) this.entries.delete(key);
    }
  }
}

/**
 * Records a keyed call's outcome in `store` when the call settles, and lets its host wait for
 * that before it answers: `settled` is the call core's observer (it starts `complete` with the
 * real outcome), `recorded()` resolves once the store took it (or failed to: a store that cannot
 * record leaves the key running until its lease lapses, and the call's own end stands). A host
 * awaits `recorded()` after the call's end when that end is the real one (not a time limit that
 * answered first), so a retry sent right after the answer finds the outcome instead of "still
 * running". `recorded()` resolves at once when the call has not settled.
 */
export function recordOnSettle(
  store: ReplayStore,
  key: string,
  owner: string | undefined,
): { readonly settled: (outcome: ReplayOutcome) => void; recorded(): Promise<void> } {
  let recording: Promise<void> | undefined;
  return {
    settled: (outcome) => {
      recording = Promise.resolve()
        .then(() => store.complete(key, outcome, owner))
        .catch(() => undefined);
    },
    recorded: () => recording ?? Promise.resolve(),
  };
}

import { isPositiveInteger } from '../../util/limits.js';
import { ArrivalHeap } from './arrival-heap.js';
import { Fifo } from './fifo.js';
import type { CallClaims } from './claims.js';
import { checkOptionsObject, invalidOption, optionKeys } from '../../util/options.js';

/** Where a submitted call stands. */
export type TicketStatus = 'waiting' | 'running' | 'released' | 'cancelled';

/** A call handed to a `Scheduler`: how it asks to start and how it gives its turn back. */
export interface Ticket {
  /** `waiting` until granted, `running` once its `start` ran, then `released` or `cancelled`. */
  readonly status: TicketStatus;
  /** The label the call was submitted with. */
  readonly label: string;
  /**
   * What the call waits for, in words (`waits for resource "db", held by "migrate"`), or `""`
   * when it is not waiting. The text describes the moment it is asked.
   */
  waitingFor(): string;
  /**
   * Gives the call's turn back once it completed, so calls behind it may start. Only a running
   * call is released; on a waiting call it acts as `cancel`, and on a released or cancelled one
   * it does nothing (so it is safe to call twice).
   */
  release(): void;
  /**
   * Withdraws a waiting call: it never starts, and it stops holding back the calls behind it.
   * Returns true when the call was waiting; false (and does nothing) once it started or ended: a
   * running call is stopped through its own signal, then released.
   */
  cancel(): boolean;
}

/** What a call brings to `submit`. */
export interface Submission {
  readonly claims: CallClaims;
  /** Names the call in `waitingFor` texts (usually the tool's name). */
  readonly label: string;
  /**
   * Called once, synchronously, as a method of the submission, when the call may start (possibly
   * inside `submit` itself). It must not throw: a throw releases the call and is thrown again to
   * whoever caused the grant.
   */
  start(): void;
}

/** How a `Scheduler` behaves. */
export interface SchedulerOptions {
  /** At most this many calls run at once: a positive integer or `Infinity` (the default). */
  readonly maxConcurrent?: number;
  /** Called each time the scheduler becomes empty (nothing waiting, nothing running). */
  readonly onIdle?: () => void;
}

const OPTION_KEYS = optionKeys<SchedulerOptions>()('maxConcurrent', 'onIdle');

/** A submitted call: its ticket, as the scheduler keeps it. */
class Entry implements Ticket {
  status: TicketStatus = 'waiting';
  /**
   * The call's submission, until its `start` ran: the ticket of a running call is kept until it
   * is released (a parked 2026-07-28 call keeps it while it waits for its client), and `start`
   * holds whatever its submitter had at hand (the request, its context, its reporters).
   */
  private pending: Submission | undefined;

  constructor(
    private readonly scheduler: Scheduler,
    readonly seq: number,
    readonly claims: CallClaims,
    readonly label: string,
    submission: Submission,
  ) {
    this.pending = submission;
  }

  /** Runs the call's `start`, once; its throw is thrown again. */
  start(): void {
    const submission = this.pending;
    this.pending = undefined;
    submission?.start();
  }

  waitingFor(): string {
    return this.status === 'waiting' ? this.scheduler.reasonOf(this) : '';
  }

  release(): void {
    this.scheduler.releaseEntry(this);
  }

  cancel(): boolean {
    return this.scheduler.cancelEntry(this);
  }
}

/**
 * An online scheduler: calls are submitted one by one as they arrive, each with its claims, and
 * each is granted its start by the contract's rules, judged against the calls that arrived
 * before it (never after it):
 *
 * - calls with the same resource key never overlap and start in arrival order;
 * - an exclusive call (a barrier, or online a sequential tool) starts only when every call that
 *   arrived before it has completed and nothing else runs; nothing that arrives after it starts
 *   before it completed;
 * - any other call starts at once, unless `maxConcurrent` calls already run; free slots go to
 *   the waiting calls in arrival order (a call held back by its resource does not hold back the
 *   unrelated calls behind it).
 *
 * It never runs a call itself, never times anything and never looks at a call's result: its user
 * calls `release` when a call completed and `cancel` when a waiting call is withdrawn. One
 * scheduler orders one scope (a batch, a session, a principal, a server); separate schedulers
 * share nothing.
 */
export class Scheduler {
  private readonly maxConcurrent: number;
  private readonly onIdle: (() => void) | undefined;
  private nextSeq = 0;
  /** Every waiting call, in arrival order. */
  private readonly waiting = new Set<Entry>();
  /**
   * The waiting calls that may be next: calls without a resource, and the first waiting call of
   * each resource no running call holds. Withdrawn calls are left in and skipped when met.
   */
  private readonly ready = new ArrivalHeap<Entry>();
  /** The waiting calls of each resource, in arrival order (the first is in `ready` unless the resource is held). */
  private readonly queues = new Map<string, Fifo<Entry>>();
  /** The running call that holds each resource. */
  private readonly held = new Map<string, Entry>();
  private runningCount = 0;
  private exclusiveRunning: Entry | undefined;
  private pumping = false;

  /**
   * Throws a `TypeError` naming the option for a `maxConcurrent` that is not a positive integer or
   * `Infinity`, or an `onIdle` that is not a function.
   */
  constructor(options: SchedulerOptions = {}) {
    checkOptionsObject('Scheduler', options, OPTION_KEYS);
    const { maxConcurrent, onIdle } = options;
    if (
      maxConcurrent !== undefined &&
      maxConcurrent !== Number.POSITIVE_INFINITY &&
      !isPositiveInteger(maxConcurrent)
    ) {
      throw invalidOption('Scheduler', 'maxConcurrent', 'a positive integer or Infinity', maxConcurrent);
    }
    if (onIdle !== undefined && typeof onIdle !== 'function')
      throw invalidOption('Scheduler', 'onIdle', 'a function', onIdle);
    this.maxConcurrent = maxConcurrent ?? Number.POSITIVE_INFINITY;
    this.onIdle = onIdle;
  }

  /** How many calls run now. */
  get running(): number {
    return this.runningCount;
  }

  /** How many calls wait now. */
  get queued(): number {
    return this.waiting.size;
  }

  /**
   * Submits one arriving call and returns its ticket. When the rules allow, `start` runs before
   * this returns; otherwise it runs later, inside the `release` or `cancel` that frees the way.
   * Throws a TypeError for claims that are exclusive and hold a resource (an exclusive call runs
   * alone and claims no resource; `schedulingClaimsOf` never makes such claims), before anything
   * is queued.
   */
  submit(submission: Submission): Ticket {
    if (submission.claims.exclusive && submission.claims.resource !== '') {
      throw new TypeError(
        `scheduling claims cannot be exclusive and hold a resource (${JSON.stringify(submission.claims.resource)}): an exclusive call runs alone`,
      );
    }
    const entry = new Entry(this, this.nextSeq++, submission.claims, submission.label, submission);
    if (!this.pumping && this.waiting.size === 0 && this.mayStartNow(entry)) {
      // The uncontended case: nothing waits, so the call starts at once without a pass over the queue.
      this.grant(entry);
      try {
        entry.start();
      } catch (error) {
        this.releaseEntry(entry);
        throw error;
      }
      return entry;
    }
    this.waiting.add(entry);
    const { resource } = entry.claims;
    if (resource === '') {
      this.ready.push(entry);
    } else {
      const queue = this.queues.get(resource);
      if (queue === undefined) {
        const fresh = new Fifo<Entry>();
        fresh.push(entry);
        this.queues.set(resource, fresh);
        if (!this.held.has(resource)) this.ready.push(entry);
      } else {
        queue.push(entry);
      }
    }
    this.pump();
    return entry;
  }

  /**
   * Withdraws every waiting call at once (none of them starts, and none is granted in between
   * because another was withdrawn) and returns how many there were. Running calls are left alone.
   */
  cancelWaiting(): number {
    const count = this.waiting.size;
    for (const entry of this.waiting) entry.status = 'cancelled';
    this.waiting.clear();
    this.ready.clear();
    this.queues.clear();
    this.checkIdle();
    return count;
  }

  /** @internal What `ticket.release()` does; reachable only through a ticket (entries are not exported). */
  releaseEntry(entry: Entry): void {
    if (entry.status === 'waiting') {
      this.cancelEntry(entry);
      return;
    }
    if (entry.status !== 'running') return;
    entry.status = 'released';
    this.runningCount -= 1;
    if (this.exclusiveRunning === entry) this.exclusiveRunning = undefined;
    const { resource } = entry.claims;
    if (resource !== '' && this.held.get(resource) === entry) {
      this.held.delete(resource);
      const next = this.queues.get(resource)?.first();
      if (next !== undefined) this.ready.push(next);
    }
    this.pump();
    this.checkIdle();
  }

  /** @internal What `ticket.cancel()` does. */
  cancelEntry(entry: Entry): boolean {
    if (entry.status !== 'waiting') return false;
    entry.status = 'cancelled';
    this.waiting.delete(entry);
    const { resource } = entry.claims;
    if (resource !== '') {
      const queue = this.queues.get(resource)!;
      const at = queue.remove(entry);
      if (queue.length === 0) this.queues.delete(resource);
      else if (at === 0 && !this.held.has(resource)) this.ready.push(queue.first()!);
    }
    this.pump();
    this.checkIdle();
    return true;
  }

  private checkIdle(): void {
    if (this.onIdle !== undefined && this.runningCount === 0 && this.waiting.size === 0) this.onIdle();
  }

  /**
   * Grants every call the rules now allow, one at a time in arrival order; see the class comment.
   * A `start` that releases, withdraws or submits calls (re-entering here) only changes the state
   * the next step reads. A throw from `start` releases that call and is thrown again at the end.
   */
  private pump(): void {
    if (this.pumping) return;
    this.pumping = true;
    let failure: { error: unknown } | undefined;
    try {
      for (let entry = this.takeNext(); entry !== undefined; entry = this.takeNext()) {
        try {
          entry.start();
        } catch (error) {
          this.releaseEntry(entry);
          failure ??= { error };
        }
      }
    } finally {
      this.pumping = false;
    }
    if (failure !== undefined) throw failure.error;
  }

  /**
   * Takes the next call that may start now off the waiting lists and marks it running, or
   * returns `undefined`. Only `ready` calls can start (a later call of a resource waits for the
   * earlier one); the earliest ready call is the earliest waiting call when nothing runs, so an
   * exclusive call at the front starts exactly when nothing runs and nothing waits before it,
   * and one that cannot start yet holds back every later call.
   */
  private takeNext(): Entry | undefined {
    if (this.exclusiveRunning !== undefined) return undefined;
    for (let next = this.ready.peek(); next !== undefined; next = this.ready.peek()) {
      if (next.status !== 'waiting') {
        this.ready.pop();
        continue;
      }
      if (next.claims.exclusive ? this.runningCount > 0 : this.runningCount >= this.maxConcurrent) return undefined;
      this.ready.pop();
      this.take(next);
      return next;
    }
    return undefined;
  }

  /** Moves a ready call from the waiting lists to running. */
  private take(entry: Entry): void {
    this.waiting.delete(entry);
    const { resource } = entry.claims;
    if (resource !== '') {
      const queue = this.queues.get(resource)!;
      queue.shift();
      if (queue.length === 0) this.queues.delete(resource);
    }
    this.grant(entry);
  }

  /** Whether `entry`, with nothing waiting before it, may start now. */
  private mayStartNow(entry: Entry): boolean {
    if (this.exclusiveRunning !== undefined) return false;
    if (entry.claims.exclusive) return this.runningCount === 0;
    if (this.runningCount >= this.maxConcurrent) return false;
    return entry.claims.resource === '' || !this.held.has(entry.claims.resource);
  }

  private grant(entry: Entry): void {
    entry.status = 'running';
    this.runningCount += 1;
    if (entry.claims.exclusive) this.exclusiveRunning = entry;
    else if (entry.claims.resource !== '') this.held.set(entry.claims.resource, entry);
  }

  /** @internal Says what holds `entry` back, judged by the same rules as `takeNext` (`ticket.waitingFor()`). */
  reasonOf(entry: Entry): string {
    const before: Entry[] = [];
    for (const other of this.waiting) {
      if (other === entry) break;
      before.push(other);
    }
    if (entry.claims.exclusive) {
      const count = this.runningCount + before.length;
      const why = entry.claims.kind === 'sequential' ? 'a sequential tool runs alone' : 'a barrier runs alone';
      return `waits for ${count} earlier ${count === 1 ? 'call' : 'calls'} to finish (${why})`;
    }
    const exclusive = this.exclusiveRunning ?? before.find((other) => other.claims.exclusive);
    if (exclusive !== undefined) {
      const what = exclusive.claims.kind === 'sequential' ? 'the sequential tool' : 'the barrier';
      return `waits for ${what} ${JSON.stringify(exclusive.label)} to finish`;
    }
    const { resource } = entry.claims;
    if (resource !== '') {
      const holder = this.held.get(resource);
      const ahead = before.filter((other) => other.claims.resource === resource).at(-1);
      if (ahead !== undefined)
        return `waits for resource ${JSON.stringify(resource)}, behind ${JSON.stringify(ahead.label)}`;
      if (holder !== undefined)
        return `waits for resource ${JSON.stringify(resource)}, held by ${JSON.stringify(holder.label)}`;
    }
    return this.maxConcurrent === 1
      ? 'waits for a free slot (at most 1 call runs at once)'
      : `waits for a free slot (at most ${this.maxConcurrent} calls run at once)`;
  }
}

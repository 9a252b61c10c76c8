import { ToolwrightError, type Call, type CallContext } from '../../contract/index.js';
import { enter } from './admit.js';
import type { CallClaims } from './claims.js';
import { ScopedSchedulers } from './scopes.js';

/** One call asking a `SchedulingStore` for its turn. */
export interface TurnRequest {
  /** Whose calls it is ordered with: `principal:<key>` or `server` (opaque to the store). */
  readonly scope: string;
  readonly claims: CallClaims;
  /** Names the call in texts (the tool's name). */
  readonly label: string;
  /** At most this many calls of the scope run at once. */
  readonly maxConcurrent: number;
  /** Withdraws the call while it waits: the turn's promise rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /** Called once, as a method of the request, when the call cannot start at once, with what it waits for in words. */
  readonly onWait?: (waitingFor: string) => void;
}

/**
 * A turn a call was granted. The caller runs the call, then `release`s the turn (whatever
 * happened; releasing twice does nothing).
 */
export interface HeldTurn {
  /** Gives the turn back, so calls behind it may start. */
  release(): void;
  /**
   * Aborts when the turn is lost while the call runs (a shared store's lease lapsed: the process
   * paused or lost the store for too long), with a `TurnLostError`; absent for a store whose
   * turns are never lost (memory).
   */
  readonly lost?: AbortSignal;
  /**
   * A number that grows with every turn granted in the scope, across every process (a shared
   * store's fencing token): give it to the system the call writes to, which refuses a smaller
   * one than it saw last, so a caller that lost its turn unknowingly cannot overwrite a later one.
   * Absent for the memory store.
   */
  readonly fencingToken?: number;
  /**
   * Asks the store whether the turn is still held, before the call acts; rejects with
   * `TurnLostError` when it is not. Absent for the memory store (a turn is held until released).
   */
  check?(): Promise<void>;
}

/**
 * Where a server's principal and server scheduling scopes keep their turns: the one scheduling
 * model (resource keys never overlap and start in arrival order; an exclusive call runs alone,
 * after every earlier call and before every later one; at most `maxConcurrent` calls of a scope
 * run at once, free slots going in arrival order), kept in this process (`MemorySchedulingStore`,
 * the default) or shared by every process (`RedisSchedulingStore` in `toolwright/redis`).
 */
export interface SchedulingStore {
  /**
   * Resolves (or returns) the turn once the call may start. Rejects with `request.signal`'s
   * reason when it aborts while the call waits (the call is withdrawn), and with the store's
   * error when it cannot be reached.
   */
  enter(request: TurnRequest): HeldTurn | Promise<HeldTurn>;
  /**
   * True for a store shared by several processes: its turns may be lost (see `HeldTurn.lost`),
   * and calls that claim nothing are ordered through it only when the served tools include one
   * that runs alone.
   */
  readonly shared?: boolean;
}

/**
 * The scheduling store of one process: one `Scheduler` per scope (see `ScopedSchedulers`), the
 * default of every server. A call that may start at once gets its turn synchronously (no
 * promise). Turns are never lost.
 */
export class MemorySchedulingStore implements SchedulingStore {
  private readonly scopes: ScopedSchedulers;

  /**
   * `maxConcurrent`: the scopes' bound (each request's own is ignored: a scope keeps the first).
   * Throws as `Scheduler` does.
   */
  constructor(maxConcurrent: number = Number.POSITIVE_INFINITY) {
    this.scopes = new ScopedSchedulers(maxConcurrent);
  }

  enter(request: TurnRequest): HeldTurn | Promise<HeldTurn> {
    return enter(this.scopes.schedulerOf(request.scope), {
      claims: request.claims,
      label: request.label,
      ...(request.signal === undefined ? {} : { signal: request.signal }),
      ...(request.onWait === undefined ? {} : { onWait: (ticket) => request.onWait!(ticket.waitingFor()) }),
    });
  }
}

/**
 * A call's turn in a shared scheduling store was lost while it ran: its lease lapsed before the
 * process renewed it (the process paused, or could not reach the store for longer than the
 * lease), so another call may hold the turn now. The call's signal aborts with it. Code
 * `turn-lost`.
 */
export class TurnLostError extends ToolwrightError {
  override readonly name = 'TurnLostError';

  constructor(label: string, why: string) {
    super('turn-lost', `the turn of tool ${JSON.stringify(label)} was lost (${why}), so another call may run now`);
  }
}

/** The turn each running call holds, by its `Call` (the same object through every context copy). */
const turns = new WeakMap<Call, HeldTurn>();

/** Records that the call `call` runs in `turn` (a host does this as it starts the call). Internal. */
export function bindTurn(call: Call, turn: HeldTurn): void {
  turns.set(call, turn);
}

/**
 * The turn the call of `ctx` runs in, when a server's scheduling granted it one through a store
 * that can lose turns (`RedisSchedulingStore`): its `fencingToken`, and `check()` to ask, before
 * acting, whether the turn is still held. `undefined` for a call without such a turn (no claims,
 * a session scope, the memory store, scheduling off, another host).
 */
export function heldTurnOf(ctx: CallContext): HeldTurn | undefined {
  return turns.get(ctx.call);
}

import type { CallClaims } from './claims.js';
import type { Scheduler, Submission, Ticket } from './scheduler.js';

/** How `admit` submits a call and what it tells its caller. */
export interface AdmitOptions {
  readonly claims: CallClaims;
  /** Names the call in `waitingFor` texts (usually the tool's name). */
  readonly label: string;
  /**
   * Withdraws the call while it waits: the promise rejects with the signal's reason and the call
   * never starts. A signal that aborted before `admit` never queues the call (see `admit`). Read
   * only when the call cannot start at once (a getter that makes the signal on first read makes
   * none for a call that starts at once).
   */
  readonly signal?: AbortSignal;
  /**
   * Called once, synchronously inside `admit`, when the call cannot start at once, with its
   * ticket (read `ticket.waitingFor()` to say why), as a method of these options. Not called for a
   * call that starts at once.
   */
  readonly onWait?: (ticket: Ticket) => void;
}

/**
 * Submits one call to `scheduler` and resolves with its ticket once the call may start (the
 * ticket is then `running`, and the caller must `release` it when the call completed, whatever
 * happened). Rejects with `signal.reason` when the signal aborts while the call still waits: the
 * call is withdrawn and never starts. A call whose signal had aborted before is never queued: it
 * starts when the rules let it start at once (so its work sees the aborted signal and ends
 * itself, exactly as it would with no scheduler), else it is withdrawn at once and the promise
 * rejects with the signal's reason (`onWait` is then not called). A throw from `onWait` is
 * ignored: it never changes the call's place.
 */
export function admit(scheduler: Scheduler, options: AdmitOptions): Promise<Ticket> {
  return Promise.resolve(enter(scheduler, options));
}

/**
 * `admit` without a promise for the common case: returns the running ticket itself when the call
 * starts at once, else a promise that behaves as `admit`'s. For hosts that count microtasks.
 */
export function enter(scheduler: Scheduler, options: AdmitOptions): Ticket | Promise<Ticket> {
  // The signal is read only when the call has to wait (a host may make it on first read).
  const admission = new Admission(options.claims, options.label);
  const ticket = scheduler.submit(admission);
  if (admission.startedAtOnce) return ticket;
  admission.ticket = ticket;
  return new Promise<Ticket>((resolve, reject) => {
    const signal = options.signal;
    const onAbort = (): void => {
      if (ticket.cancel()) reject(signal!.reason);
    };
    admission.settle = (started) => {
      signal?.removeEventListener('abort', onAbort);
      resolve(started);
    };
    if (signal?.aborted === true) {
      ticket.cancel();
      reject(signal.reason);
      return;
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    if (options.onWait !== undefined) {
      try {
        // Called as a method: a class's `onWait` may read its own fields.
        options.onWait(ticket);
      } catch {
        // A reporter's failure never changes the call's place.
      }
    }
  });
}

/**
 * What `enter` submits: a call that starts inside `submit` is marked `startedAtOnce`; one that
 * starts later settles its promise (`settle`, set once the call waits). A class, not a closure
 * per call: a call that starts at once makes this one object.
 */
class Admission implements Submission {
  startedAtOnce = false;
  ticket: Ticket | undefined;
  settle: ((ticket: Ticket) => void) | undefined;

  constructor(
    readonly claims: CallClaims,
    readonly label: string,
  ) {}

  start(): void {
    if (this.settle === undefined) this.startedAtOnce = true;
    else this.settle(this.ticket!);
  }
}

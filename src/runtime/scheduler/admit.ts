import type { CallClaims } from './claims.js';
import type { Scheduler, Ticket } from './scheduler.js';

/** How `admit` submits a call and what it tells its caller. */
export interface AdmitOptions {
  readonly claims: CallClaims;
  /** Names the call in `waitingFor` texts (usually the tool's name). */
  readonly label: string;
  /** Withdraws the call while it waits: the promise rejects with the signal's reason and the call never starts. */
  readonly signal?: AbortSignal;
  /**
   * Called once, synchronously inside `admit`, when the call cannot start at once, with its
   * ticket (read `ticket.waitingFor()` to say why). Not called for a call that starts at once.
   */
  readonly onWait?: (ticket: Ticket) => void;
}

/**
 * Submits one call to `scheduler` and resolves with its ticket once the call may start (the
 * ticket is then `running`, and the caller must `release` it when the call completed, whatever
 * happened). Rejects with `signal.reason` when the signal aborts while the call still waits (the
 * call is withdrawn and never starts) or had aborted before (the call is never submitted). A
 * throw from `onWait` is ignored: it never changes the call's place.
 */
export function admit(scheduler: Scheduler, options: AdmitOptions): Promise<Ticket> {
  const { claims, label, signal, onWait } = options;
  if (signal?.aborted === true) return Promise.reject(signal.reason);
  return new Promise<Ticket>((resolve, reject) => {
    let ticket: Ticket | undefined;
    let startedEarly = false;
    const onAbort = (): void => {
      if (ticket?.cancel() === true) reject(signal!.reason);
    };
    ticket = scheduler.submit({
      claims,
      label,
      start: () => {
        signal?.removeEventListener('abort', onAbort);
        if (ticket === undefined) startedEarly = true;
        else resolve(ticket);
      },
    });
    if (startedEarly) {
      resolve(ticket);
      return;
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    if (onWait !== undefined) {
      try {
        onWait(ticket);
      } catch {
        // A reporter's failure never changes the call's place.
      }
    }
  });
}

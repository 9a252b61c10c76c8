import { wrap, type ContractTool } from '../contract/index.js';
import { AmbiguousOutcomeError } from '../runtime/index.js';
import { raceTimeout } from '../util/timeout.js';

/** The message of a call refused because the application is shutting down. */
export const SHUTTING_DOWN_TEXT = 'the server is shutting down; call again later';

/** The message a call still running when the shutdown's wait ran out ends with. */
export const SHUT_DOWN_MID_CALL_TEXT =
  'the server shut down before the call finished; it may or may not have taken effect';

/** One call in flight: how to end it for its caller when the shutdown stops waiting. */
interface RunningCall {
  readonly settled: Promise<unknown>;
  readonly abandon: (error: Error) => void;
}

/**
 * Counts the calls of a set of tools in flight so that a shutdown can wait for them. `track`
 * wraps tools (see `wrap`: every property kept) so that each call is counted while it runs and,
 * once `drain` has begun, refused with `SHUTTING_DOWN_TEXT`. A call still running when `drain`'s
 * wait runs out is ended for its caller with an `AmbiguousOutcomeError` (code
 * `shut-down-mid-call`, message `SHUT_DOWN_MID_CALL_TEXT`), so the host answers it instead of
 * leaving it silent; the tool itself is not stopped here (closing the transport aborts its signal).
 */
export class CallDrain {
  private readonly running = new Set<RunningCall>();
  private draining = false;

  track(tools: readonly ContractTool[]): ContractTool[] {
    return tools.map((tool) =>
      wrap(tool, (args, ctx, inner) => {
        if (this.draining) return Promise.reject(new Error(SHUTTING_DOWN_TEXT));
        const call = inner.execute(args, ctx);
        return new Promise((resolve, reject) => {
          const running: RunningCall = { settled: call, abandon: reject };
          this.running.add(running);
          call.then(
            (output) => {
              this.running.delete(running);
              resolve(output);
            },
            (error: unknown) => {
              this.running.delete(running);
              reject(error);
            },
          );
        });
      }),
    );
  }

  /**
   * Refuses new calls and resolves once every call in flight settled, or after `timeoutMs`,
   * whichever comes first; at the timeout, every call still running is ended for its caller (see
   * the class). Never rejects.
   */
  async drain(timeoutMs: number): Promise<void> {
    this.draining = true;
    if (this.running.size === 0) return;
    await raceTimeout(Promise.allSettled([...this.running].map((call) => call.settled)), timeoutMs, () => undefined);
    for (const call of [...this.running]) {
      this.running.delete(call);
      call.abandon(new AmbiguousOutcomeError(SHUT_DOWN_MID_CALL_TEXT, { code: 'shut-down-mid-call' }));
    }
  }
}

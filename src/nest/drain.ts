import { wrap, type ContractTool } from '../contract/index.js';
import { MAX_TIMEOUT_MS } from '../util/limits.js';

/** The message of a call refused because the application is shutting down. */
export const SHUTTING_DOWN_TEXT = 'the server is shutting down; call again later';

/**
 * Counts the calls of a set of tools in flight so that a shutdown can wait for them. `track`
 * wraps tools (see `wrap`: every property kept) so that each call is counted while it runs and,
 * once `drain` has begun, refused with `SHUTTING_DOWN_TEXT`.
 */
export class CallDrain {
  private readonly running = new Set<Promise<unknown>>();
  private draining = false;

  track(tools: readonly ContractTool[]): ContractTool[] {
    return tools.map((tool) =>
      wrap(tool, (args, ctx, inner) => {
        if (this.draining) return Promise.reject(new Error(SHUTTING_DOWN_TEXT));
        const call = inner.execute(args, ctx);
        this.running.add(call);
        const forget = (): void => void this.running.delete(call);
        call.then(forget, forget);
        return call;
      }),
    );
  }

  /** Refuses new calls and resolves once every call in flight settled, or after `timeoutMs`, whichever comes first. */
  async drain(timeoutMs: number): Promise<void> {
    this.draining = true;
    if (this.running.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.min(timeoutMs, MAX_TIMEOUT_MS))));
    await Promise.race([Promise.allSettled([...this.running]), timeout]);
    clearTimeout(timer);
  }
}

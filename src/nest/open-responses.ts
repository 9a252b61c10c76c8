import type { ServerResponse } from 'node:http';
import { raceTimeout } from '../util/timeout.js';

/**
 * The HTTP responses of MCP POST requests still being written (a `tools/call`'s answer leaves on
 * its POST's response, which ends once every request of that POST is answered), so a shutdown can
 * wait until the answers of the calls it drained were really written before it closes the
 * sessions. A GET (the 2025-era session stream, open as long as the session) is never tracked.
 */
export class OpenResponses {
  private readonly open = new Set<ServerResponse>();
  private readonly waiters = new Set<() => void>();

  /** Tracks `res` until it closes (finished, or abandoned by the client). */
  track(res: ServerResponse): void {
    if (res.destroyed || res.writableFinished) return;
    this.open.add(res);
    res.once('close', () => {
      this.open.delete(res);
      if (this.open.size === 0) for (const wake of [...this.waiters]) wake();
    });
  }

  /** Resolves once no tracked response is open, or after `timeoutMs`, whichever comes first; never rejects. */
  async closed(timeoutMs: number): Promise<void> {
    if (this.open.size === 0) return;
    let wake!: () => void;
    const emptied = new Promise<void>((resolve) => (wake = resolve));
    this.waiters.add(wake);
    await raceTimeout(emptied, timeoutMs, () => undefined);
    this.waiters.delete(wake);
  }
}

import type { ServerResponse } from 'node:http';
import { raceTimeout } from '../../../util/timeout.js';
import type { PostBody } from './post-body.js';

/**
 * The POSTs of one HTTP handler that carry requests still being answered (a `tools/call`, a
 * `resources/read`, ...; not a `subscriptions/listen` stream, which never ends by itself), so a
 * shutdown can wait for them. A POST counts from when its body was read until its response
 * closed.
 */
export class PostsInFlight {
  private count = 0;
  private readonly idle = new Set<() => void>();

  /** How many such POSTs are open now. */
  get size(): number {
    return this.count;
  }

  /** Counts `res` until it closes, when `body` carries a request other than `subscriptions/listen`. */
  track(res: ServerResponse, body: PostBody): void {
    if (!carriesRequest(body)) return;
    this.count += 1;
    res.once('close', () => {
      this.count -= 1;
      if (this.count === 0) for (const done of [...this.idle]) done();
    });
  }

  /** Resolves once no such POST is open, or after `timeoutMs`, whichever comes first. Never rejects. */
  async settled(timeoutMs: number): Promise<void> {
    if (this.count === 0) return;
    let done!: () => void;
    const idle = new Promise<void>((resolve) => (done = resolve));
    this.idle.add(done);
    try {
      await raceTimeout(idle, timeoutMs, () => undefined);
    } finally {
      this.idle.delete(done);
    }
  }
}

/** True when a JSON-RPC body (one message or a batch) holds a request that ends by itself. */
function carriesRequest(body: PostBody): boolean {
  return body.messages.some((message) => {
    if (typeof message !== 'object' || message === null) return false;
    const { method, id } = message as { method?: unknown; id?: unknown };
    return typeof method === 'string' && id !== undefined && method !== 'subscriptions/listen';
  });
}

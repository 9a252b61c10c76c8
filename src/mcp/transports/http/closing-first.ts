import type { HttpHandle } from './listen-http.js';

/**
 * The same endpoint as `handle`, whose `close()` first starts `beforeClose` (stopping what the
 * endpoint's servers share, such as parked calls and a relay's subscription), then closes the
 * endpoint, and resolves once both are done. Calling `close()` again returns the same promise.
 * `shutdown()` drains the endpoint first, then closes so. The other members read through to `handle`.
 */
export function closingFirst(handle: HttpHandle, beforeClose: () => void | Promise<void>): HttpHandle {
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      const before = beforeClose();
      await handle.close();
      await before;
    })());
  return {
    get url() {
      return handle.url;
    },
    get port() {
      return handle.port;
    },
    get server() {
      return handle.server;
    },
    get sessionCount() {
      return handle.sessionCount;
    },
    close,
    drain: (timeoutMs?: number) => handle.drain(timeoutMs),
    shutdown: async (timeoutMs?: number) => {
      await handle.drain(timeoutMs);
      await close();
    },
  };
}

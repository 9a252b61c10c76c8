import type { HttpHandle } from './listen-http.js';

/**
 * The same endpoint as `handle`, whose `close()` first runs `beforeClose` (stopping what the
 * endpoint's servers share, such as parked calls), then closes the endpoint. The other members
 * read through to `handle`.
 */
export function closingFirst(handle: HttpHandle, beforeClose: () => void): HttpHandle {
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
    close: () => {
      beforeClose();
      return handle.close();
    },
  };
}

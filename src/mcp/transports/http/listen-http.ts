import { createServer as createNodeServer, type Server as NodeServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServerFactory } from '../server-factory.js';
import { httpHandlerOf, type HttpHandlerOptions } from './http-handler.js';
import { DEFAULT_SHUTDOWN_TIMEOUT_MS } from '../stdio/connect-stdio.js';

/**
 * How long `listenHttp` keeps an idle keep-alive connection open (65 s, longer than any common
 * client's own idle timeout, so the client always closes an idle connection first).
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** Options of `listenHttp` and `serveHttp`: the handler's, plus where to listen. */
export interface HttpOptions extends HttpHandlerOptions {
  /** The interface to bind. Default `127.0.0.1` (loopback only, as the MCP spec advises for local servers). */
  readonly host?: string;
  /** The port; `0` (the default) picks a free one, reported by the handle. */
  readonly port?: number;
  /** The endpoint path. Default `/mcp`; other paths get 404. */
  readonly path?: string;
}

/** A listening MCP HTTP server. */
export interface HttpHandle {
  /** The endpoint URL, e.g. `http://127.0.0.1:54321/mcp` (a wildcard host is shown as loopback). */
  readonly url: string;
  /** The port actually bound. */
  readonly port: number;
  /** The node server, for inspection (do not call its `close`, call the handle's). */
  readonly server: NodeServer;
  /** How many sessions are open. */
  readonly sessionCount: number;
  /**
   * Stops listening, closes every session's server (aborting in-flight calls) and every
   * connection, and resolves when the port is free. Calling it again returns the same promise.
   */
  close(): Promise<void>;
  /**
   * Readiness answers 503 `draining` from now on, and this resolves once no request is being
   * answered (a `subscriptions/listen` stream does not count) or after `timeoutMs` (default
   * `DEFAULT_SHUTDOWN_TIMEOUT_MS`); nothing is refused or closed. `shutdown` is this, then `close()`.
   */
  drain(timeoutMs?: number): Promise<void>;
  /**
   * A graceful stop, for SIGTERM: readiness answers 503 `draining` at once (a balancer checking
   * it takes the process out of rotation) while requests are still served, then, once no
   * request is being answered or `timeoutMs` passed (default `DEFAULT_SHUTDOWN_TIMEOUT_MS`,
   * 5 s), `close()`. Bounded: it ends within `timeoutMs` plus the time `close()` takes, which is
   * bounded too (a shared store that cannot be reached is given up on).
   */
  shutdown(timeoutMs?: number): Promise<void>;
}

/**
 * Listens on `node:http` and serves MCP with `createHttpHandler(factory, options)` at `path`
 * (default `/mcp`) on `host` (default `127.0.0.1`) and `port` (default `0`, ephemeral).
 * Resolves once listening; rejects with the listen error (`EADDRINUSE`, ...).
 * Binding a non-loopback host does not widen the `Host` allowlist: add the names clients use
 * to `allowedHosts`.
 */
export async function listenHttp(factory: ServerFactory, options: HttpOptions = {}): Promise<HttpHandle> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  let url = '';
  // With auth and no resource given, tokens must be issued for the URL this listens on.
  const auth =
    options.auth === undefined || options.auth.resource !== undefined
      ? options.auth
      : { ...options.auth, resource: () => url };
  const handler = httpHandlerOf(factory, { ...options, path, ...(auth !== undefined ? { auth } : {}) });
  const server = createNodeServer(handler);
  // Idle keep-alive connections are closed by the client first (undici and browsers give up
  // after 4-5 s): a server that closes first races the client's next request on that socket,
  // which then fails with ECONNRESET ("other side closed"), as seen under load.
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  url = `http://${urlHost(host)}:${port}${path}`;
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      await handler.close();
      server.closeAllConnections();
      await stopped;
    })());
  return {
    url,
    port,
    server,
    get sessionCount() {
      return handler.sessionCount;
    },
    close,
    drain: (timeoutMs = DEFAULT_SHUTDOWN_TIMEOUT_MS) => handler.drain(timeoutMs),
    shutdown: async (timeoutMs = DEFAULT_SHUTDOWN_TIMEOUT_MS) => {
      await handler.drain(timeoutMs);
      await close();
    },
  };
}

function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

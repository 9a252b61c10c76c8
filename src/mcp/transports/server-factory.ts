import type { Server } from '@modelcontextprotocol/server';
import type { ModernToolCalls } from '../server/modern-tool-calls.js';

/**
 * Builds a fresh, unconnected SDK `Server` (`@modelcontextprotocol/server`) for one connection:
 * once for a stdio connection (twice when a 2026-07-28 client's `server/discover` probe is
 * followed by a 2025 `initialize`: the probe's server is discarded), once per session on stateful
 * HTTP, once per request on stateless HTTP (unless the factory is marked with
 * `withResettableServers`) and for every 2026-07-28 request (but a plain `tools/call` or
 * `tools/list` of a factory marked with `withModernToolCalls`). A transport owns every server it
 * builds: it connects it, and it closes it when the connection ends, which aborts the signals of
 * the server's in-flight calls. A factory must never hand out the same `Server` twice (the SDK
 * refuses to connect a server that is already connected).
 */
export type ServerFactory = () => Server;

const resettable = new WeakMap<ServerFactory, () => number>();

/**
 * Marks `factory` (and returns it) as one whose servers keep nothing of a client outside
 * toolwright's own per-server state, which `forgetConnection` forgets: every server it builds is
 * `serverFor`'s, with no handler of the application's own. Stateless 2025-era HTTP may then hand
 * one such server to one POST after another instead of building one per POST (see
 * `createStatelessLeg`), as long as `generation()` (a number that changes whenever the served set
 * does, since a server's handlers and capabilities are the set's when it is built) is what it was
 * when the server was built. Internal: `serveHttp` marks its factory; a factory given to
 * `createHttpHandler` or `listenHttp` is never marked, so its servers are never reused.
 */
export function withResettableServers<F extends ServerFactory>(factory: F, generation: () => number): F {
  resettable.set(factory, generation);
  return factory;
}

/** Whether `factory` was marked with `withResettableServers`. */
export function buildsResettableServers(factory: ServerFactory): boolean {
  return resettable.has(factory);
}

/** The served set's generation of a factory marked with `withResettableServers`, else `undefined`. */
export function generationOf(factory: ServerFactory): (() => number) | undefined {
  return resettable.get(factory);
}

const modernCalls = new WeakMap<ServerFactory, ModernToolCalls>();

/**
 * Marks `factory` (and returns it) as one whose 2026-07-28 HTTP servers answer `tools/call` as
 * `calls` does without a server (see `modernToolCallsOf`), so the HTTP edge may answer a plain
 * 2026-07-28 `tools/call` with `calls` instead of building a server for it (see
 * `serveToolCallDirectly`). Internal: only `serveHttp` marks its factory.
 */
export function withModernToolCalls<F extends ServerFactory>(factory: F, calls: ModernToolCalls): F {
  modernCalls.set(factory, calls);
  return factory;
}

/**
 * What answers the 2026-07-28 `tools/call` requests of a factory marked with
 * `withModernToolCalls`, else `undefined`.
 */
export function modernToolCallsFor(factory: ServerFactory): ModernToolCalls | undefined {
  return modernCalls.get(factory);
}

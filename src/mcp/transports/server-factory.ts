import type { Server } from '@modelcontextprotocol/server';

/**
 * Builds a fresh, unconnected SDK `Server` (`@modelcontextprotocol/server`) for one connection:
 * once for a stdio connection (twice when a 2026-07-28 client's `server/discover` probe is
 * followed by a 2025 `initialize`: the probe's server is discarded), once per session on stateful
 * HTTP, once per request on stateless HTTP and for every 2026-07-28 request. A transport owns every server it
 * builds: it connects it, and it closes it when the connection ends, which aborts the signals of
 * the server's in-flight calls. A factory must never hand out the same `Server` twice (the SDK
 * refuses to connect a server that is already connected).
 */
export type ServerFactory = () => Server;

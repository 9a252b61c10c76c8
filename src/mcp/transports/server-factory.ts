import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

/**
 * Builds a fresh, unconnected SDK `Server` for one connection: once for a stdio process, once per
 * session on stateful HTTP, once per request on stateless HTTP. A transport owns every server it
 * builds: it connects it, and it closes it when the connection ends, which aborts the signals of
 * the server's in-flight calls. A factory must never hand out the same `Server` twice (the SDK
 * refuses to connect a server that is already connected).
 */
export type ServerFactory = () => Server;

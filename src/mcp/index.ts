/**
 * `toolwright/mcp`: the MCP edge. Servers (`createServer`, `addTools`), transports (stdio and
 * streamable HTTP), the consumer of other servers' tools, the proxy, and the HTTP edge's OAuth.
 *
 * @module toolwright/mcp
 */
export * from './server/index.js';
export * from './transports/index.js';
export * from './client/index.js';
export * from './proxy/index.js';
export * from './auth/index.js';

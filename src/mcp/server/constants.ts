/**
 * The wire names toolwright shares with other hosts of the same tool contract (the Go
 * `mcpserver`/`mcpclient` packages). They are byte-for-byte fixed: changing one breaks
 * interoperation.
 */

/** The JSON-RPC method a client asks a whole batch's facts and replay answers with. */
export const FACTS_METHOD = 'execution/facts';

/** The experimental capability (value `{}`) that advertises `execution/facts`. */
export const FACTS_CAPABILITY = 'io.github.christopherdavenport.agenttool/facts';

/** The `_meta` key on a listed tool that carries its claims (facts, replay, sequential, ...). */
export const TOOL_META_KEY = 'io.github.christopherdavenport.agenttool/tool';

/** The `_meta` key on a call result that carries the tool's record (`{ns, data}`, data a JSON string). */
export const RECORD_META_KEY = 'io.github.christopherdavenport.agenttool/record';

/**
 * The request `_meta` key of a `tools/call` that carries the call's idempotency key (a non-empty
 * string of at most 256 characters, opaque, minted by the calling harness). MCP itself has no
 * idempotency key: a host that does not know this key ignores it. A toolwright server hands it to
 * the tool as `ctx.call.idempotencyKey`, and with a `replay` store deduplicates the calls of
 * `keyed` tools on it (see `ServerOptions.replay`); toolwright's consumer sends it for every call
 * that has one.
 */
export const IDEMPOTENCY_KEY_META = 'io.github.christopherdavenport.agenttool/idempotency-key';

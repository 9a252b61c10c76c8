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

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isJsonObject, type Call } from '../../contract/index.js';
import { kindOf } from '../../util/describe.js';
import type { CallEnd } from '../../runtime/call/index.js';
import { mcpCallContextOf, type ContextServer } from './call-context.js';
import { RECORD_META_KEY } from './constants.js';
import { contentOf } from './content.js';
import { errorTextOf } from './error-text.js';
import type { HandlerExtra } from './extra.js';
import { wireRecordOf } from './record.js';
import type { ServedTool } from './served-tools.js';
import type { ServerState } from './state.js';
import { invalidParams } from './protocol-error.js';

/** The result MCP sends for a failed call: `isError` with the failure's text, nothing else. */
export function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/**
 * The MCP result of a call's end, exactly as every toolwright host sends it: a failure is
 * `isError` with its message as the one text block (see `errorTextOf`; a `ToolError`'s details
 * never cross); a result gives its content and structured content (see `contentOf`), `isError`
 * when the tool marked it so, and its record as `_meta[RECORD_META_KEY]` (see `wireRecordOf`; a
 * record that cannot be made never fails the call).
 */
export function mcpResultOf(end: CallEnd): CallToolResult {
  if (!end.ok) return errorResult(errorTextOf(end.error));
  const result = end.result;
  const answer: CallToolResult = { ...contentOf(result) };
  if (result.isError === true) answer.isError = true;
  if (result.record !== undefined) answer._meta = { [RECORD_META_KEY]: wireRecordOf(result.record) };
  return answer;
}

/**
 * Checks the params of a `tools/call` and finds its tool. An unknown tool is a protocol error
 * (`-32602`, `Unknown tool: <name>`), as are a missing name or non-object arguments (a
 * transport-level refusal: MCP's `arguments` is an object); missing arguments are `{}`.
 */
export function toolCallOf(tools: ReadonlyMap<string, ServedTool>, params: unknown): { readonly served: ServedTool; readonly args: Record<string, unknown> } {
  const given = (isJsonObject(params) ? params : {}) as { name?: unknown; arguments?: unknown };
  if (typeof given.name !== 'string') throw invalidParams(`tools/call: params.name must be a string, got ${kindOf(given.name)}`);
  const served = tools.get(given.name);
  if (served === undefined) throw invalidParams(`Unknown tool: ${given.name}`);
  const args = given.arguments ?? {};
  if (!isJsonObject(args)) throw invalidParams(`tools/call: params.arguments must be an object, got ${kindOf(args)}`);
  return { served, args };
}

/**
 * Answers one `tools/call`: the params are checked (see `toolCallOf`), then the call core runs
 * the call (see `runToolCall`: validation, permissions, interceptors, time limit, `execute`,
 * output check, bounds, records) with the request's context, and its end becomes the MCP result
 * (see `mcpResultOf`). When the request is cancelled the SDK sends no response at all, whatever
 * this returns.
 */
export async function answerToolCall(server: ContextServer, state: ServerState, params: unknown, extra: HandlerExtra): Promise<CallToolResult> {
  // A request whose params._meta is malformed never gets here: the SDK's Protocol drops any
  // message its JSON-RPC schema refuses (and the transports answer it -32600 first).
  const { served, args } = toolCallOf(state.tools, params);
  const call: Call = { id: String(extra.requestId), tool: served.prepared.name, args };
  const { ctx, finish } = mcpCallContextOf(server, state, extra, call);
  try {
    return mcpResultOf(await served.prepared.call(args, ctx));
  } finally {
    finish();
  }
}

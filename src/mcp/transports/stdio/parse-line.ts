import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/server';
import { JsonRpcCode, jsonRpcError, type JsonRpcErrorBody } from '../jsonrpc-error.js';
import { standInForBadResponse, toJsonRpcMessage } from '../jsonrpc-shape.js';

/** What one stdin line turned out to be. */
export type ParsedLine =
  | { readonly kind: 'message'; readonly message: JSONRPCMessage }
  | { readonly kind: 'blank' }
  | { readonly kind: 'invalid'; readonly answer: JsonRpcErrorBody };

const BLANK: ParsedLine = { kind: 'blank' };

/** The message answered to a line that is not JSON. */
export const PARSE_ERROR_MESSAGE = 'Parse error';
/** The message answered to a JSON array (batches left MCP in 2025-06-18; stdio never took them). */
export const BATCH_REJECTED_MESSAGE = 'Invalid Request: batches are not supported';
/** The message answered to JSON that is not a JSON-RPC 2.0 request, notification or response. */
export const INVALID_REQUEST_MESSAGE = 'Invalid Request: not a JSON-RPC 2.0 message';

/**
 * Classifies one line read from stdin. Where the SDK's stdio transport silently drops a bad line,
 * this answers as JSON-RPC 2.0 asks: a line that is not JSON is answered `-32700 Parse error` with
 * id `null`; JSON that is not a JSON-RPC message (`{"foo":1}`, `"jsonrpc":"1.0"`, an id that is
 * `null` or an object, a batch array) is answered `-32600 Invalid Request`, carrying the line's
 * `id` when that id is a string or a number and `null` otherwise. A blank line is ignored (no
 * answer), as line-based peers use it harmlessly. A malformed response (a reply whose `result`
 * is not an object, say) is never answered: it becomes the error response of
 * `standInForBadResponse`, so the request it replies to fails at once. Nothing here throws.
 */
export function parseLine(line: string): ParsedLine {
  // A line that opens an object (every message) is not blank: only others are trimmed to see.
  if (line.charCodeAt(0) !== 0x7b && line.trim() === '') return BLANK;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { kind: 'invalid', answer: jsonRpcError(JsonRpcCode.ParseError, PARSE_ERROR_MESSAGE) };
  }
  if (Array.isArray(value)) {
    return { kind: 'invalid', answer: jsonRpcError(JsonRpcCode.InvalidRequest, BATCH_REJECTED_MESSAGE) };
  }
  const message = toJsonRpcMessage(value);
  if (message === undefined) {
    const standIn = standInForBadResponse(value);
    if (standIn !== undefined) return { kind: 'message', message: standIn };
    return {
      kind: 'invalid',
      answer: jsonRpcError(JsonRpcCode.InvalidRequest, INVALID_REQUEST_MESSAGE, usableId(value)),
    };
  }
  return { kind: 'message', message };
}

/** The `id` of a rejected message when JSON-RPC allows echoing it, else `null`. */
function usableId(value: unknown): RequestId | null {
  if (typeof value !== 'object' || value === null || !Object.hasOwn(value, 'id')) return null;
  const id = (value as { id: unknown }).id;
  if (typeof id === 'string') return id;
  if (typeof id === 'number' && Number.isFinite(id)) return id;
  return null;
}

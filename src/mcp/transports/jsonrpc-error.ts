import type { RequestId } from '@modelcontextprotocol/server';

/** A JSON-RPC 2.0 error response, as the transports write it (the `id` is `null` when unknown). */
export interface JsonRpcErrorBody {
  readonly jsonrpc: '2.0';
  readonly error: { readonly code: number; readonly message: string };
  readonly id: RequestId | null;
}

/** JSON-RPC 2.0 error codes the transports answer with themselves. */
export const JsonRpcCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  /** The MCP SDK's generic transport error (`Forbidden`, `Bad Request`, `Not Acceptable`, ...). */
  ServerError: -32000,
  /** The MCP SDK's code for an unknown or ended session. */
  SessionNotFound: -32001,
  InternalError: -32603,
} as const;

/**
 * Builds a JSON-RPC error response body. The key order (`jsonrpc`, `error`, `id`) matches the
 * SDK's own transport errors, so every error a client sees from toolwright looks the same.
 */
export function jsonRpcError(code: number, message: string, id: RequestId | null = null): JsonRpcErrorBody {
  return { jsonrpc: '2.0', error: { code, message }, id };
}

/** A map key for a JSON-RPC id that keeps `1` and `"1"` apart. */
export function requestIdKey(id: RequestId): string {
  return `${typeof id}:${String(id)}`;
}

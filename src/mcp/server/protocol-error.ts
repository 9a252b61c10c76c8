import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';

/**
 * A JSON-RPC error a handler throws: the SDK sends `{code, message}` as given. Unlike the SDK's
 * `McpError`, the message is not prefixed with `MCP error <code>:` on the wire (the receiving
 * SDK adds that prefix once, when it turns the error back into an `McpError`).
 */
export class ProtocolError extends Error {
  override readonly name = 'ProtocolError';
  readonly code: number;

  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

/** A `-32602 Invalid params` error with `message`. */
export function invalidParams(message: string): ProtocolError {
  return new ProtocolError(ErrorCode.InvalidParams, message);
}

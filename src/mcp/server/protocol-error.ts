import { ProtocolErrorCode } from '@modelcontextprotocol/server';

/**
 * A JSON-RPC error a handler throws: the SDK sends `{code, message, data?}` as given. Unlike the
 * SDK's `ProtocolError`, the message is not prefixed with `MCP error <code>:` on the wire (the
 * receiving SDK adds that prefix once, when it turns the error back into an error object).
 */
export class ProtocolError extends Error {
  override readonly name = 'ProtocolError';
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

/** A `-32602 Invalid params` error with `message`. */
export function invalidParams(message: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, message);
}

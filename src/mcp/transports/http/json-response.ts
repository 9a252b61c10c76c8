import type { ServerResponse } from 'node:http';
import { jsonRpcError } from '../jsonrpc-error.js';

/**
 * Answers an HTTP request with a JSON-RPC error body (`{"jsonrpc":"2.0","error":{...},"id":null}`,
 * `Content-Type: application/json`), the one shape every error of the HTTP transport takes: never
 * HTML, never a stack. Does nothing when the response has already started (it cannot be changed
 * then; the caller destroys it if it must).
 */
export function sendJsonError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  if (res.headersSent) return;
  const body = JSON.stringify(jsonRpcError(code, message));
  res.writeHead(status, { ...headers, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

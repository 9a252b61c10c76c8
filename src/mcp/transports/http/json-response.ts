import type { ServerResponse } from 'node:http';
import type { RequestId } from '@modelcontextprotocol/server';
import { jsonRpcError } from '../jsonrpc-error.js';

/** Extra response headers: names as they should be sent, values as strings. */
export type ResponseHeaders = Readonly<Record<string, string>>;

/**
 * Answers an HTTP request with a JSON body: `body` serialised with `JSON.stringify`, sent with
 * `status`, `headers`, `Content-Type: application/json` and its `Content-Length`, in one write.
 * `head` (for a HEAD request) sends the headers only. The one place the HTTP edge writes JSON it
 * made itself (errors, OAuth answers, metadata documents). Does nothing when the response has
 * already started (it cannot be changed then; the caller destroys it if it must).
 */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: ResponseHeaders = {},
  head = false,
): void {
  if (res.headersSent) return;
  sendJsonText(res, status, JSON.stringify(body), headers, head);
}

/**
 * `sendJson` for a body whose JSON text is made already (`text`): the same status line, headers
 * and body as `sendJson` with a body whose `JSON.stringify` is `text`. Does nothing when the
 * response has already started.
 */
export function sendJsonText(
  res: ServerResponse,
  status: number,
  text: string,
  headers: ResponseHeaders = {},
  head = false,
): void {
  if (res.headersSent) return;
  res.writeHead(status, { ...headers, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(head ? undefined : text);
}

/**
 * Answers an HTTP request with a JSON-RPC error body (`{"jsonrpc":"2.0","error":{...},"id":...}`,
 * `id` `null` unless the error answers a known request), the one shape every error of the HTTP
 * transport takes: never HTML, never a stack. See `sendJson`.
 */
export function sendJsonError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: ResponseHeaders = {},
  id: RequestId | null = null,
): void {
  sendJson(res, status, jsonRpcError(code, message, id), headers);
}

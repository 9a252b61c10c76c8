import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { isJsonObject } from '../../contract/index.js';
import { errorText } from '../../util/describe.js';
import { isPositiveInteger } from '../../util/limits.js';
import { JsonRpcCode } from './jsonrpc-error.js';
import { invalidOption } from '../../util/options.js';

/**
 * Default largest serialised message a transport sends, in bytes (8 MiB). The official SDK's
 * stdio reader gives up on a connection whose buffer passes 10 MiB, so one message bigger than
 * that kills the client's session; 8 MiB leaves room for what else is buffered with it.
 */
export const DEFAULT_MAX_MESSAGE_BYTES = 8 * 1024 * 1024;

/** What `serialiseOutgoing` made of a message: the JSON text to send, or why nothing can be sent. */
export type Outgoing =
  /** Send `json` (the message's own, or its stand-in's when `replaced` says why). */
  | { readonly kind: 'send'; readonly json: string; readonly message: JSONRPCMessage; readonly replaced?: string }
  /** Send nothing: a request or notification that cannot be sent, and why. */
  | { readonly kind: 'drop'; readonly why: string };

/**
 * Checks `maxMessageBytes` as the transports take it: a positive integer, or `Infinity` for no
 * limit; `undefined` is the default. Throws an `InvalidOptionError` naming `where` and the bad
 * value.
 */
export function maxMessageBytesOf(given: number | undefined, where: string): number {
  const value = given ?? DEFAULT_MAX_MESSAGE_BYTES;
  if (!(isPositiveInteger(value) || value === Infinity))
    throw invalidOption(where, 'maxMessageBytes', 'a positive integer number of bytes or Infinity', value);
  return value;
}

/**
 * Serialises one outgoing message, making sure every request still gets exactly one answer.
 * When the message cannot be serialised (a `BigInt`, a cycle: `JSON.stringify` throws) or its
 * JSON is longer than `maxBytes` UTF-8 bytes:
 * - a response whose result is a tool result (it has a `content` array) is replaced by an
 *   `isError` result with one text block saying why: `the result cannot be sent: it cannot be
 *   serialised to JSON (<reason>)` or `the result cannot be sent: its message is <n> bytes, over
 *   the transport's limit of <max> bytes (maxMessageBytes); bound the tool's output with
 *   maxOutputChars or @MaxOutput`;
 * - any other response is replaced by a JSON-RPC error `-32603` with that same text;
 * - a request or a notification is dropped (`drop`: `the <method> message cannot be sent:
 *   <reason>`): the caller rejects the send, so a server-to-client request fails and the tool
 *   that made it sees why.
 * It never throws.
 */
export function serialiseOutgoing(message: JSONRPCMessage, maxBytes: number): Outgoing {
  const problem = problemOf(message, maxBytes);
  if (problem.json !== undefined) return { kind: 'send', json: problem.json, message };
  const id = (message as { id?: unknown }).id;
  if ('method' in message)
    return {
      kind: 'drop',
      why: `the ${(message as { method: string }).method} message cannot be sent: ${problem.why}`,
    };
  const why = `the result cannot be sent: ${problem.why}`;
  if (typeof id !== 'string' && typeof id !== 'number') return { kind: 'drop', why };
  const result = (message as { result?: unknown }).result;
  const replacement = (
    isJsonObject(result) && Array.isArray(result.content)
      ? { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: why }], isError: true } }
      : { jsonrpc: '2.0', id, error: { code: JsonRpcCode.InternalError, message: why } }
  ) as JSONRPCMessage;
  return { kind: 'send', json: JSON.stringify(replacement), message: replacement, replaced: why };
}

function problemOf(
  message: JSONRPCMessage,
  maxBytes: number,
): { json: string; why?: undefined } | { json?: undefined; why: string } {
  let json: string | undefined;
  try {
    json = JSON.stringify(message);
  } catch (error) {
    return { why: `it cannot be serialised to JSON (${firstLine(errorText(error))})` };
  }
  if (json === undefined) return { why: 'it has no JSON form' };
  // A UTF-8 byte is at most 3 per UTF-16 unit: count bytes only when the length could pass.
  if (maxBytes !== Infinity && json.length * 3 > maxBytes) {
    const bytes = Buffer.byteLength(json, 'utf8');
    if (bytes > maxBytes) {
      return {
        why: `its message is ${bytes} bytes, over the transport's limit of ${maxBytes} bytes (maxMessageBytes); bound the tool's output with maxOutputChars or @MaxOutput`,
      };
    }
  }
  return { json };
}

function firstLine(text: string): string {
  const end = text.indexOf('\n');
  return end === -1 ? text : text.slice(0, end);
}

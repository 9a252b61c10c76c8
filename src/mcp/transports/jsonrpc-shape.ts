import {
  isJSONRPCRequest,
  parseJSONRPCMessage,
  RELATED_TASK_META_KEY,
  type JSONRPCMessage,
  type JSONRPCRequest,
} from '@modelcontextprotocol/server';
import { isJsonObject } from '../../contract/index.js';
import { kindOf } from '../../util/describe.js';

/**
 * Cheap checks of JSON-RPC message shapes for the transports' hot paths. The SDK's own checks
 * (`isJSONRPCRequest`, `parseJSONRPCMessage`, ...) run a zod parse each, several per
 * message; these read a few keys instead. They never accept what the SDK's schema refuses:
 * anything the quick check is not sure of goes to the SDK's schema.
 */

/** What an already-valid message is. */
export type MessageKind = 'request' | 'notification' | 'response';

/**
 * The kind of a message known to be valid JSON-RPC (one the SDK built, or one `toJsonRpcMessage`
 * accepted): a `method` with an `id` is a request, a `method` alone a notification, anything
 * else (`result` or `error`) a response.
 */
export function messageKind(message: JSONRPCMessage): MessageKind {
  if ('method' in message) return 'id' in message ? 'request' : 'notification';
  return 'response';
}

const REQUEST_KEYS: ReadonlySet<string> = new Set(['jsonrpc', 'id', 'method', 'params']);
const NOTIFICATION_KEYS: ReadonlySet<string> = new Set(['jsonrpc', 'method', 'params']);
const RESULT_KEYS: ReadonlySet<string> = new Set(['jsonrpc', 'id', 'result']);

/**
 * Returns `value` as a JSON-RPC message when it is one, else `undefined`, with exactly the
 * verdict of the SDK's `parseJSONRPCMessage`. The common shapes (a request or notification
 * whose params carry no `_meta`, a result without `_meta`) are recognised by reading their keys;
 * every other value is handed to the SDK's schema, whose parsed copy is returned.
 */
export function toJsonRpcMessage(value: unknown): JSONRPCMessage | undefined {
  if (isJsonObject(value) && value.jsonrpc === '2.0') {
    const keys = Object.keys(value);
    if (typeof value.method === 'string' && plainParams(value.params)) {
      if (
        'id' in value
          ? isRequestId(value.id) && keys.every((k) => REQUEST_KEYS.has(k))
          : keys.every((k) => NOTIFICATION_KEYS.has(k))
      ) {
        return value as unknown as JSONRPCMessage;
      }
    } else if (
      isRequestId(value.id) &&
      isJsonObject(value.result) &&
      !('_meta' in value.result) &&
      keys.every((k) => RESULT_KEYS.has(k))
    ) {
      return value as unknown as JSONRPCMessage;
    }
  }
  try {
    return parseJSONRPCMessage(value);
  } catch {
    return undefined;
  }
}

/**
 * True when `value` is a JSON-RPC request by the SDK's schema, with exactly the verdict of the
 * SDK's `isJSONRPCRequest`. The common shape (only the keys `jsonrpc` `"2.0"`, a string or safe
 * integer `id`, a string `method` and `params`, a plain object whose `_meta`, when present, is a
 * plain object with no malformed `progressToken` and no related-task key) is recognised by reading
 * its keys; every other value is handed to the SDK's schema.
 */
export function isJsonRpcRequest(value: unknown): value is JSONRPCRequest {
  if (
    isJsonObject(value) &&
    value.jsonrpc === '2.0' &&
    typeof value.method === 'string' &&
    isSafeRequestId(value.id) &&
    Object.keys(value).every((k) => REQUEST_KEYS.has(k)) &&
    plainRequestParams(value.params)
  )
    return true;
  return isJSONRPCRequest(value);
}

/** A string or a safe integer: what the SDK's schema takes as an id or a progress token, surely. */
function isSafeRequestId(id: unknown): boolean {
  return typeof id === 'string' || Number.isSafeInteger(id);
}

/** Params the SDK's request schema surely accepts: none, or a plain object with a plain `_meta` (if any) it accepts. */
function plainRequestParams(params: unknown): boolean {
  if (params === undefined) return true;
  if (!isJsonObject(params)) return false;
  const meta = params._meta;
  if (meta === undefined) return true;
  if (!isJsonObject(meta) || RELATED_TASK_META_KEY in meta) return false;
  return meta.progressToken === undefined || isSafeRequestId(meta.progressToken);
}

function isRequestId(id: unknown): boolean {
  return typeof id === 'string' || Number.isInteger(id);
}

function plainParams(params: unknown): boolean {
  return params === undefined || (isJsonObject(params) && !('_meta' in params));
}

/**
 * For a value shaped like a response (a string or integer `id`, a `result` or an `error`, no
 * `method`) that is not a valid one (a `result` that is not an object, an `error` without a
 * numeric `code` and a string `message`), the error response that stands in for it: `-32600
 * Invalid response from the client: <why>` with the same id. The transports hand it to the
 * server in place of the bad reply, so the request waiting for that id fails at once (instead
 * of waiting for its timeout) and nothing is sent back to the peer: a response is never
 * answered. `undefined` for anything else (which the transports answer as usual).
 */
export function standInForBadResponse(value: unknown): JSONRPCMessage | undefined {
  if (!isJsonObject(value) || 'method' in value || !isRequestId(value.id)) return undefined;
  let why: string;
  if ('result' in value) {
    if (isJsonObject(value.result)) return undefined;
    why = `"result" must be an object, got ${kindOf(value.result)}`;
  } else if ('error' in value) {
    const error = value.error;
    if (isJsonObject(error) && Number.isInteger(error.code) && typeof error.message === 'string') return undefined;
    why = '"error" must be an object with an integer "code" and a string "message"';
  } else {
    return undefined;
  }
  return {
    jsonrpc: '2.0',
    id: value.id as string | number,
    error: { code: -32600, message: `Invalid response from the client: ${why}` },
  } as JSONRPCMessage;
}

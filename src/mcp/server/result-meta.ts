import { isJsonObject, type JsonObject, type ToolResult } from '../../contract/index.js';
import { RECORD_META_KEY } from './constants.js';
import type { WireRecord } from './record.js';

const FORWARDED_META = Symbol.for('toolwright/mcp/forwarded-meta');

/**
 * The prefix of the `_meta` keys MCP reserves for the protocol (`io.modelcontextprotocol/serverInfo`
 * on a 2026-07-28 result, ...): they describe one hop, so they are never forwarded; the server
 * that serves the result again states its own.
 */
export const PROTOCOL_META_PREFIX = 'io.modelcontextprotocol/';

/**
 * Attaches to a consumed tool's `result` (or to the `ToolError` an upstream `isError` result
 * became) the `_meta` its upstream server sent with it, so that
 * serving the result again sends that `_meta` unchanged (see `resultMetaFor`). The object is
 * kept as given (frozen), under a symbol that the call core's copies of a result (adding a record,
 * cutting to a bound) carry along; an interceptor that returns a new result drops it. Returns
 * the same result object. Keys under `PROTOCOL_META_PREFIX` are left out; with nothing left,
 * nothing is attached. Internal to the MCP layer.
 */
export function withForwardedMeta<T extends ToolResult | Error>(result: T, meta: JsonObject): T {
  const kept: Record<string, unknown> = {};
  let any = false;
  for (const key of Object.keys(meta)) {
    if (key.startsWith(PROTOCOL_META_PREFIX)) continue;
    put(kept, key, meta[key]);
    any = true;
  }
  if (any) Object.defineProperty(result, FORWARDED_META, { value: Object.freeze(kept), enumerable: true });
  return result;
}

/**
 * The upstream result `_meta` a consumed tool's result carries (see `withForwardedMeta`), or
 * `undefined` for any other result. The record key is in it as the upstream sent it; the
 * result's `record` is what toolwright read from it.
 */
export function forwardedMetaOf(result: ToolResult | Error): Readonly<JsonObject> | undefined {
  const found = (result as unknown as Record<symbol, unknown>)[FORWARDED_META];
  return isJsonObject(found) ? found : undefined;
}

/**
 * The `_meta` of a served result: every key of the forwarded upstream `_meta`, in its order,
 * with its value as given, except the record key, whose place holds `record` (the record the
 * call ended with, in its wire form) or is left out when there is none; without forwarded
 * `_meta`, just the record. `undefined` when there is nothing to send.
 */
export function resultMetaFor(
  forwarded: Readonly<JsonObject> | undefined,
  record: WireRecord | string | undefined,
): Record<string, unknown> | undefined {
  if (forwarded === undefined) return record === undefined ? undefined : { [RECORD_META_KEY]: record };
  const meta: Record<string, unknown> = {};
  let placed = false;
  for (const key of Object.keys(forwarded)) {
    if (key !== RECORD_META_KEY) put(meta, key, forwarded[key]);
    else if (record !== undefined) {
      put(meta, key, record);
      placed = true;
    }
  }
  if (record !== undefined && !placed) put(meta, RECORD_META_KEY, record);
  return Object.keys(meta).length === 0 ? undefined : meta;
}

/** Sets an own property, even one named `__proto__` (a key JSON may carry). */
function put(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

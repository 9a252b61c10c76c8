import type { Call } from '../../contract/index.js';

/*
 * What a host knows of a call before the call core runs it, for the call's span: the trace
 * context it belongs to (the MCP request's span), when the request was received, what the call
 * waited for before its turn, and attributes the host alone knows (session and request ids, the
 * protocol era). The host files it under the call's `Call` object (the one it puts in
 * `ctx.call`) before it runs the call; the tracing watch reads it when the call begins and files
 * the call's span there, so a later request of the same call (a 2026-07-28 input round) and the
 * upstream call of a consumed tool find it. Nothing is filed, and nothing read, when no tracer
 * provider is registered.
 */

/** A span, as toolwright's hosts handle it without importing `@opentelemetry/api`'s types. */
export type SpanHandle = object;

/** What a host tells the call core's tracing of one call (every member optional). */
export interface CallTrace {
  /** The OpenTelemetry context the call's span is a child of; default: the active context. */
  parent?: unknown;
  /** When the request that carried the call was received (epoch milliseconds); default: when the call began. */
  receivedAt?: number;
  /** What the call waited for before its turn, and since when (epoch milliseconds). */
  waited?: { readonly for: string; readonly since: number };
  /** Attributes for the call's span, from what the host knows. */
  attributes?: Record<string, string | number | boolean>;
  /** The call's span, once the tracing watch began it. */
  span?: SpanHandle;
}

const traces = new WeakMap<Call, CallTrace>();

/** Files `trace` for `call` (replacing one filed before) and returns it. */
export function fileCallTrace(call: Call, trace: CallTrace): CallTrace {
  traces.set(call, trace);
  return trace;
}

/** What was filed for `call`, else `undefined`. */
export function callTraceOf(call: Call): CallTrace | undefined {
  return traces.get(call);
}

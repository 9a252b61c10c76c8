import type { Call } from '../../contract/index.js';
import { callTraceOf, errorTypeOf, otelNames as names, tracingApi, type Otel } from '../../runtime/internal.js';

type Span = ReturnType<ReturnType<Otel['trace']['getTracer']>['startSpan']>;
type Context = Parameters<Otel['trace']['setSpan']>[0];

/** Writes trace context into a request's `params._meta` (string members only). */
const META_SETTER = {
  set: (carrier: Record<string, unknown>, key: string, value: string) => {
    carrier[key] = value;
  },
};

/** The client span of one upstream call, and how to end it; `undefined` members when nothing is traced. */
export interface UpstreamSpan {
  /** The `_meta` the upstream request carries: `meta` with the trace context of the span injected. */
  readonly meta: Record<string, unknown> | undefined;
  /** Ends the span with the upstream's answer (`isError` is a `tool_error`). */
  answered(result: unknown): void;
  /** Ends the span with the failure of the upstream call. */
  failed(error: unknown): void;
}

const UNTRACED = (meta: Record<string, unknown> | undefined): UpstreamSpan => ({
  meta,
  answered() {},
  failed() {},
});

/**
 * Starts the client span of a consumed or proxied tool's upstream `tools/call` when a tracer
 * provider is registered: `tools/call <tool>` (kind `CLIENT`), a child of the call's own span
 * (the call core's `execute_tool` span of `call`, else the active span; neither: not traced), with
 * `mcp.method.name`, `gen_ai.tool.name`, `gen_ai.operation.name` `execute_tool` and
 * `toolwright.upstream` (the server's name). The current context is injected into the request's
 * `_meta` with the registered propagator (`traceparent`, `tracestate`, `baggage`, the keys the
 * MCP spec reserves), so the upstream's server span continues the trace; `meta`'s own members
 * stay. Without a provider, `meta` is passed through and nothing is loaded.
 */
export function startUpstreamSpan(
  server: string,
  tool: string,
  call: Call,
  meta: Record<string, unknown> | undefined,
): UpstreamSpan {
  const otel = tracingApi();
  if (otel === undefined) return UNTRACED(meta);
  const callSpan = callTraceOf(call)?.span as Span | undefined;
  const active = otel.context.active();
  // A call its host does not trace (`telemetry: false`) has no span: its upstream call is traced
  // only inside a span of the application's own.
  if (callSpan === undefined && otel.trace.getSpan(active) === undefined) return UNTRACED(meta);
  const parent: Context = callSpan === undefined ? active : otel.trace.setSpan(active, callSpan);
  const span = otel.trace.getTracer(names.INSTRUMENTATION_SCOPE).startSpan(
    `tools/call ${tool}`,
    {
      kind: otel.SpanKind.CLIENT,
      attributes: {
        [names.ATTR_MCP_METHOD_NAME]: 'tools/call',
        [names.ATTR_GEN_AI_TOOL_NAME]: tool,
        [names.ATTR_GEN_AI_OPERATION_NAME]: names.EXECUTE_TOOL,
        [names.ATTR_TOOLWRIGHT_UPSTREAM]: server,
      },
    },
    parent,
  );
  const carrier: Record<string, unknown> = { ...meta };
  otel.propagation.inject(otel.trace.setSpan(parent, span), carrier, META_SETTER);
  return {
    meta: Object.keys(carrier).length === 0 ? undefined : carrier,
    answered(result) {
      const failed =
        typeof result === 'object' && result !== null && (result as { isError?: unknown }).isError === true;
      span.setAttribute(names.ATTR_TOOLWRIGHT_OUTCOME, failed ? names.TOOL_ERROR : 'ok');
      if (failed) {
        span.setAttribute(names.ATTR_ERROR_TYPE, names.TOOL_ERROR);
        span.setStatus({ code: otel.SpanStatusCode.ERROR });
      }
      span.end();
    },
    failed(error) {
      span.setAttribute(names.ATTR_TOOLWRIGHT_OUTCOME, 'error');
      span.setAttribute(names.ATTR_ERROR_TYPE, errorTypeOf(error));
      span.setStatus({
        code: otel.SpanStatusCode.ERROR,
        ...(error instanceof Error ? { message: error.message } : {}),
      });
      span.end();
    },
  };
}

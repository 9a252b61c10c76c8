import type { ServerContext } from '@modelcontextprotocol/server';
import { isJsonObject, type Session } from '../../contract/index.js';
import {
  errorTypeOf,
  metricsOf,
  otelNames as names,
  tracingApi,
  type CallTrace,
  type Metrics,
  type Otel,
} from '../../runtime/internal.js';
import type { HandlerExtra, RequestTrace } from './extra.js';

type Context = Parameters<Otel['trace']['setSpan']>[0];
type Span = ReturnType<ReturnType<Otel['trace']['getTracer']>['startSpan']>;

/** The `_meta` envelope key of a 2026-07-28 request that carries its protocol version. */
const PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';

/** Reads a carrier of trace context: a `_meta` object's string members, or an HTTP request's headers. */
const META_GETTER = {
  keys: (carrier: Readonly<Record<string, unknown>>) => Object.keys(carrier),
  get: (carrier: Readonly<Record<string, unknown>>, key: string) => {
    const value = carrier[key];
    return typeof value === 'string' ? value : undefined;
  },
};
/**
 * A request's headers as either HTTP edge hands them over: a web `Headers` (the 2026-07-28 leg,
 * through the SDK's web-standard handler) or `node:http`'s header object (the 2025-era legs,
 * lower-case names; a repeated header is an array, whose first value is read).
 */
type RequestHeaders = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;
const isWebHeaders = (carrier: RequestHeaders): carrier is Headers => typeof carrier.get === 'function';
const HEADER_GETTER = {
  keys: (carrier: RequestHeaders) => (isWebHeaders(carrier) ? [...carrier.keys()] : Object.keys(carrier)),
  get: (carrier: RequestHeaders, key: string): string | undefined => {
    if (isWebHeaders(carrier)) return carrier.get(key) ?? undefined;
    const value = carrier[key.toLowerCase()];
    return typeof value === 'string' ? value : value?.[0];
  },
};

/**
 * The trace context a request continues: the one its HTTP headers carry (`traceparent`,
 * `tracestate`, `baggage`, read with the registered propagator), then the one its
 * `params._meta` carries over it, so what `_meta` carries wins (the MCP spec reserves those
 * `_meta` keys for W3C trace context; a proxy may put the HTTP headers of its own hop). Without a
 * registered propagator nothing is read and the span is a root.
 */
export function parentContextOf(
  otel: Otel,
  meta: Readonly<Record<string, unknown>> | undefined,
  headers?: RequestHeaders,
): Context {
  let parent: Context = otel.ROOT_CONTEXT;
  if (headers !== undefined) parent = otel.propagation.extract(parent, headers, HEADER_GETTER);
  if (meta !== undefined) parent = otel.propagation.extract(parent, meta, META_GETTER);
  return parent;
}

/**
 * Runs `answer`, one MCP request's handler, inside a server span of its own when a tracer
 * provider is registered, and measured (see `measured`) when a meter provider is (else just
 * runs it: nothing is loaded). The span is `<method> <target>`
 * (`tools/call add`, `prompts/get greet`, else the method alone), kind `SERVER`, a child of the
 * request's trace context (see `parentContextOf`), with the MCP conventions' attributes:
 * `mcp.method.name`, `jsonrpc.request.id`, `mcp.session.id` (sessions only),
 * `mcp.protocol.version` (2026-07-28 requests, from their envelope), `network.transport` (`pipe`
 * for stdio, `tcp` for HTTP) and `network.protocol.name` `http`, `gen_ai.tool.name` and
 * `gen_ai.operation.name` `execute_tool` for a `tools/call`, `gen_ai.prompt.name`,
 * `mcp.resource.uri`, and `toolwright.era`. At the end: `toolwright.outcome` (`ok`,
 * `tool_error` for an `isError` result, `input_required` for a 2026-07-28 input round, `error`
 * for a JSON-RPC error), with `error.type` (`tool_error`, or the JSON-RPC error code as text, also
 * in `rpc.response.status_code`) and an error status. The handler gets the span's context as
 * `extra.trace` and runs with it active.
 */
export async function traceRequest(
  method: string,
  params: unknown,
  ctx: ServerContext,
  extra: HandlerExtra,
  transport: Session['transport'],
  answer: (extra: HandlerExtra) => Promise<Record<string, unknown>> | Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const metrics = metricsOf();
  const otel = tracingApi();
  if (otel === undefined)
    return metrics === undefined ? answer(extra) : measured(metrics, method, params, extra, transport, answer);
  const parent = parentContextOf(
    otel,
    extra._meta,
    (ctx.http?.req as { headers?: RequestHeaders } | undefined)?.headers,
  );
  const given = isJsonObject(params) ? params : {};
  const target =
    (method === 'tools/call' || method === 'prompts/get') && typeof given.name === 'string' ? given.name : undefined;
  const attributes: Record<string, string> = {
    [names.ATTR_MCP_METHOD_NAME]: method,
    [names.ATTR_JSONRPC_REQUEST_ID]: String(extra.requestId),
    [names.ATTR_TOOLWRIGHT_ERA]: extra.era,
  };
  if (extra.sessionId !== undefined) attributes[names.ATTR_MCP_SESSION_ID] = extra.sessionId;
  const version = (ctx.mcpReq.envelope as Readonly<Record<string, unknown>> | undefined)?.[PROTOCOL_VERSION_KEY];
  if (typeof version === 'string') attributes[names.ATTR_MCP_PROTOCOL_VERSION] = version;
  if (transport === 'stdio') attributes[names.ATTR_NETWORK_TRANSPORT] = 'pipe';
  if (transport === 'http') {
    attributes[names.ATTR_NETWORK_TRANSPORT] = 'tcp';
    attributes[names.ATTR_NETWORK_PROTOCOL_NAME] = 'http';
  }
  if (method === 'tools/call' && target !== undefined) {
    attributes[names.ATTR_GEN_AI_TOOL_NAME] = target;
    attributes[names.ATTR_GEN_AI_OPERATION_NAME] = names.EXECUTE_TOOL;
  }
  if (method === 'prompts/get' && target !== undefined) attributes[names.ATTR_GEN_AI_PROMPT_NAME] = target;
  if (typeof given.uri === 'string' && method.startsWith('resources/'))
    attributes[names.ATTR_MCP_RESOURCE_URI] = given.uri;
  const span = otel.trace
    .getTracer(names.INSTRUMENTATION_SCOPE)
    .startSpan(
      target === undefined ? method : `${method} ${target}`,
      { kind: otel.SpanKind.SERVER, attributes },
      parent,
    );
  const context = otel.trace.setSpan(parent, span);
  const trace: RequestTrace = { context, span };
  const traced = (given: HandlerExtra) => otel.context.with(context, () => answer({ ...given, trace }));
  try {
    const result = await (metrics === undefined
      ? traced(extra)
      : measured(metrics, method, params, extra, transport, traced));
    endAnswered(otel, span, result);
    return result;
  } catch (error) {
    endFailed(otel, span, error);
    throw error;
  }
}

/**
 * Runs `answer` and records its seconds in `mcp.server.operation.duration`, with
 * `mcp.method.name`, `gen_ai.tool.name` (a `tools/call`), `mcp.protocol.version` (2026-07-28),
 * `network.transport`, `toolwright.era` and, for a failure, `error.type` (`tool_error` for an
 * `isError` result, else the JSON-RPC error code).
 */
async function measured(
  metrics: Metrics,
  method: string,
  params: unknown,
  extra: HandlerExtra,
  transport: Session['transport'],
  answer: (extra: HandlerExtra) => Promise<Record<string, unknown>> | Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const began = performance.now();
  const attributes: Record<string, string> = {
    [names.ATTR_MCP_METHOD_NAME]: method,
    [names.ATTR_TOOLWRIGHT_ERA]: extra.era,
  };
  const given = isJsonObject(params) ? params : {};
  if (method === 'tools/call' && typeof given.name === 'string') attributes[names.ATTR_GEN_AI_TOOL_NAME] = given.name;
  if (transport === 'stdio') attributes[names.ATTR_NETWORK_TRANSPORT] = 'pipe';
  if (transport === 'http') attributes[names.ATTR_NETWORK_TRANSPORT] = 'tcp';
  const record = (): void => metrics.operationDuration.record((performance.now() - began) / 1000, attributes);
  try {
    const result = await answer(extra);
    if (result.isError === true) attributes[names.ATTR_ERROR_TYPE] = names.TOOL_ERROR;
    record();
    return result;
  } catch (error) {
    attributes[names.ATTR_ERROR_TYPE] = errorTypeOf(error);
    record();
    throw error;
  }
}

function endAnswered(otel: Otel, span: Span, result: Record<string, unknown>): void {
  if (result.isError === true) {
    span.setAttribute(names.ATTR_TOOLWRIGHT_OUTCOME, names.TOOL_ERROR);
    span.setAttribute(names.ATTR_ERROR_TYPE, names.TOOL_ERROR);
    span.setStatus({ code: otel.SpanStatusCode.ERROR });
  } else {
    span.setAttribute(names.ATTR_TOOLWRIGHT_OUTCOME, result.resultType === 'input_required' ? 'input_required' : 'ok');
  }
  span.end();
}

function endFailed(otel: Otel, span: Span, error: unknown): void {
  const code = (error as { readonly code?: unknown } | null)?.code;
  span.setAttribute(names.ATTR_TOOLWRIGHT_OUTCOME, 'error');
  if (typeof code === 'number') span.setAttribute(names.ATTR_RPC_RESPONSE_STATUS_CODE, String(code));
  span.setAttribute(names.ATTR_ERROR_TYPE, errorTypeOf(error));
  span.setStatus({
    code: otel.SpanStatusCode.ERROR,
    ...(error instanceof Error ? { message: error.message } : {}),
  });
  span.end();
}

/**
 * Links the span of a call that spans several requests (a 2026-07-28 call with input rounds) to
 * a later request that carried it, both ways: the call's span gets a link to the request's span
 * and the request's span one to the call's. Does nothing when either is missing.
 */
export function linkRequest(callSpan: object | undefined, request: RequestTrace | undefined): void {
  if (callSpan === undefined || request === undefined) return;
  const call = callSpan as Span;
  const served = request.span as Span;
  call.addLink({ context: served.spanContext() });
  served.addLink({ context: call.spanContext() });
}

/** Adds the event of one 2026-07-28 input round to a call's span: its requests, by key and method. */
export function noteInputRound(callSpan: object | undefined, requests: readonly string[]): void {
  if (callSpan === undefined) return;
  (callSpan as Span).addEvent(names.EVENT_INPUT_ROUND, { [names.ATTR_TOOLWRIGHT_INPUT_REQUESTS]: [...requests] });
}

const callTraces = new WeakMap<HandlerExtra, CallTrace>();

/** Files the trace of the call served with `extra`, so the later requests of that call find its span. */
export function fileRequestCall(extra: HandlerExtra, trace: CallTrace): void {
  callTraces.set(extra, trace);
}

/** The span of the call served with `extra` (a parked run's own extra), once the call core began it. */
export function callSpanOf(extra: HandlerExtra): object | undefined {
  return callTraces.get(extra)?.span;
}

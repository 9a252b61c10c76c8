import type { Call } from '../../contract/index.js';
import type { CallStep, CallStepObserver, CallWatch } from '../call/call-steps.js';
import type { CallEnd } from '../call/prepared-tool.js';
import { callTraceOf, fileCallTrace, type CallTrace } from './call-trace.js';
import {
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_TOOLWRIGHT_OUTCOME,
  ATTR_TOOLWRIGHT_PERMISSION_CAPABILITIES,
  ATTR_TOOLWRIGHT_PERMISSION_DECISION,
  ATTR_TOOLWRIGHT_WAIT_FOR,
  EVENT_RECORD,
  EXECUTE_TOOL,
  INSTRUMENTATION_SCOPE,
  SPAN_PERMISSION,
  SPAN_WAIT,
  TOOL_ERROR,
} from './names.js';
import { tracingApi, type Otel } from './otel-api.js';
import type { TelemetryOptions } from './options.js';

type Span = ReturnType<ReturnType<Otel['trace']['getTracer']>['startSpan']>;
type Context = Parameters<Otel['trace']['setSpan']>[0];

/**
 * The call core's tracing, as a `CallWatch` on every host: when a tracer provider is registered,
 * each call gets one span `execute_tool <tool>` (kind `INTERNAL`), a child of the context its host
 * filed for the call (`CallTrace.parent`: the MCP request's span), else of the active context.
 * It starts when the host received the request (`CallTrace.receivedAt`), else when the call
 * began; a call that waited for its turn gets a child span `toolwright.wait` over the wait (with
 * `toolwright.wait.for`); each permission question a child span `toolwright.permission` from the
 * question to its answer (its capabilities and decision, never its subject); each record an event
 * `toolwright.record` (its namespace only). Attributes: `gen_ai.operation.name` `execute_tool`,
 * `gen_ai.tool.name`, `gen_ai.tool.call.id` (the call's id), the host's (`CallTrace.attributes`),
 * and at the end `toolwright.outcome` (`ok`, `tool_error`, `error`) with `error.type` (the
 * error's `code` for a toolwright error, else its name; `tool_error` for an `isError` result) and
 * an error status. The arguments and the result are recorded only when the host opts in
 * (`recordArguments`, `recordResults`). The span ends when the host is answered (a time limit's
 * end included). Without a registered provider `begin` returns `undefined` and nothing is loaded.
 */
export function tracingWatch(options: TelemetryOptions): CallWatch {
  return {
    begin(call: Call, tool: string): CallStepObserver | undefined {
      const otel = tracingApi();
      if (otel === undefined) return undefined;
      const trace = callTraceOf(call) ?? fileCallTrace(call, {});
      return new CallSpan(otel, trace, call, tool, options);
    },
  };
}

class CallSpan implements CallStepObserver {
  private readonly span: Span;
  private readonly context: Context;

  constructor(
    private readonly otel: Otel,
    trace: CallTrace,
    call: Call,
    tool: string,
    private readonly options: TelemetryOptions,
  ) {
    const parent = (trace.parent as Context | undefined) ?? otel.context.active();
    const tracer = otel.trace.getTracer(INSTRUMENTATION_SCOPE);
    const attributes: Record<string, string | number | boolean> = {
      [ATTR_GEN_AI_OPERATION_NAME]: EXECUTE_TOOL,
      [ATTR_GEN_AI_TOOL_NAME]: tool,
      [ATTR_GEN_AI_TOOL_CALL_ID]: call.id,
      ...trace.attributes,
    };
    if (options.recordArguments === true) attributes[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS] = jsonOf(call.args);
    this.span = tracer.startSpan(
      `${EXECUTE_TOOL} ${tool}`,
      {
        kind: otel.SpanKind.INTERNAL,
        attributes,
        ...(trace.receivedAt === undefined ? {} : { startTime: trace.receivedAt }),
      },
      parent,
    );
    this.context = otel.trace.setSpan(parent, this.span);
    trace.span = this.span;
    if (trace.waited !== undefined) {
      tracer
        .startSpan(
          SPAN_WAIT,
          { startTime: trace.waited.since, attributes: { [ATTR_TOOLWRIGHT_WAIT_FOR]: trace.waited.for } },
          this.context,
        )
        .end();
    }
  }

  step(step: CallStep): void {
    if (step.kind === 'record') {
      this.span.addEvent(EVENT_RECORD, {
        'toolwright.record.ns': step.record.ns,
        'toolwright.record.origin': step.origin,
      });
      return;
    }
    if (step.kind === 'question') {
      this.otel.trace
        .getTracer(INSTRUMENTATION_SCOPE)
        .startSpan(
          SPAN_PERMISSION,
          {
            startTime: step.askedAt,
            attributes: {
              [ATTR_TOOLWRIGHT_PERMISSION_CAPABILITIES]: [...step.capabilities],
              [ATTR_TOOLWRIGHT_PERMISSION_DECISION]: step.decision,
            },
          },
          this.context,
        )
        .end();
    }
  }

  answered(end: CallEnd): void {
    const span = this.span;
    if (end.ok) {
      const failed = end.result.isError === true;
      span.setAttribute(ATTR_TOOLWRIGHT_OUTCOME, failed ? TOOL_ERROR : 'ok');
      if (failed) {
        span.setAttribute(ATTR_ERROR_TYPE, TOOL_ERROR);
        span.setStatus({ code: this.otel.SpanStatusCode.ERROR });
      }
      if (this.options.recordResults === true) span.setAttribute(ATTR_GEN_AI_TOOL_CALL_RESULT, jsonOf(end.result));
    } else {
      span.setAttribute(ATTR_TOOLWRIGHT_OUTCOME, 'error');
      span.setAttribute(ATTR_ERROR_TYPE, errorTypeOf(end.error));
      span.setStatus({ code: this.otel.SpanStatusCode.ERROR, message: end.error.message });
    }
    span.end();
  }
}

/**
 * A failure's `error.type`: a JSON-RPC error's numeric code as text (`-32602`), a stable string
 * `code` (every `ToolwrightError` has one), else the error's name; `Error` for a thrown value
 * that is not an `Error`.
 */
export function errorTypeOf(error: unknown): string {
  const code = (error as { readonly code?: unknown } | null)?.code;
  if (typeof code === 'number') return String(code);
  if (typeof code === 'string' && code !== '') return code;
  return error instanceof Error ? error.name : 'Error';
}

/** A value as JSON text for an attribute; one that cannot be written is named so. */
function jsonOf(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'undefined';
  } catch {
    return '(not JSON)';
  }
}

import type { CallStepObserver, CallWatch } from '../call/call-steps.js';
import type { CallEnd } from '../call/prepared-tool.js';
import * as names from './names.js';
import { metricsApi, type Otel } from './otel-api.js';
import { errorTypeOf } from './tracing-watch.js';

type Meter = ReturnType<Otel['metrics']['getMeter']>;
type Counter = ReturnType<Meter['createCounter']>;
type UpDownCounter = ReturnType<Meter['createUpDownCounter']>;
type Histogram = ReturnType<Meter['createHistogram']>;
type Attributes = Record<string, string>;

/** The instruments toolwright records with, made once per registered meter provider. */
export interface Metrics {
  readonly toolCalls: Counter;
  readonly toolErrors: Counter;
  readonly toolDuration: Histogram;
  readonly operationDuration: Histogram;
  readonly sessionDuration: Histogram;
  readonly callsWaiting: UpDownCounter;
  readonly sessionsOpen: UpDownCounter;
  readonly runsParked: UpDownCounter;
  // The seam for issue 27: `readonly tasks: UpDownCounter` (`toolwright.tasks.active`).
}

let made: { readonly provider: unknown; readonly metrics: Metrics } | undefined;

/**
 * The instruments, when a meter provider is registered with `@opentelemetry/api`, else
 * `undefined` (and nothing is loaded). Made anew when another provider was registered since.
 */
export function metricsOf(): Metrics | undefined {
  const otel = metricsApi();
  if (otel === undefined) return undefined;
  const provider = otel.metrics.getMeterProvider();
  if (made?.provider !== provider)
    made = { provider, metrics: instrumentsOf(otel.metrics.getMeter(names.INSTRUMENTATION_SCOPE)) };
  return made.metrics;
}

function instrumentsOf(meter: Meter): Metrics {
  const seconds = (name: string, description: string): Histogram =>
    meter.createHistogram(name, { unit: 's', description });
  return {
    toolCalls: meter.createCounter(names.METRIC_TOOL_CALLS, {
      unit: '{call}',
      description: 'Tool calls through the call core',
    }),
    toolErrors: meter.createCounter(names.METRIC_TOOL_ERRORS, {
      unit: '{call}',
      description: 'Failed tool calls, by error type',
    }),
    toolDuration: seconds(names.METRIC_TOOL_DURATION, 'Duration of a tool call through the call core'),
    operationDuration: seconds(names.METRIC_MCP_SERVER_OPERATION_DURATION, 'Duration of an MCP request on the server'),
    sessionDuration: seconds(names.METRIC_MCP_SERVER_SESSION_DURATION, 'Duration of an MCP session on the server'),
    callsWaiting: meter.createUpDownCounter(names.METRIC_CALLS_WAITING, {
      unit: '{call}',
      description: 'Calls waiting for their turn by their scheduling claims',
    }),
    sessionsOpen: meter.createUpDownCounter(names.METRIC_SESSIONS_OPEN, {
      unit: '{session}',
      description: 'Open MCP sessions',
    }),
    runsParked: meter.createUpDownCounter(names.METRIC_RUNS_PARKED, {
      unit: '{call}',
      description: '2026-07-28 calls parked waiting for input',
    }),
  };
}

/**
 * The call core's metrics, as a `CallWatch` on every host: when a meter provider is registered,
 * each call adds one to `toolwright.tool.calls` (`gen_ai.tool.name`, `toolwright.outcome`), a
 * failed one (an `isError` result or an error) one to `toolwright.tool.errors` (`gen_ai.tool.name`,
 * `error.type`), and its seconds, from when it began to when its host was answered, to
 * `toolwright.tool.duration` (`gen_ai.tool.name`, `toolwright.outcome`). Without a provider
 * `begin` returns `undefined` and nothing is loaded.
 */
export function metricsWatch(): CallWatch {
  return {
    begin(_call, tool): CallStepObserver | undefined {
      const metrics = metricsOf();
      if (metrics === undefined) return undefined;
      const began = performance.now();
      return {
        step() {},
        answered(end: CallEnd) {
          const failed = !end.ok || end.result.isError === true;
          const outcome = !end.ok ? 'error' : failed ? names.TOOL_ERROR : 'ok';
          const attributes: Attributes = {
            [names.ATTR_GEN_AI_TOOL_NAME]: tool,
            [names.ATTR_TOOLWRIGHT_OUTCOME]: outcome,
          };
          metrics.toolCalls.add(1, attributes);
          metrics.toolDuration.record((performance.now() - began) / 1000, attributes);
          if (failed)
            metrics.toolErrors.add(1, {
              [names.ATTR_GEN_AI_TOOL_NAME]: tool,
              [names.ATTR_ERROR_TYPE]: end.ok ? names.TOOL_ERROR : errorTypeOf(end.error),
            });
        },
      };
    },
  };
}

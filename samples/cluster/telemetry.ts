/**
 * The cluster sample's tracing, on when a node runs with `CLUSTER_TRACE=1` (`CLUSTER_TRACE=1 npm
 * run cluster`): the node registers the OpenTelemetry SDK's tracer provider, the W3C propagators
 * and the AsyncLocalStorage context manager, and writes one line per finished span to stderr
 * (which the sample prints with the node's name in front):
 * `span <trace id> <span id> <parent span id or -> <kind> <name> <toolwright.outcome or -> <ms>`.
 * So a call that crosses the cluster shows as lines of one trace id from every process it
 * touched. A real deployment exports to a collector instead (see docs/observability.md). The SDK
 * is loaded only when tracing is on.
 */
export async function startSampleTracing(): Promise<void> {
  const [{ context, propagation, trace, SpanKind }, { AsyncLocalStorageContextManager }, core, sdk] = await Promise.all(
    [
      import('@opentelemetry/api'),
      import('@opentelemetry/context-async-hooks'),
      import('@opentelemetry/core'),
      import('@opentelemetry/sdk-trace'),
    ],
  );
  const printer: InstanceType<typeof sdk.SimpleSpanProcessor> = new sdk.SimpleSpanProcessor({
    exporter: {
      export(spans, done) {
        for (const span of spans) {
          const ms = span.duration[0] * 1000 + span.duration[1] / 1e6;
          const outcome = span.attributes['toolwright.outcome'];
          process.stderr.write(
            `span ${span.spanContext().traceId} ${span.spanContext().spanId} ${span.parentSpanContext?.spanId ?? '-'} ${SpanKind[span.kind]} ${span.name} ${typeof outcome === 'string' ? outcome : '-'} ${ms.toFixed(1)}\n`,
          );
        }
        done({ code: core.ExportResultCode.SUCCESS });
      },
      shutdown: async () => {},
    },
  });
  trace.setGlobalTracerProvider(new sdk.TracerProvider({ spanProcessors: [printer] }));
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(
    new core.CompositePropagator({
      propagators: [new core.W3CTraceContextPropagator(), new core.W3CBaggagePropagator()],
    }),
  );
}

import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type ReadableSpan } from '@opentelemetry/sdk-trace';
import type { ContractTool } from '../../src/contract/index.js';

/*
 * What the OpenTelemetry suites share: the SDK registered as an application would (a tracer
 * provider into an in-memory exporter, the AsyncLocalStorage context manager, the W3C trace
 * context and baggage propagators), and a few tools that add, fail, wait for a resource and ask.
 */

/** Registers the SDK's tracing globally (for this test process) and returns the exporter its spans go to. */
export function installTracing(): InMemorySpanExporter {
  const exporter = new InMemorySpanExporter();
  trace.setGlobalTracerProvider(new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] }));
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(
    new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
  );
  return exporter;
}

/** The finished spans, oldest first; then the exporter forgets them. */
export function takeSpans(exporter: InMemorySpanExporter): ReadableSpan[] {
  const spans = [...exporter.getFinishedSpans()];
  exporter.reset();
  return spans.sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);
}

/** Releases the `locked` tool's running call: set while one runs. */
export const lockedGate: { release: (() => void) | undefined } = { release: undefined };

/**
 * `add {a, b}` (a schema, so bad arguments fail), `broken` (throws `no luck`), `locked` (holds
 * the resource `printer:1` until `lockedGate.release()`), `ask_name` (elicits a name).
 */
export const otelTools: readonly ContractTool[] = [
  {
    name: 'add',
    description: 'Adds',
    parameters: {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
      additionalProperties: false,
    },
    execute: async (args) => {
      const { a, b } = args as { a: number; b: number };
      return String(a + b);
    },
  },
  {
    name: 'broken',
    description: 'Throws',
    async execute() {
      throw new Error('no luck');
    },
  },
  {
    name: 'locked',
    description: 'Holds the printer until released',
    resource: 'printer:1',
    async execute() {
      await new Promise<void>((release) => (lockedGate.release = release));
      return 'printed';
    },
  },
  {
    name: 'ask_name',
    description: 'Asks for a name',
    async execute(_args, ctx) {
      const reply = await ctx.elicit({
        message: 'Your name?',
        schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      });
      return reply.action === 'accept' ? `hello ${String(reply.content?.name)}` : 'no name';
    },
  },
];

/** Waits (bounded: 2 s) until `check` holds. */
export async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('the condition never held');
}

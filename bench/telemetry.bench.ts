/**
 * What OpenTelemetry costs per call, side by side: the same `echo` tool run through the
 * `Executor` (the call core alone) and through `createServer` over an in-memory transport with a
 * real SDK `Client`, each three ways: `telemetry: false` (no watch at all), the default with no
 * provider registered (one read of the API's global registry per step), and with a tracer
 * provider (the SDK's, a simple processor into an in-memory exporter emptied every round) and a
 * meter provider (the SDK's, never exported) registered. Rounds are interleaved; the providers
 * are registered for their rounds only and the API's globals are cleared after, so the benches
 * that follow run without them. Prints the median CPU µs per call and the ratio to
 * `telemetry: false`.
 *
 *   node dist/bench/telemetry.bench.js
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { ContractTool } from '../src/index.js';
import { createServer } from '../src/mcp/index.js';
import { Executor } from '../src/runtime/index.js';
import { median } from './support/median.js';

const WARMUP_CALLS = 300;
const ROUNDS = 6;
const CALLS_PER_ROUND = 400;

const echo: ContractTool = {
  name: 'echo',
  description: 'Echoes text',
  parameters: {
    type: 'object',
    properties: { text: { type: 'string' } },
    required: ['text'],
    additionalProperties: false,
  },
  execute: async (args) => (args as { text: string }).text,
};

const exporter = new InMemorySpanExporter();
const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
const meterProvider = new MeterProvider();
const contextManager = new AsyncLocalStorageContextManager();

function registerProviders(): void {
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(meterProvider);
  context.setGlobalContextManager(contextManager.enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
}

function clearProviders(): void {
  trace.disable();
  metrics.disable();
  context.disable();
  propagation.disable();
  exporter.reset();
}

type Runner = () => Promise<unknown>;

async function executorRunner(telemetry: false | undefined): Promise<Runner> {
  const executor = new Executor({ tools: [echo], ...(telemetry === false ? { telemetry } : {}) });
  let n = 0;
  return () => executor.run([{ id: `c${++n}`, tool: 'echo', args: { text: 'hi' } }]);
}

async function serverRunner(telemetry: false | undefined): Promise<Runner> {
  const server = createServer({ name: 'bench', version: '1.0.0' }, [echo], telemetry === false ? { telemetry } : {});
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: 'telemetry-bench', version: '1.0.0' });
  await client.connect(clientTransport);
  return () => client.callTool({ name: 'echo', arguments: { text: 'hi' } });
}

async function cpuPerCall(runner: Runner, calls: number): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < calls; i++) await runner();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / calls;
}

interface Contender {
  readonly host: string;
  readonly label: string;
  readonly providers: boolean;
  readonly runner: Runner;
  readonly samples: number[];
}

export async function run(): Promise<void> {
  const contenders: Contender[] = [];
  for (const [host, make] of [
    ['Executor', executorRunner],
    ['createServer', serverRunner],
  ] as const) {
    contenders.push({ host, label: 'telemetry: false', providers: false, runner: await make(false), samples: [] });
    contenders.push({ host, label: 'no provider', providers: false, runner: await make(undefined), samples: [] });
    contenders.push({ host, label: 'tracer + meter', providers: true, runner: await make(undefined), samples: [] });
  }
  const measure = async (contender: Contender, calls: number): Promise<number> => {
    if (contender.providers) registerProviders();
    try {
      return await cpuPerCall(contender.runner, calls);
    } finally {
      if (contender.providers) clearProviders();
    }
  };
  for (const contender of contenders) await measure(contender, WARMUP_CALLS);
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? contenders : [...contenders].reverse();
    for (const contender of order) contender.samples.push(await measure(contender, CALLS_PER_ROUND));
  }
  console.log(
    `telemetry.bench: echo, ${ROUNDS} interleaved rounds x ${CALLS_PER_ROUND} calls (CPU per call, median; the createServer rows include the in-memory client)`,
  );
  for (const host of ['Executor', 'createServer']) {
    const rows = contenders.filter((contender) => contender.host === host);
    const baseline = median(rows[0]!.samples);
    for (const row of rows) {
      const micros = median(row.samples);
      console.log(
        `  ${`${host}, ${row.label}`.padEnd(32)} ${micros.toFixed(1).padStart(7)} µs/call   ratio to telemetry: false ${(micros / baseline).toFixed(2)}`,
      );
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  run().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}

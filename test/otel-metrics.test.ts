import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { metrics } from '@opentelemetry/api';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport } from '@modelcontextprotocol/client';
import type { ContractTool } from '../src/contract/index.js';
import { Executor } from '../src/runtime/index.js';
import { serveHttp, type HttpHandle } from '../src/mcp/index.js';
import { lockedGate, otelTools, until } from './support/otel.js';

/*
 * Metrics with the real OpenTelemetry SDK (a MeterProvider whose reader the test collects on
 * demand): calls, errors by kind and durations per tool from the call core on every host, MCP
 * request durations and session durations under the conventions' names, and the gauges of calls
 * waiting for a claim, open sessions and parked 2026-07-28 runs.
 */

const reader = new PeriodicExportingMetricReader({
  exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE),
  exportIntervalMillis: 3_600_000,
});
metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));

interface Point {
  readonly attributes: Record<string, unknown>;
  readonly value: unknown;
}

/** The data points of metric `name` as collected now (empty when it has none). */
async function pointsOf(name: string): Promise<Point[]> {
  const { resourceMetrics } = await reader.collect();
  for (const scope of resourceMetrics.scopeMetrics)
    for (const metric of scope.metrics)
      if (metric.descriptor.name === name)
        return metric.dataPoints.map((point) => ({ attributes: point.attributes, value: point.value }));
  return [];
}

/** The value of the point of `name` with exactly `attributes` (a histogram's by its count). */
async function valueOf(name: string, attributes: Record<string, unknown>): Promise<number | undefined> {
  const point = (await pointsOf(name)).find(
    (p) => JSON.stringify(sorted(p.attributes)) === JSON.stringify(sorted(attributes)),
  );
  if (point === undefined) return undefined;
  return typeof point.value === 'number' ? point.value : (point.value as { count: number }).count;
}

function sorted(value: Record<string, unknown>): Array<[string, unknown]> {
  return Object.entries(value).sort(([a], [b]) => a.localeCompare(b));
}

let parkedDuringQuestion: number | undefined;
const tools: ContractTool[] = [
  ...otelTools,
  {
    name: 'invalid',
    description: 'Says its result is an error',
    execute: async () => ({ content: [{ type: 'text', text: 'bad input' }], isError: true }),
  },
];

let handle: HttpHandle;
before(async () => {
  handle = await serveHttp({ name: 'measured', version: '1.0.0' }, tools);
});
after(() => handle.close());

describe('call metrics from the call core', () => {
  it('calls by tool and outcome, errors by kind, durations per tool (the Executor)', async () => {
    const executor = new Executor({ tools });
    const counted = [
      ['toolwright.tool.calls', { 'gen_ai.tool.name': 'add', 'toolwright.outcome': 'ok' }],
      ['toolwright.tool.calls', { 'gen_ai.tool.name': 'add', 'toolwright.outcome': 'error' }],
      ['toolwright.tool.calls', { 'gen_ai.tool.name': 'broken', 'toolwright.outcome': 'error' }],
      ['toolwright.tool.calls', { 'gen_ai.tool.name': 'invalid', 'toolwright.outcome': 'tool_error' }],
      ['toolwright.tool.errors', { 'gen_ai.tool.name': 'broken', 'error.type': 'Error' }],
      ['toolwright.tool.errors', { 'gen_ai.tool.name': 'add', 'error.type': 'invalid-arguments' }],
      ['toolwright.tool.errors', { 'gen_ai.tool.name': 'invalid', 'error.type': 'tool_error' }],
      ['toolwright.tool.duration', { 'gen_ai.tool.name': 'add', 'toolwright.outcome': 'ok' }],
    ] as const;
    const before = await Promise.all(counted.map(async ([name, attributes]) => (await valueOf(name, attributes)) ?? 0));
    await executor.run([
      { id: 'e1', tool: 'add', args: { a: 1, b: 1 } },
      { id: 'e2', tool: 'add', args: { a: 2, b: 2 } },
      { id: 'e3', tool: 'broken', args: {} },
      { id: 'e4', tool: 'invalid', args: {} },
      { id: 'e5', tool: 'add', args: { a: 'x' } },
    ]);
    const now = await Promise.all(counted.map(async ([name, attributes]) => (await valueOf(name, attributes)) ?? 0));
    assert.deepEqual(
      now.map((value, i) => value - before[i]!),
      [2, 1, 1, 1, 1, 1, 1, 2],
    );
  });

  it('telemetry: false keeps a host out of the metrics', async () => {
    const attributes = { 'gen_ai.tool.name': 'broken', 'error.type': 'Error' };
    const before = await valueOf('toolwright.tool.errors', attributes);
    await new Executor({ tools, telemetry: false }).run([{ id: 'f1', tool: 'broken', args: {} }]);
    assert.equal(await valueOf('toolwright.tool.errors', attributes), before);
  });
});

describe('server metrics', () => {
  it('MCP request durations, open sessions and their durations', async () => {
    const client = new V2Client({ name: 'measure', version: '1.0.0' });
    const transport = new V2HttpTransport(new URL(handle.url));
    await client.connect(transport);
    await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
    await client.callTool({ name: 'nope', arguments: {} }).catch(() => undefined);
    assert.equal(
      await valueOf('mcp.server.operation.duration', {
        'mcp.method.name': 'tools/call',
        'gen_ai.tool.name': 'add',
        'toolwright.era': 'legacy',
        'network.transport': 'tcp',
      }),
      1,
    );
    assert.equal(
      await valueOf('mcp.server.operation.duration', {
        'mcp.method.name': 'tools/call',
        'gen_ai.tool.name': 'nope',
        'toolwright.era': 'legacy',
        'network.transport': 'tcp',
        'error.type': '-32602',
      }),
      1,
    );
    assert.equal(await valueOf('toolwright.sessions.open', { 'network.transport': 'tcp' }), 1);
    await transport.terminateSession();
    await client.close();
    await until(async () => (await valueOf('toolwright.sessions.open', { 'network.transport': 'tcp' })) === 0);
    assert.equal(await valueOf('mcp.server.session.duration', { 'network.transport': 'tcp' }), 1);
  });

  it('calls waiting for a claim: counted while they wait', async () => {
    const client = new V2Client({ name: 'measure', version: '1.0.0' });
    await client.connect(new V2HttpTransport(new URL(handle.url)));
    try {
      const first = client.callTool({ name: 'locked', arguments: {} });
      await until(() => lockedGate.release !== undefined);
      const releaseFirst = lockedGate.release!;
      lockedGate.release = undefined;
      const second = client.callTool({ name: 'locked', arguments: {} });
      await until(async () => (await valueOf('toolwright.calls.waiting', { 'gen_ai.tool.name': 'locked' })) === 1);
      releaseFirst();
      await first;
      await until(() => lockedGate.release !== undefined);
      assert.equal(await valueOf('toolwright.calls.waiting', { 'gen_ai.tool.name': 'locked' }), 0);
      lockedGate.release!();
      lockedGate.release = undefined;
      await second;
    } finally {
      await client.close();
    }
  });

  it('parked 2026-07-28 runs: counted while the client answers', async () => {
    const client = new V2Client(
      { name: 'measure', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    client.setRequestHandler('elicitation/create', async () => {
      parkedDuringQuestion = await valueOf('toolwright.runs.parked', { 'gen_ai.tool.name': 'ask_name' });
      return { action: 'accept', content: { name: 'Ada' } } as never;
    });
    await client.connect(new V2HttpTransport(new URL(handle.url)));
    try {
      const result = await client.callTool({ name: 'ask_name', arguments: {} });
      assert.deepEqual(result.content, [{ type: 'text', text: 'hello Ada' }]);
      assert.equal(parkedDuringQuestion, 1);
      assert.equal(await valueOf('toolwright.runs.parked', { 'gen_ai.tool.name': 'ask_name' }), 0);
    } finally {
      await client.close();
    }
  });
});

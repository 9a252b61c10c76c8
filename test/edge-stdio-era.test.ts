import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import type { ContractTool } from '../src/contract/index.js';
import { connectStdio } from '../src/mcp/index.js';
import { serverFor } from '../src/mcp/server/create-server.js';
import { LiveSet } from '../src/mcp/server/live-set.js';
import { envelope } from './support/modern-http.js';
import { until } from './support/server-harness.js';

/*
 * The stdio era gate: the first message picks the era, and lines that arrive in the same chunk
 * while the server is being connected are served in order. Real streams (PassThrough), raw
 * lines, exact answers.
 */

const tools: ContractTool[] = [
  { name: 'echo', description: 'Echoes', execute: async (args) => String((args as { text?: unknown }).text) },
];

async function open(): Promise<{
  stdin: PassThrough;
  lines: unknown[];
  closed: Promise<void>;
  close(): Promise<void>;
}> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const lines: unknown[] = [];
  let buffered = '';
  stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    for (let index = buffered.indexOf('\n'); index !== -1; index = buffered.indexOf('\n')) {
      lines.push(JSON.parse(buffered.slice(0, index)));
      buffered = buffered.slice(index + 1);
    }
  });
  const prepared = new LiveSet({ where: 'createServer', tools, options: {} });
  const handle = await connectStdio(
    () => serverFor({ name: 'era-gate', version: '1.0.0' }, prepared, { transport: 'stdio' }),
    { stdin, stdout, log: () => undefined },
  );
  return { stdin, lines, closed: handle.closed, close: () => handle.close() };
}

const text = (value: unknown) => JSON.stringify(value);

test(
  'stdio era gate: a 2025 handshake and requests written in one chunk are answered in order',
  { timeout: 20_000 },
  async () => {
    const served = await open();
    served.stdin.write(
      [
        text({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
        }),
        text({ jsonrpc: '2.0', method: 'notifications/initialized' }),
        text({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'first' } } }),
        text({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo', arguments: { text: 'second' } } }),
      ].join('\n') + '\n',
    );
    await until(() => served.lines.length === 3, 2000);
    assert.deepEqual(
      served.lines.map((line) => (line as { id: unknown }).id),
      [1, 2, 3],
    );
    assert.equal((served.lines[0] as { result: { protocolVersion: string } }).result.protocolVersion, '2025-11-25');
    assert.deepEqual(served.lines.slice(1), [
      { result: { content: [{ type: 'text', text: 'first' }] }, jsonrpc: '2.0', id: 2 },
      { result: { content: [{ type: 'text', text: 'second' }] }, jsonrpc: '2.0', id: 3 },
    ]);
    served.stdin.end();
    await served.closed;
  },
);

test(
  'stdio era gate: a first message carrying the 2026-07-28 envelope pins that era, later lines of the chunk included',
  { timeout: 20_000 },
  async () => {
    const served = await open();
    const call = (id: number, word: string) =>
      text({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'echo', arguments: { text: word }, _meta: envelope({}) },
      });
    served.stdin.write(`${call(1, 'one')}\n${call(2, 'two')}\n`);
    await until(() => served.lines.length === 2, 2000);
    const results = served.lines.map((line) => {
      const { id, result } = line as { id: number; result: { content: unknown; resultType: unknown } };
      return { id, content: result.content, resultType: result.resultType };
    });
    assert.deepEqual(results, [
      { id: 1, content: [{ type: 'text', text: 'one' }], resultType: 'complete' },
      { id: 2, content: [{ type: 'text', text: 'two' }], resultType: 'complete' },
    ]);
    await served.close();
  },
);

test('stdio era gate: closing before any message closes the connection', { timeout: 20_000 }, async () => {
  const served = await open();
  await served.close();
  await served.closed;
  assert.deepEqual(served.lines, []);
});

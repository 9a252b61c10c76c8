import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseJSONRPCMessage } from '@modelcontextprotocol/server';
import { messageKind, toJsonRpcMessage } from '../src/mcp/transports/jsonrpc-shape.js';

/** Values on both sides of every quick check; the verdict must always be the SDK schema's. */
const CORPUS: readonly unknown[] = [
  { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } },
  { jsonrpc: '2.0', id: 'a', method: 'ping' },
  { jsonrpc: '2.0', id: 1.5, method: 'ping' },
  { jsonrpc: '2.0', id: null, method: 'ping' },
  { jsonrpc: '2.0', id: {}, method: 'ping' },
  { jsonrpc: '1.0', id: 1, method: 'ping' },
  { jsonrpc: '2.0', id: 1, method: 'ping', extra: true },
  { jsonrpc: '2.0', id: 1, method: 'ping', params: [] },
  { jsonrpc: '2.0', id: 1, method: 'ping', params: null },
  { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: { progressToken: 'p' } } },
  { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: { progressToken: 1.5 } } },
  { jsonrpc: '2.0', id: 1, method: 7 },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
  { jsonrpc: '2.0', method: 'notifications/x', extra: 1 },
  { jsonrpc: '2.0', id: 1, result: {} },
  { jsonrpc: '2.0', id: 1, result: { content: [] }, extra: 1 },
  { jsonrpc: '2.0', id: 1, result: [] },
  { jsonrpc: '2.0', id: 1, result: { _meta: { progressToken: {} } } },
  { jsonrpc: '2.0', id: 1, error: { code: -32600, message: 'bad' } },
  { jsonrpc: '2.0', error: { code: -32700, message: 'parse' } },
  { jsonrpc: '2.0', id: 1, error: { code: 1.5, message: 'bad' } },
  { foo: 1 },
  [],
  null,
  'text',
  42,
];

/** The SDK 2.x verdict on a value, in `safeParse`'s shape. */
function sdkVerdict(value: unknown): { success: true; data: unknown } | { success: false } {
  try {
    return { success: true, data: parseJSONRPCMessage(value) };
  } catch {
    return { success: false };
  }
}

test('toJsonRpcMessage gives exactly the SDK schema verdict on every value of the corpus', () => {
  const verdicts = { accepted: 0, refused: 0 };
  for (const value of CORPUS) {
    const expected = sdkVerdict(value);
    const actual = toJsonRpcMessage(value);
    assert.equal(actual !== undefined, expected.success, JSON.stringify(value));
    if (expected.success) assert.deepEqual(actual, expected.data, JSON.stringify(value));
    verdicts[expected.success ? 'accepted' : 'refused'] += 1;
  }
  // The corpus exercises both verdicts, so agreeing cannot mean refusing (or accepting) everything.
  assert.deepEqual(verdicts, { accepted: 9, refused: 18 });
});

test('messageKind tells requests, notifications and responses apart', () => {
  assert.deepEqual(
    [
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: 1, error: { code: -1, message: 'x' } },
    ].map((m) => messageKind(toJsonRpcMessage(m)!)),
    ['request', 'notification', 'response', 'response'],
  );
});

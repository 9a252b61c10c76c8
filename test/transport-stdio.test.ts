import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StdioChild } from './support/transport-child.js';

const tool = (name: string) => ({
  name,
  description: `test tool ${name}`,
  inputSchema: { type: 'object', properties: {} },
});

test('stdio: tools/list and tools/call over a real child process', async (t) => {
  const child = new StdioChild();
  t.after(() => child.kill());
  await child.initialize();
  const list = await child.request('tools/list');
  assert.deepEqual(list, {
    jsonrpc: '2.0',
    id: 2,
    result: { tools: ['echo', 'whoami', 'slow', 'noisy', 'gate'].map(tool) },
  });
  const call = await child.request('tools/call', { name: 'echo', arguments: { text: 'hi' } });
  assert.deepEqual(call, { jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: 'hi' }] } });
  child.child.stdin.end();
  assert.deepEqual(await child.exit(), { code: 0, signal: null });
});

test('stdio: bad lines are answered as JSON-RPC errors and the server keeps serving', async (t) => {
  const child = new StdioChild();
  t.after(() => child.kill());
  await child.waitForStderr('probe: ready');
  child.writeLine('{bad');
  child.writeLine('{"foo":1}');
  child.writeLine('{"jsonrpc":"1.0","id":7,"method":"ping"}');
  child.writeLine('{"jsonrpc":"2.0","id":null,"method":"ping"}');
  child.writeLine('{"jsonrpc":"2.0","id":{},"method":"ping"}');
  child.writeLine('[{"jsonrpc":"2.0","id":8,"method":"ping"}]');
  child.writeLine('');
  child.writeLine('   ');
  child.writeLine('{"jsonrpc":"2.0","id":9,"method":"ping"}\r');
  const lines = await child.waitForLines(7);
  assert.deepEqual(lines, [
    '{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"},"id":null}',
    '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: not a JSON-RPC 2.0 message"},"id":null}',
    '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: not a JSON-RPC 2.0 message"},"id":7}',
    '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: not a JSON-RPC 2.0 message"},"id":null}',
    '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: not a JSON-RPC 2.0 message"},"id":null}',
    '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: batches are not supported"},"id":null}',
    '{"result":{},"jsonrpc":"2.0","id":9}',
  ]);
  child.child.stdin.end();
  assert.deepEqual(await child.exit(), { code: 0, signal: null });
});

test('stdio: stdin EOF aborts an in-flight call, sends nothing for it, and exits 0', async (t) => {
  const child = new StdioChild();
  t.after(() => child.kill());
  await child.initialize();
  const id = child.send('tools/call', { name: 'slow', arguments: {} });
  await child.waitForStderr('probe: slow started');
  child.child.stdin.end();
  assert.deepEqual(await child.exit(), { code: 0, signal: null });
  assert.equal(child.stderr, 'probe: ready\nprobe: slow started\nprobe: slow aborted\n');
  assert.deepEqual(
    child.lines.map((l) => (JSON.parse(l) as { id?: unknown }).id),
    [1],
  );
  assert.equal(id, 2);
});

test('stdio: SIGTERM drains an in-flight call, refuses new requests, then exits 0', async (t) => {
  const child = new StdioChild({ SHUTDOWN_TIMEOUT_MS: '60000' });
  t.after(() => child.kill());
  await child.initialize();
  const id = child.send('tools/call', { name: 'gate', arguments: {} });
  await child.waitForStderr('probe: gate started');
  child.child.kill('SIGTERM');
  await child.waitForStderr('toolwright: SIGTERM: draining 1 in-flight call(s) for up to 60000 ms\n');
  assert.deepEqual(await child.request('ping'), {
    jsonrpc: '2.0',
    error: { code: -32000, message: 'Server is shutting down' },
    id: id + 1,
  });
  child.child.kill('SIGUSR2');
  assert.deepEqual(await child.response(id), {
    jsonrpc: '2.0',
    id,
    result: { content: [{ type: 'text', text: 'gate opened' }] },
  });
  assert.deepEqual(await child.exit(), { code: 0, signal: null });
});

test('stdio: SIGTERM past the shutdown deadline aborts the call and exits 0', async (t) => {
  const child = new StdioChild({ SHUTDOWN_TIMEOUT_MS: '20' });
  t.after(() => child.kill());
  await child.initialize();
  child.send('tools/call', { name: 'slow', arguments: {} });
  await child.waitForStderr('probe: slow started');
  child.child.kill('SIGTERM');
  assert.deepEqual(await child.exit(), { code: 0, signal: null });
  assert.equal(
    child.stderr,
    [
      'probe: ready',
      'probe: slow started',
      'toolwright: SIGTERM: draining 1 in-flight call(s) for up to 20 ms',
      'toolwright: SIGTERM: shutdown deadline passed; aborting 1 call(s)',
      'probe: slow aborted',
    ]
      .map((line) => `${line}\n`)
      .join(''),
  );
});

test('stdio: a client that closes its end of stdout (EPIPE) ends the server cleanly, aborting calls', async (t) => {
  const child = new StdioChild();
  t.after(() => child.kill());
  await child.initialize();
  child.send('tools/call', { name: 'slow', arguments: {} });
  await child.waitForStderr('probe: slow started');
  child.child.stdout.destroy();
  child.send('ping');
  assert.deepEqual(await child.exit(), { code: 0, signal: null });
  assert.equal(
    child.stderr,
    'probe: ready\nprobe: slow started\ntoolwright: stdout closed by the client (EPIPE); closing\nprobe: slow aborted\n',
  );
});

test('stdio: a client that closes both stdout and stderr still gets a clean exit 0', async (t) => {
  const child = new StdioChild();
  t.after(() => child.kill());
  await child.initialize();
  child.child.stdout.destroy();
  child.child.stderr.destroy();
  child.send('ping');
  assert.deepEqual(await child.exit(), { code: 0, signal: null });
});

test('stdio: a line over maxLineBytes is answered, then the server closes and exits 0', async (t) => {
  const child = new StdioChild({ MAX_LINE_BYTES: '1024' });
  t.after(() => child.kill());
  await child.waitForStderr('probe: ready');
  child.writeLine(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: 'x'.repeat(2000) } },
    }),
  );
  assert.deepEqual(await child.exit(), { code: 0, signal: null });
  assert.deepEqual(child.lines, [
    '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: line exceeds 1024 bytes"},"id":null}',
  ]);
  assert.equal(child.stderr, 'probe: ready\ntoolwright: stdin line exceeds 1024 bytes; closing\n');
});

test('stdio: console.log in a tool goes to stderr, never into the protocol stream', async (t) => {
  const child = new StdioChild();
  t.after(() => child.kill());
  await child.initialize();
  const call = await child.request('tools/call', { name: 'noisy', arguments: {} });
  assert.deepEqual(call, { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'ok' }] } });
  assert.equal(child.stderr, 'probe: ready\nnoise from a tool\n');
  assert.deepEqual(
    child.lines.map((l) => (JSON.parse(l) as { id?: unknown }).id),
    [1, 2],
  );
  child.child.stdin.end();
  assert.deepEqual(await child.exit(), { code: 0, signal: null });
});

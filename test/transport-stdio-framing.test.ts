import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { LineSplitter } from '../src/mcp/transports/stdio/line-splitter.js';
import { connectStdio } from '../src/mcp/transports/index.js';
import { parseLine } from '../src/mcp/transports/stdio/parse-line.js';
import { makeTestServer } from './support/transport-test-server.js';

test('LineSplitter joins lines across chunks, strips CR and decodes bad UTF-8 to U+FFFD', () => {
  const splitter = new LineSplitter(16);
  assert.deepEqual(splitter.push(Buffer.from('ab')), []);
  assert.deepEqual(splitter.push(Buffer.from('c\r\nde\nf')), [
    { kind: 'line', text: 'abc' },
    { kind: 'line', text: 'de' },
  ]);
  assert.deepEqual(splitter.push(Buffer.from([0xff, 0x0a])), [{ kind: 'line', text: 'f\ufffd' }]);
  // Only the one CR right before the line break is cut (a line of a lone CR is empty); others are kept.
  assert.deepEqual(splitter.push(Buffer.from('\u00e9\r\r\n\r\na\rb\n')), [
    { kind: 'line', text: '\u00e9\r' },
    { kind: 'line', text: '' },
    { kind: 'line', text: 'a\rb' },
  ]);
});

test('LineSplitter reports one oversize event (a complete or an unfinished line) and then ignores input', () => {
  const complete = new LineSplitter(4);
  assert.deepEqual(complete.push(Buffer.from('abcd\nabcde\nok\n')), [
    { kind: 'line', text: 'abcd' },
    { kind: 'oversize', bytes: 5 },
  ]);
  assert.deepEqual(complete.push(Buffer.from('x\n')), []);
  const unfinished = new LineSplitter(4);
  assert.deepEqual(unfinished.push(Buffer.from('abc')), []);
  assert.deepEqual(unfinished.push(Buffer.from('de')), [{ kind: 'oversize', bytes: 5 }]);
  assert.throws(() => new LineSplitter(0), {
    name: 'TypeError',
    message: 'serveStdio: "maxLineBytes" must be a positive integer number of bytes, got 0',
  });
});

test('parseLine classifies every kind of line', () => {
  assert.deepEqual(parseLine(' '), { kind: 'blank' });
  assert.deepEqual(parseLine(''), { kind: 'blank' });
  assert.deepEqual(parseLine('\t '), { kind: 'blank' });
  assert.deepEqual(parseLine('{"jsonrpc":"2.0","id":"a","method":"ping"}'), {
    kind: 'message',
    message: { jsonrpc: '2.0', id: 'a', method: 'ping' },
  });
  assert.deepEqual(parseLine('nope'), {
    kind: 'invalid',
    answer: { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null },
  });
  assert.deepEqual(parseLine('{"jsonrpc":"2.0","id":"x","method":5}'), {
    kind: 'invalid',
    answer: {
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid Request: not a JSON-RPC 2.0 message' },
      id: 'x',
    },
  });
  assert.deepEqual(parseLine('5'), {
    kind: 'invalid',
    answer: {
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid Request: not a JSON-RPC 2.0 message' },
      id: null,
    },
  });
});

test('connectStdio on injected streams: answers, and close() resolves without touching the process', async () => {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const out: string[] = [];
  stdout.setEncoding('utf8');
  stdout.on('data', (chunk: string) => out.push(...chunk.split('\n').filter((l) => l !== '')));
  const handle = await connectStdio(() => makeTestServer(), { stdin, stdout });
  stdin.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
  await new Promise<void>((resolve) => stdout.once('data', () => resolve()));
  assert.deepEqual(out, ['{"result":{},"jsonrpc":"2.0","id":1}']);
  await handle.close();
  await handle.closed;
  assert.equal(process.listenerCount('SIGTERM'), 0);
});

test('connectStdio rejects a negative shutdownTimeoutMs before building a server', async () => {
  let built = 0;
  await assert.rejects(
    connectStdio(() => (built++, makeTestServer()), {
      stdin: new PassThrough(),
      stdout: new PassThrough(),
      shutdownTimeoutMs: -1,
    }),
    {
      name: 'TypeError',
      message: 'serveStdio: "shutdownTimeoutMs" must be a non-negative number of milliseconds, got -1',
    },
  );
  assert.equal(built, 0);
});

/**
 * Coalesced stdio writes (issue 7, speed): `HardenedStdioTransport` keeps the answers sent while
 * other requests are in flight and writes them together, in order, in one write when the last is
 * answered or the turn of the event loop ends; a lone answer is written at once; a close flushes
 * what is kept first; a broken stdout rejects what is kept. Over a real stdio child, concurrent
 * calls all get their own answers. A call's notifications go out before its result; ids `1` and
 * `"1"` are in flight apart; a send never throws. About 2 seconds.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { HardenedStdioTransport } from '../src/mcp/transports/stdio/stdio-transport.js';

/** A stdout that records each `write` call's text. */
class RecordingStdout extends Writable {
  readonly writes: string[] = [];
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.writes.push(chunk.toString('utf8'));
    callback();
  }
}

function transportOn(stdout: RecordingStdout, stdin = new PassThrough()): HardenedStdioTransport {
  return new HardenedStdioTransport({ stdin, stdout, maxLineBytes: 1024 * 1024, log: () => undefined });
}

const response = (id: number): JSONRPCMessage =>
  ({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: `answer ${id}` }] } }) as JSONRPCMessage;
const line = (id: number): string => `${JSON.stringify(response(id))}\n`;
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Feeds `tools/call` requests with these ids to the transport, so they are in flight. */
async function requestsInFlight(stdin: PassThrough, ids: readonly number[]): Promise<void> {
  stdin.write(
    ids
      .map(
        (id) =>
          `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'x', arguments: {} } })}\n`,
      )
      .join(''),
  );
  await nextTurn();
}

/** A started transport on recording stdio, with `tools/call` requests of these ids in flight. */
async function startedWith(
  ids: readonly number[],
): Promise<{ stdout: RecordingStdout; stdin: PassThrough; transport: HardenedStdioTransport }> {
  const stdout = new RecordingStdout();
  const stdin = new PassThrough();
  const transport = transportOn(stdout, stdin);
  await transport.start();
  await requestsInFlight(stdin, ids);
  return { stdout, stdin, transport };
}

test('answers sent while other requests are in flight are written together, in order, when the last is answered', async () => {
  const { stdout, stdin, transport } = await startedWith([1, 2, 3, 4, 5]);
  const sent = [3, 1, 2, 5].map((id) => transport.send(response(id)));
  assert.deepEqual(stdout.writes, []);
  sent.push(transport.send(response(4)));
  assert.deepEqual(stdout.writes, [line(3) + line(1) + line(2) + line(5) + line(4)]);
  await Promise.all(sent);
  // A lone request's answer is written at once, in a write of its own.
  await requestsInFlight(stdin, [6]);
  await transport.send(response(6));
  assert.deepEqual(stdout.writes.slice(1), [line(6)]);
  await transport.close();
});

test('answers kept while a request is still running are written at the end of the turn', async () => {
  const { stdout, transport } = await startedWith([1, 2, 3]);
  const sent = [1, 2].map((id) => transport.send(response(id)));
  assert.deepEqual(stdout.writes, []);
  await Promise.all(sent);
  assert.deepEqual(stdout.writes, [line(1) + line(2)]);
  assert.equal(transport.inFlightCount, 1);
  await transport.close();
});

test('a close flushes the answers kept before it closes; later sends are refused', async () => {
  const { stdout, transport } = await startedWith([1, 2, 3]);
  const sent = [1, 2].map((id) => transport.send(response(id)));
  await transport.close();
  assert.deepEqual(stdout.writes, [line(1) + line(2)]);
  await Promise.all(sent);
  await assert.rejects(transport.send(response(3)), { message: 'stdio output is closed' });
});

test('a stdout that breaks rejects the answers kept, and the transport closes as stdout-broken', async () => {
  const { stdout, transport } = await startedWith([1, 2, 3]);
  const kept = [1, 2].map((id) => transport.send(response(id)));
  stdout.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
  for (const each of kept) await assert.rejects(each, { message: 'stdio output is closed' });
  assert.equal(transport.closeReason, 'stdout-broken');
  assert.deepEqual(stdout.writes, []);
});

const progress = (id: number): JSONRPCMessage =>
  ({
    jsonrpc: '2.0',
    method: 'notifications/progress',
    params: { progressToken: id, progress: 1, message: `working on ${id}` },
  }) as JSONRPCMessage;

test("a call's notifications are written before its result, in the same write", async () => {
  const { stdout, stdin, transport } = await startedWith([1]);
  // The request is in flight: its notifications are kept for the end of the turn ...
  const sent = [transport.send(progress(1)), transport.send(progress(1))];
  assert.deepEqual(stdout.writes, []);
  // ... and its result, sent in the same turn, follows them in their write, never before it.
  sent.push(transport.send(response(1)));
  const notification = `${JSON.stringify(progress(1))}\n`;
  assert.deepEqual(stdout.writes, [notification + notification + line(1)]);
  await Promise.all(sent);
  // A notification of a call still running after the turn ends is written then, and the result on its own.
  await requestsInFlight(stdin, [2]);
  await transport.send(progress(2));
  assert.deepEqual(stdout.writes.slice(1), [`${JSON.stringify(progress(2))}\n`]);
  await transport.send(response(2));
  assert.deepEqual(stdout.writes.slice(2), [line(2)]);
  await transport.close();
});

test('requests with ids 1 and "1" are in flight apart: answering one leaves the other', async () => {
  const stdout = new RecordingStdout();
  const stdin = new PassThrough();
  const transport = transportOn(stdout, stdin);
  await transport.start();
  stdin.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0","id":"1","method":"ping"}\n');
  await nextTurn();
  assert.equal(transport.inFlightCount, 2);
  await transport.send({ jsonrpc: '2.0', id: 1, result: {} } as JSONRPCMessage);
  assert.equal(transport.inFlightCount, 1);
  let idle = false;
  const waited = transport.whenIdle().then(() => (idle = true));
  await nextTurn();
  assert.equal(idle, false, 'whenIdle resolved while the request "1" was still in flight');
  await transport.send({ jsonrpc: '2.0', id: '1', result: {} } as JSONRPCMessage);
  await waited;
  assert.equal(transport.inFlightCount, 0);
  await transport.close();
});

test('a send whose log throws rejects with that error instead of throwing', async () => {
  const transport = new HardenedStdioTransport({
    stdin: new PassThrough(),
    stdout: new RecordingStdout(),
    maxLineBytes: 1024,
    maxMessageBytes: 64,
    log: () => {
      throw new Error('log is broken');
    },
  });
  await transport.start();
  let sent: Promise<void> | undefined;
  assert.doesNotThrow(() => {
    sent = transport.send(progress(123456789) as JSONRPCMessage);
  });
  await assert.rejects(sent!, { message: 'log is broken' });
  await transport.close();
});

test('concurrent calls to a real stdio child all get their own answers', async () => {
  const server = fileURLToPath(new URL('../bench/support/echo6-toolwright-server.js', import.meta.url));
  const client = new Client({ name: 'speed-writes', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [server, 'stdio', '1'], stderr: 'ignore' }),
  );
  try {
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        client.callTool({ name: 'echo6', arguments: { text: `t${i}`, count: 2, separator: '+' } }),
      ),
    );
    assert.deepEqual(
      answers.map((answer) => (answer.content as Array<{ text: string }>)[0]!.text),
      Array.from({ length: 40 }, (_, i) => `t${i}+t${i}`),
    );
  } finally {
    await client.close();
  }
});

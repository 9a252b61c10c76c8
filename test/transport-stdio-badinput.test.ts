// The bad inputs of conformance-notes.md §4 ("Bad input over stdio"), sent as raw bytes to a real
// child process serving compiled toolwright tools (support/transport-badinput-fixture.ts) with
// serveStdio's defaults. Each row asserts the exact lines answered, or that nothing is answered:
// after the row, a `ping` is sent and must be answered, and the row's answers are exactly the
// other lines that arrived by then. Rows already pinned elsewhere are not repeated here (see
// docs/robustness.md): the framing rows (malformed JSON, empty line, `{"foo":1}`, `jsonrpc:"1.0"`,
// `id:null`, `id:{}`, a batch, CRLF) by transport-stdio.test.ts "stdio: bad lines are answered as
// JSON-RPC errors and the server keeps serving", and stdin EOF, EPIPE, SIGTERM and a line over a
// lowered limit by the other tests of that file.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { StdioChild } from './support/transport-child.js';

const FIXTURE = 'transport-badinput-fixture.js';

/** One §4 row: what is written to stdin and exactly what comes back. */
interface Row {
  /** The row, as docs/robustness.md names it. */
  readonly row: string;
  /** Raw lines written to stdin, each followed by `\n`. */
  readonly send?: ReadonlyArray<string | Buffer>;
  /** Steps for rows that must wait for the server between writes (after `send`). */
  readonly act?: (child: StdioChild) => Promise<void>;
  /** Every line answered, in arrival order, leaving out the liveness ping's own answer. */
  readonly answers: ReadonlyArray<string | RegExp>;
}

type Id = string | number;

const request = (id: Id, method: string, params?: unknown): string =>
  JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
const call = (id: Id, name: string, args?: unknown): string =>
  request(id, 'tools/call', args === undefined ? { name } : { name, arguments: args });
const notification = (method: string, params?: unknown): string =>
  JSON.stringify({ jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }) });
const cancel = (requestId: Id, reason?: string): string =>
  notification('notifications/cancelled', reason === undefined ? { requestId } : { requestId, reason });

/** The exact answer lines, in the key order the SDK's Protocol writes them. */
const pong = (id: Id): string => JSON.stringify({ result: {}, jsonrpc: '2.0', id });
const answered = (id: Id, text: string): string =>
  JSON.stringify({ result: { content: [{ type: 'text', text }] }, jsonrpc: '2.0', id });
const failed = (id: Id, text: string): string =>
  JSON.stringify({ result: { content: [{ type: 'text', text }], isError: true }, jsonrpc: '2.0', id });
const rpcError = (id: Id, code: number, message: string): string =>
  JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } });

const nested = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);
const MIB = 1024 * 1024;

/** Rows answered before `initialize`: stdio does not enforce the lifecycle (neither does the SDK). */
const BEFORE_INITIALIZE: readonly Row[] = [
  { row: 'ping before initialize', send: [request('early-ping', 'ping')], answers: [pong('early-ping')] },
  {
    row: 'tools/list before initialize',
    send: [request('early-list', 'tools/list')],
    answers: [
      /^\{"result":\{"tools":\[\{"name":"echo",.*\{"name":"slow",.*\{"name":"sum",.*\{"name":"boom",[^\n]*\]\},"jsonrpc":"2\.0","id":"early-list"\}$/,
    ],
  },
  {
    row: 'tools/call before initialize',
    send: [call('early-call', 'echo', { text: 'early' })],
    answers: [answered('early-call', 'early')],
  },
];

const ROWS: readonly Row[] = [
  {
    row: 'invalid UTF-8 bytes (decoded to U+FFFD)',
    send: [
      Buffer.concat([
        Buffer.from(
          '{"jsonrpc":"2.0","id":"utf8","method":"tools/call","params":{"name":"echo","arguments":{"text":"a',
        ),
        Buffer.from([0xff, 0xc3]),
        Buffer.from('b"}}}'),
      ]),
    ],
    answers: [answered('utf8', 'a\ufffd\ufffdb')],
  },
  {
    row: 'invalid UTF-8 outside a string (a malformed JSON line)',
    send: [Buffer.from([0x7b, 0xff, 0x7d])],
    answers: ['{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"},"id":null}'],
  },
  {
    row: 'unknown method',
    send: [request('no-method', 'no/such_method')],
    answers: [rpcError('no-method', -32601, 'Method not found')],
  },
  { row: 'unknown notification (ignored)', send: [notification('notifications/no_such_thing', { x: 1 })], answers: [] },
  {
    row: 'response with an unknown id (ignored)',
    send: [
      JSON.stringify({ jsonrpc: '2.0', id: 'never-asked', result: {} }),
      JSON.stringify({ jsonrpc: '2.0', id: 9999, error: { code: -1, message: 'no' } }),
    ],
    answers: [],
  },
  {
    row: 'unknown tool',
    send: [call('no-tool', 'no_such_tool', {})],
    answers: [rpcError('no-tool', -32602, 'Unknown tool: no_such_tool')],
  },
  {
    row: 'params.name missing',
    send: [request('no-name', 'tools/call', { arguments: {} })],
    answers: [rpcError('no-name', -32602, 'tools/call: params.name must be a string, got nothing')],
  },
  {
    row: 'params missing',
    send: [request('no-params', 'tools/call')],
    answers: [rpcError('no-params', -32602, 'tools/call: params.name must be a string, got nothing')],
  },
  {
    row: 'arguments a string',
    send: [call('args-string', 'echo', 'text')],
    answers: [rpcError('args-string', -32602, 'tools/call: params.arguments must be an object, got a string')],
  },
  {
    row: 'arguments an array',
    send: [call('args-array', 'echo', ['text'])],
    answers: [rpcError('args-array', -32602, 'tools/call: params.arguments must be an object, got an array')],
  },
  {
    row: 'missing required field',
    send: [call('missing', 'echo', {})],
    answers: [failed('missing', 'invalid arguments: /: must have required property "text"')],
  },
  {
    row: 'wrong type',
    send: [call('wrong-type', 'echo', { text: 5 })],
    answers: [failed('wrong-type', 'invalid arguments: /text: must be string')],
  },
  {
    row: 'out of range',
    send: [call('range', 'echo', { text: 'x', count: 6 })],
    answers: [failed('range', 'invalid arguments: /count: must be <= 5')],
  },
  {
    row: '1.5 for an integer',
    send: [call('fraction', 'echo', { text: 'x', count: 1.5 })],
    answers: [failed('fraction', 'invalid arguments: /count: must be integer or null')],
  },
  {
    row: '"2" for a number (no coercion)',
    send: [call('string-number', 'slow', { ms: '2' })],
    answers: [failed('string-number', 'invalid arguments: /ms: must be number')],
  },
  {
    row: 'every problem at once',
    send: [call('all-wrong', 'echo', { count: 0, extra: true })],
    answers: [
      failed(
        'all-wrong',
        'invalid arguments: /: must have required property "text"; /: must NOT have additional property "extra"; /count: must be >= 1',
      ),
    ],
  },
  {
    row: 'unknown extra argument',
    send: [call('extra', 'echo', { text: 'x', extra: 1 })],
    answers: [failed('extra', 'invalid arguments: /: must NOT have additional property "extra"')],
  },
  {
    row: '__proto__ in arguments',
    send: [
      '{"jsonrpc":"2.0","id":"proto","method":"tools/call","params":{"name":"echo","arguments":{"text":"x","__proto__":{"polluted":"yes"}}}}',
    ],
    answers: [failed('proto', 'invalid arguments: /: must NOT have additional property "__proto__"')],
  },
  {
    row: 'constructor in arguments',
    send: [call('ctor', 'echo', { text: 'x', constructor: { prototype: { polluted: 'yes' } } })],
    answers: [failed('ctor', 'invalid arguments: /: must NOT have additional property "constructor"')],
  },
  {
    row: 'handler throws',
    send: [call('boom', 'boom')],
    answers: [failed('boom', 'boom: the tool failed on purpose')],
  },
  {
    row: 'same id twice in flight (both run, both answered)',
    send: [call('twice', 'slow', { ms: 300 }), call('twice', 'echo', { text: 'second' })],
    answers: [answered('twice', 'second'), answered('twice', 'slept 300 ms')],
  },
  {
    row: 'same id twice in flight, then cancelled (only the later call aborts)',
    send: [call('both', 'slow', { ms: 400 }), call('both', 'slow', { ms: 401 }), cancel('both')],
    act: async (child) => {
      await child.waitForStderr('probe: slow aborted 401\n');
      await child.response('both');
    },
    answers: [answered('both', 'slept 400 ms')],
  },
  {
    row: '1 MiB string argument',
    send: [call('mib', 'echo', { text: 'x'.repeat(MIB) })],
    answers: [answered('mib', 'x'.repeat(MIB))],
  },
  {
    row: '1k-deep nested arrays',
    send: [
      `{"jsonrpc":"2.0","id":"deep-1k","method":"tools/call","params":{"name":"sum","arguments":{"values":${nested(1000)}}}}`,
    ],
    answers: [failed('deep-1k', 'invalid arguments: nested deeper than 64 levels')],
  },
  {
    row: '100k-deep nested arrays',
    send: [
      `{"jsonrpc":"2.0","id":"deep-100k","method":"tools/call","params":{"name":"sum","arguments":{"values":${nested(100_000)}}}}`,
    ],
    answers: [failed('deep-100k', 'invalid arguments: nested deeper than 64 levels')],
  },
  {
    row: '100k-deep nested objects in an unknown key',
    send: [
      `{"jsonrpc":"2.0","id":"deep-key","method":"tools/call","params":{"name":"echo","arguments":{"text":"x","extra":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}}}`,
    ],
    answers: [failed('deep-key', 'invalid arguments: nested deeper than 64 levels')],
  },
  {
    row: '200k-element array',
    send: [call('wide', 'sum', { values: Array.from({ length: 200_000 }, (_, i) => i % 3) })],
    answers: [answered('wide', '199999')],
  },
  {
    row: '100k-deep logging/setLevel level (was -32603 "Maximum call stack size exceeded")',
    send: [`{"jsonrpc":"2.0","id":"deep-level","method":"logging/setLevel","params":{"level":${nested(100_000)}}}`],
    answers: [
      rpcError(
        'deep-level',
        -32602,
        'logging/setLevel: unknown level an array; use one of debug, info, notice, warning, error, critical, alert, emergency',
      ),
    ],
  },
  {
    row: 'notifications/cancelled mid-call (the signal aborts, no response)',
    act: async (child) => {
      child.writeLine(call('cancel-me', 'slow', { ms: 30_000 }));
      await child.waitForStderr('probe: slow started 30000\n');
      child.writeLine(cancel('cancel-me', 'changed my mind'));
      await child.waitForStderr('probe: slow aborted 30000\n');
    },
    answers: [],
  },
  { row: 'cancelling an unknown id (ignored)', send: [cancel('never-sent'), cancel(424242)], answers: [] },
  {
    row: 'cancelling a finished id (ignored)',
    act: async (child) => {
      child.writeLine(call('finished', 'echo', { text: 'done' }));
      await child.response('finished');
      child.writeLine(cancel('finished'));
    },
    answers: [answered('finished', 'done')],
  },
  {
    // SDK 1.x ignored a cancellation of id 0 (a falsy id); 2.x cancels it like any other id.
    row: 'cancelling request id 0 (cancelled like any other id: no answer)',
    send: [call(0, 'slow', { ms: 200 }), cancel(0)],
    answers: [],
  },
];

/**
 * Writes a row, then a `ping`, and returns the lines that arrived for the row: everything since
 * it was written except the ping's answer, once the ping is answered and as many lines as the
 * row expects are there (every wait is bounded by StdioChild's limit).
 */
async function exchange(child: StdioChild, row: Row, index: number): Promise<string[]> {
  const start = child.lines.length;
  for (const line of row.send ?? []) child.child.stdin.write(Buffer.concat([Buffer.from(line), Buffer.from('\n')]));
  await row.act?.(child);
  const alive = `alive-${index}`;
  child.writeLine(request(alive, 'ping'));
  await child.response(alive);
  await child.waitForLines(start + row.answers.length + 1);
  return child.lines.slice(start).filter((line) => line !== pong(alive));
}

function assertAnswers(row: Row, lines: readonly string[]): void {
  assert.equal(
    lines.length,
    row.answers.length,
    `${row.row}: got ${lines.length} answer(s):\n${lines.map((l) => l.slice(0, 300)).join('\n')}`,
  );
  row.answers.forEach((expected, i) => {
    if (typeof expected === 'string') assert.equal(lines[i], expected, row.row);
    else assert.match(lines[i]!, expected, row.row);
  });
}

let child: StdioChild;
let index = 0;

before(async () => {
  child = new StdioChild({}, FIXTURE);
  await child.waitForStderr('probe: ready');
});
after(() => child.kill());

for (const row of BEFORE_INITIALIZE) {
  test(`stdio bad input: ${row.row}`, async () => assertAnswers(row, await exchange(child, row, index++)));
}

test('stdio bad input: initialize after those requests is answered normally', async () => {
  await child.initialize();
});

for (const row of ROWS) {
  test(`stdio bad input: ${row.row}`, async () => assertAnswers(row, await exchange(child, row, index++)));
}

test('stdio bad input: after every row the server is alive, prints no stack, and exits 0 on EOF', async () => {
  assertAnswers({ row: 'final ping', answers: [] }, await exchange(child, { row: 'final ping', answers: [] }, index++));
  child.child.stdin.end();
  assert.deepEqual(await child.exit(), { code: 0, signal: null });
  // No stack; the first of two calls sharing an id ran to the end; the call with id 0 was cancelled.
  assert.equal(
    child.stderr,
    [
      'probe: ready',
      'probe: slow started 300',
      'probe: slow started 400',
      'probe: slow started 401',
      'probe: slow aborted 401',
      'probe: slow started 30000',
      'probe: slow aborted 30000',
      'probe: slow started 200',
      'probe: slow aborted 200',
    ]
      .map((line) => `${line}\n`)
      .join(''),
  );
});

test('stdio bad input: a 5 MiB line over the default 4 MiB limit is answered, then the server closes and exits 0', async (t) => {
  const big = new StdioChild({}, FIXTURE);
  t.after(() => big.kill());
  await big.initialize();
  const start = big.lines.length;
  big.writeLine(call('five-mib', 'echo', { text: 'x'.repeat(5 * MIB) }));
  big.writeLine(request('after-oversize', 'ping'));
  assert.deepEqual(await big.exit(), { code: 0, signal: null });
  assert.deepEqual(big.lines.slice(start), [
    '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: line exceeds 4194304 bytes"},"id":null}',
  ]);
  assert.equal(big.stderr, 'probe: ready\ntoolwright: stdin line exceeds 4194304 bytes; closing\n');
});

test('stdio bad input: with maxLineBytes raised to 8 MiB a 5 MiB string argument is answered', async (t) => {
  const big = new StdioChild({ MAX_LINE_BYTES: String(8 * MIB) }, FIXTURE);
  t.after(() => big.kill());
  await big.initialize();
  big.writeLine(call('five-mib', 'echo', { text: 'x'.repeat(5 * MIB) }));
  assert.deepEqual(await big.response('five-mib'), {
    result: { content: [{ type: 'text', text: 'x'.repeat(5 * MIB) }] },
    jsonrpc: '2.0',
    id: 'five-mib',
  });
  big.child.stdin.end();
  assert.deepEqual(await big.exit(), { code: 0, signal: null });
});

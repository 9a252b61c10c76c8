import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  LoggingMessageNotificationSchema,
  type CallToolResult,
  type Progress,
} from '@modelcontextprotocol/sdk/types.js';
import { TOOL_META_KEY, createServer } from '../src/mcp/server/index.js';
import { serveHttp, type HttpHandle, type ServeHttpOptions } from '../src/mcp/transports/index.js';
import { schedTools } from './support/sched-tools.js';
import { textOf } from './support/text.js';

/**
 * The server enforces its tools' scheduling claims on the `tools/call` requests it receives from
 * real SDK clients (the 2025-era `@modelcontextprotocol/sdk` Client), over stdio (a child
 * process) and streamable HTTP on 127.0.0.1. The tools (see `sched-tools.ts`) record their start
 * and end as positions on one counter of the serving process; the checks compare positions,
 * never times. Waits on held calls are bounded by each test's timeout.
 */

const TIMEOUT = { timeout: 30_000 };
/** Why the tests cancel calls, and how the SDK client then rejects (it sends `notifications/cancelled`). */
const REASON = 'test cancels';
const CANCELLED = 'MCP error -32001: test cancels';
const FIXTURE = new URL('./support/sched-stdio-fixture.js', import.meta.url).pathname;

interface Span {
  readonly id: string;
  readonly start: number;
  readonly end: number;
}

/** The claims of the fixture's tools, written out independently of the server. */
const CLAIMS: ReadonlyMap<string, { readonly exclusive: boolean; readonly resource: string }> = new Map([
  ['free', { exclusive: false, resource: '' }],
  ['res_a', { exclusive: false, resource: 'shell:a' }],
  ['res_a_too', { exclusive: false, resource: 'shell:a' }],
  ['res_b', { exclusive: false, resource: 'shell:b' }],
  ['barrier', { exclusive: true, resource: '' }],
  ['seq', { exclusive: true, resource: '' }],
]);

/** Every client a test made, closed at the end of the file. */
const clients: Client[] = [];
/** Every log message a client received, by client. */
const logs = new Map<Client, unknown[]>();

async function connected(
  transport: StdioClientTransport | StreamableHTTPClientTransport | InMemoryTransport,
): Promise<Client> {
  const client = new Client({ name: 'sched-test', version: '1.0.0' });
  const received: unknown[] = [];
  logs.set(client, received);
  client.setNotificationHandler(
    LoggingMessageNotificationSchema,
    (notification) => void received.push(notification.params),
  );
  await client.connect(transport);
  clients.push(client);
  return client;
}

const stdioClient = (): Promise<Client> =>
  connected(new StdioClientTransport({ command: process.execPath, args: [FIXTURE], stderr: 'pipe' }));
const httpClient = (handle: HttpHandle): Promise<Client> =>
  connected(new StreamableHTTPClientTransport(new URL(handle.url)));

/** The progress a call reported, and a way to wait for the next one that matches. */
class ProgressLog {
  readonly events: Progress[] = [];
  private readonly waiters: { match: (p: Progress) => boolean; resolve: () => void }[] = [];

  readonly onprogress = (progress: Progress): void => {
    this.events.push(progress);
    for (const waiter of [...this.waiters]) {
      if (waiter.match(progress)) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };

  /** Resolves once a progress event matching `match` arrived (or had already). */
  seen(match: (p: Progress) => boolean): Promise<void> {
    if (this.events.some(match)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }

  started(): Promise<void> {
    return this.seen((p) => p.message === 'started');
  }

  waiting(): Promise<void> {
    return this.seen((p) => p.progress === 0);
  }
}

interface CallOptions {
  readonly signal?: AbortSignal;
  readonly progress?: ProgressLog;
}

function call(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  options: CallOptions = {},
): Promise<CallToolResult> {
  const requestOptions = {
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.progress ? { onprogress: options.progress.onprogress } : {}),
  };
  return client.callTool({ name, arguments: args }, undefined, requestOptions) as Promise<CallToolResult>;
}

/** The text of a call that did not fail. */
function okText(result: CallToolResult): string {
  assert.equal(result.isError, undefined, `the call failed: ${JSON.stringify(result)}`);
  return textOf(result);
}

const spanOf = (result: CallToolResult): Span => JSON.parse(okText(result)) as Span;

async function historyOf(client: Client): Promise<string[]> {
  return JSON.parse(okText(await call(client, 'history', {}))) as string[];
}

/** A call held until its controller aborts it, resolved once it started; `done` settles when it was aborted. */
async function hold(client: Client, name: string, id: string): Promise<{ readonly stop: () => Promise<void> }> {
  const controller = new AbortController();
  const progress = new ProgressLog();
  const done = call(client, name, { id, ms: 60_000 }, { signal: controller.signal, progress }).then(
    (result) => assert.fail(`held call ${id} answered ${JSON.stringify(result)}`),
    (error: unknown) => assert.equal((error as Error).message, CANCELLED),
  );
  await progress.started();
  return {
    stop: async () => {
      controller.abort(REASON);
      await done;
    },
  };
}

/**
 * Checks `sent` (tool and id, in arrival order) against the rules: calls on one resource never
 * overlap and run in arrival order; an exclusive call (barrier, sequential) starts after every
 * earlier call ended and ends before every later call starts. With `arrivalKnown` false (HTTP
 * requests on separate connections may arrive in any order) only the "never overlap" half is checked.
 */
function checkRules(
  sent: readonly (readonly [string, string])[],
  spans: ReadonlyMap<string, Span>,
  arrivalKnown: boolean,
): void {
  const overlap = (x: Span, y: Span): boolean => x.start < y.end && y.start < x.end;
  for (let i = 0; i < sent.length; i += 1) {
    for (let j = i + 1; j < sent.length; j += 1) {
      const [toolI, idI] = sent[i]!;
      const [toolJ, idJ] = sent[j]!;
      const a = spans.get(idI)!;
      const b = spans.get(idJ)!;
      const claimsI = CLAIMS.get(toolI)!;
      const claimsJ = CLAIMS.get(toolJ)!;
      const ordered =
        claimsI.exclusive || claimsJ.exclusive || (claimsI.resource !== '' && claimsI.resource === claimsJ.resource);
      if (!ordered) continue;
      if (arrivalKnown)
        assert.ok(a.end < b.start, `${idI} (${toolI}) ends before ${idJ} (${toolJ}) starts: ${JSON.stringify([a, b])}`);
      else
        assert.ok(!overlap(a, b), `${idI} (${toolI}) and ${idJ} (${toolJ}) do not overlap: ${JSON.stringify([a, b])}`);
    }
  }
}

/** A burst of calls with every claim, sent at once. */
const BURST: readonly (readonly [string, string])[] = [
  ['res_a', 'a1'],
  ['free', 'f1'],
  ['res_a_too', 'a2'],
  ['res_b', 'b1'],
  ['barrier', 'B1'],
  ['free', 'f2'],
  ['res_a', 'a3'],
  ['seq', 'S1'],
  ['res_b', 'b2'],
  ['free', 'f3'],
  ['res_a_too', 'a4'],
  ['res_b', 'b3'],
];

async function burst(client: Client, prefix: string): Promise<Map<string, Span>> {
  const results = await Promise.all(BURST.map(([tool, id]) => call(client, tool, { id: `${prefix}${id}` })));
  return new Map(results.map((result, index) => [BURST[index]![1], spanOf(result)]));
}

let stdio: Client;
let http: HttpHandle;
const servers: HttpHandle[] = [];

async function listen(options: ServeHttpOptions = {}): Promise<HttpHandle> {
  const handle = await serveHttp({ name: 'sched-http', version: '1.0.0' }, schedTools(), options);
  servers.push(handle);
  return handle;
}

before(async () => {
  stdio = await stdioClient();
  http = await listen();
});

after(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  await Promise.all(servers.map((server) => server.close()));
});

test('stdio: a burst of calls keeps every claim, in arrival order', TIMEOUT, async () => {
  checkRules(BURST, await burst(stdio, ''), true);
});

test('HTTP: a burst of calls on one session never overlaps where a claim forbids it', TIMEOUT, async () => {
  checkRules(BURST, await burst(await httpClient(http), 'h'), false);
});

test('stdio: calls that share nothing, or hold different resources, run at the same time', TIMEOUT, async () => {
  const met = await Promise.all([
    call(stdio, 'meet', { group: 'g1', count: 3 }),
    call(stdio, 'meet_a', { group: 'g1', count: 3 }),
    call(stdio, 'meet_b', { group: 'g1', count: 3 }),
  ]);
  assert.deepEqual(
    met.map((result) => spanOf(result).id),
    ['g1', 'g1', 'g1'],
  );
});

test(
  'stdio: a waiting call says what it waits for once (progress 0 and a debug log line), then its own progress follows',
  TIMEOUT,
  async () => {
    const held = await hold(stdio, 'res_a', 'hold-visible');
    const progress = new ProgressLog();
    const before = logs.get(stdio)!.length;
    const waiting = call(stdio, 'res_a_too', { id: 'visible' }, { progress });
    await progress.waiting();
    const text = 'tools/call "res_a_too" waits for resource "shell:a", held by "res_a"';
    assert.deepEqual(logs.get(stdio)!.slice(before), [{ level: 'debug', logger: 'toolwright/scheduling', data: text }]);
    await held.stop();
    assert.equal(spanOf(await waiting).id, 'visible');
    assert.deepEqual(progress.events, [
      { progress: 0, message: text },
      { progress: 1, message: 'started' },
    ]);
  },
);

test("HTTP: the debug line follows the session's logging level; the progress at 0 is still sent", TIMEOUT, async () => {
  const client = await httpClient(http);
  await client.setLoggingLevel('info');
  const held = await hold(client, 'res_b', 'quiet-hold');
  const progress = new ProgressLog();
  const waiting = call(client, 'res_b', { id: 'quiet' }, { progress });
  await progress.waiting();
  await held.stop();
  assert.equal(spanOf(await waiting).id, 'quiet');
  assert.deepEqual(progress.events, [
    { progress: 0, message: 'tools/call "res_b" waits for resource "shell:b", held by "res_b"' },
    { progress: 1, message: 'started' },
  ]);
  assert.deepEqual(logs.get(client), []);
});

test('stdio: a cancelled waiting call never starts and stops holding back the calls behind it', TIMEOUT, async () => {
  const held = await hold(stdio, 'res_a', 'hold-cancel');
  const controller = new AbortController();
  const barrierProgress = new ProgressLog();
  const barrier = call(
    stdio,
    'barrier',
    { id: 'cancelled-barrier' },
    { signal: controller.signal, progress: barrierProgress },
  );
  const barrierOutcome = barrier.then(
    () => 'answered',
    (error: unknown) => (error as Error).message,
  );
  await barrierProgress.waiting();
  assert.deepEqual(barrierProgress.events, [
    { progress: 0, message: 'tools/call "barrier" waits for 1 earlier call to finish (a barrier runs alone)' },
  ]);
  const behindProgress = new ProgressLog();
  const behind = call(stdio, 'free', { id: 'behind-barrier' }, { progress: behindProgress });
  await behindProgress.waiting();
  assert.deepEqual(behindProgress.events, [
    { progress: 0, message: 'tools/call "free" waits for the barrier "barrier" to finish' },
  ]);
  controller.abort(REASON);
  assert.equal(await barrierOutcome, CANCELLED);
  // The call behind the withdrawn barrier runs while the held call still runs.
  assert.equal(spanOf(await behind).id, 'behind-barrier');
  await held.stop();
  const history = await historyOf(stdio);
  assert.deepEqual(
    history.filter((entry) => /hold-cancel|barrier/.test(entry)),
    ['start hold-cancel', 'start behind-barrier', 'end behind-barrier', 'abort hold-cancel'],
  );
});

test(
  'stdio: a waiting call times out by its own limit, counted from when it was received, and never starts',
  TIMEOUT,
  async () => {
    const held = await hold(stdio, 'res_a', 'hold-limit');
    const result = await call(stdio, 'res_a_limited', { id: 'limited' });
    assert.deepEqual(result, {
      content: [{ type: 'text', text: 'tool "res_a_limited" timed out after 300 ms' }],
      isError: true,
    });
    await held.stop();
    assert.deepEqual(
      (await historyOf(stdio)).filter((entry) => /limit/.test(entry)),
      ['start hold-limit', 'abort hold-limit'],
    );
  },
);

test('stdio: a call answered with a timeout keeps its resource until its tool really stops', TIMEOUT, async () => {
  const timedOut = await call(stdio, 'gate_a_limited', { id: 'stubborn', gate: 'stubborn' });
  assert.deepEqual(timedOut, {
    content: [{ type: 'text', text: 'tool "gate_a_limited" timed out after 200 ms' }],
    isError: true,
  });
  const progress = new ProgressLog();
  const waiting = call(stdio, 'res_a', { id: 'after-stubborn' }, { progress });
  await progress.waiting();
  assert.deepEqual(progress.events, [
    { progress: 0, message: 'tools/call "res_a" waits for resource "shell:a", held by "gate_a_limited"' },
  ]);
  assert.equal(okText(await call(stdio, 'open', { gate: 'stubborn' })), 'opened');
  assert.equal(spanOf(await waiting).id, 'after-stubborn');
  assert.deepEqual(
    (await historyOf(stdio)).filter((entry) => /stubborn/.test(entry)),
    ['start stubborn', 'end stubborn', 'start after-stubborn', 'end after-stubborn'],
  );
});

test('HTTP: two sessions do not block each other', TIMEOUT, async () => {
  const first = await httpClient(http);
  const second = await httpClient(http);
  const held = await hold(first, 'barrier', 'session-one');
  assert.equal(spanOf(await call(second, 'barrier', { id: 'session-two' })).id, 'session-two');
  await held.stop();
});

test('HTTP: with scope "server", two sessions share one schedule', TIMEOUT, async () => {
  const shared = await listen({ scheduling: { scope: 'server' } });
  const first = await httpClient(shared);
  const second = await httpClient(shared);
  const held = await hold(first, 'barrier', 'server-one');
  const progress = new ProgressLog();
  const waiting = call(second, 'barrier', { id: 'server-two' }, { progress });
  await progress.waiting();
  assert.deepEqual(progress.events, [
    { progress: 0, message: 'tools/call "barrier" waits for 1 earlier call to finish (a barrier runs alone)' },
  ]);
  await held.stop();
  assert.equal(spanOf(await waiting).id, 'server-two');
});

test('HTTP stateless: requests have no session, so they share the server scope', TIMEOUT, async () => {
  const stateless = await listen({ stateless: true });
  const first = await httpClient(stateless);
  const second = await httpClient(stateless);
  // A cancellation cannot reach a stateless call (it is a request of its own), so a gate holds the resource.
  const heldProgress = new ProgressLog();
  const held = call(first, 'gate_a', { id: 'stateless-one', gate: 'stateless' }, { progress: heldProgress });
  await heldProgress.started();
  const progress = new ProgressLog();
  const waiting = call(second, 'res_a', { id: 'stateless-two' }, { progress });
  await progress.waiting();
  assert.deepEqual(progress.events, [
    { progress: 0, message: 'tools/call "res_a" waits for resource "shell:a", held by "gate_a"' },
  ]);
  assert.equal(okText(await call(second, 'open', { gate: 'stateless' })), 'opened');
  const [one, two] = [spanOf(await held), spanOf(await waiting)];
  assert.ok(one.end < two.start, `the held call ended before the waiting one started: ${JSON.stringify([one, two])}`);
});

test('HTTP: maxConcurrent bounds the calls of one scope that run at once', TIMEOUT, async () => {
  const limited = await listen({ scheduling: { maxConcurrent: 1 } });
  const client = await httpClient(limited);
  const held = await hold(client, 'free', 'slot-one');
  const progress = new ProgressLog();
  const waiting = call(client, 'free', { id: 'slot-two' }, { progress });
  await progress.waiting();
  assert.deepEqual(progress.events, [
    { progress: 0, message: 'tools/call "free" waits for a free slot (at most 1 call runs at once)' },
  ]);
  await held.stop();
  assert.equal(spanOf(await waiting).id, 'slot-two');
});

test('HTTP: scheduling false switches enforcement off, so calls on one resource overlap', TIMEOUT, async () => {
  const off = await listen({ scheduling: false });
  const client = await httpClient(off);
  const met = await Promise.all([
    call(client, 'meet_a', { group: 'off', count: 2 }),
    call(client, 'meet_a', { group: 'off', count: 2 }),
  ]);
  assert.deepEqual(
    met.map((result) => spanOf(result).id),
    ['off', 'off'],
  );
  // The claims are still listed, for a host that schedules by them itself.
  const listed = (await client.listTools()).tools
    .filter((tool) => ['meet_a', 'barrier', 'seq'].includes(tool.name))
    .map((tool) => [tool.name, tool._meta]);
  assert.deepEqual(listed, [
    ['barrier', { [TOOL_META_KEY]: { sequential: true, barrier: true, replay: true } }],
    ['seq', { [TOOL_META_KEY]: { sequential: true, replay: true } }],
    ['meet_a', { [TOOL_META_KEY]: { resource: 'shell:a', replay: true } }],
  ]);
});

test(
  'in memory: with scope "principal", the connections of one principal share a schedule, other principals run beside them',
  TIMEOUT,
  async () => {
    const tools = schedTools();
    /**
     * A connection to a server of its own for `tools`, whose requests carry auth info naming
     * `clientId` (as an auth layer would add).
     */
    const connect = async (clientId: string): Promise<Client> => {
      const server = createServer({ name: 'sched-memory', version: '1.0.0' }, tools, {
        scheduling: { scope: 'principal' },
      });
      const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
      await server.connect(serverTransport);
      const send = clientTransport.send.bind(clientTransport);
      clientTransport.send = (message, options) =>
        send(message, { ...options, authInfo: { token: 'test', clientId, scopes: [] } });
      return connected(clientTransport);
    };
    const alice = await connect('alice');
    const aliceAgain = await connect('alice');
    const bob = await connect('bob');
    const held = await hold(alice, 'barrier', 'alice-one');
    const progress = new ProgressLog();
    const waiting = call(aliceAgain, 'barrier', { id: 'alice-two' }, { progress });
    await progress.waiting();
    assert.deepEqual(progress.events, [
      { progress: 0, message: 'tools/call "barrier" waits for 1 earlier call to finish (a barrier runs alone)' },
    ]);
    assert.equal(spanOf(await call(bob, 'barrier', { id: 'bob-one' })).id, 'bob-one');
    await held.stop();
    assert.equal(spanOf(await waiting).id, 'alice-two');
  },
);

test('a malformed scheduling option is refused when the server is made', () => {
  const info = { name: 'bad', version: '1.0.0' };
  assert.throws(() => createServer(info, [], { scheduling: { scope: 'team' as 'server' } }), {
    name: 'TypeError',
    message: 'createServer: "scheduling.scope" must be "session", "principal" or "server", got "team"',
  });
  assert.throws(() => createServer(info, [], { scheduling: { maxConcurrent: 0 } }), {
    name: 'TypeError',
    message: 'createServer: "scheduling.maxConcurrent" must be a positive integer, got 0',
  });
  assert.throws(() => createServer(info, [], { scheduling: true as unknown as false }), {
    name: 'TypeError',
    message: 'createServer: "scheduling" must be false or an object with "scope" and "maxConcurrent", got a boolean',
  });
  return assert.rejects(serveHttp(info, [], { scheduling: { scope: 7 as unknown as 'server' } }), {
    name: 'TypeError',
    message: 'createServer: "scheduling.scope" must be "session", "principal" or "server", got a number',
  });
});

test(
  'HTTP, 2026-07-28 era (the v2 client pinned to it; stateless requests share the server scope): a burst never overlaps where a claim forbids it',
  TIMEOUT,
  async () => {
    const { Client: V2Client, StreamableHTTPClientTransport: V2HttpTransport } =
      await import('@modelcontextprotocol/client');
    const modern = new V2Client(
      { name: 'sched-2026', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await modern.connect(new V2HttpTransport(new URL(http.url)));
    try {
      const results = await Promise.all(
        BURST.map(([tool, id]) => modern.callTool({ name: tool, arguments: { id: `m${id}` } })),
      );
      const spans = new Map(results.map((result, index) => [BURST[index]![1], spanOf(result as CallToolResult)]));
      assert.deepEqual(
        [...spans.keys()],
        BURST.map(([, id]) => id),
      );
      checkRules(BURST, spans, false);
    } finally {
      await modern.close();
    }
  },
);

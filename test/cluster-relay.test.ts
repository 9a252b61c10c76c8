import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ContractTool } from '../src/contract/index.js';
import {
  invalidToken,
  MemoryRelayBus,
  relayFailedText,
  serveHttp,
  STALE_STATE_TEXT,
  type HttpHandle,
  type RelayBus,
} from '../src/mcp/index.js';
import { ParkedRuns } from '../src/mcp/server/input-rounds/parked-runs.js';
import { modernCall, type RawCall } from './support/cluster-clients.js';
import { envelope } from './support/modern-http.js';
import { untilAborted } from './support/text.js';

/*
 * The parked-run relay between the nodes of a cluster, in one process: endpoints "a" and "b"
 * (and "c" with a bus that loses messages, "d" with a bus that fails) share a `MemoryRelayBus`,
 * as separate processes share Redis. A 2026-07-28-era call parked on one node is resumed by a
 * retry that reaches another. The Redis bus and real processes behind HAProxy are in
 * cluster-redis.test.ts. About 2 s.
 */

const RESOURCE = 'http://127.0.0.1/mcp';
const FORM = { type: 'object', properties: { name: { type: 'string' } } };
const ELICIT = { elicitation: { form: {} } };
const seen = { sideEffects: 0, stopped: [] as string[] };

/** The tools of node `label`: each result says which node ran the call. */
function tools(label: string): ContractTool[] {
  return [
    {
      name: 'greet',
      description: 'Counts a side effect, asks for a name, greets it',
      async execute(_args, ctx) {
        seen.sideEffects += 1;
        const answer = await ctx.elicit({ message: 'Your name?', schema: FORM });
        return `hello ${String(answer.content?.name)} from ${label}`;
      },
    },
    {
      name: 'two_rounds',
      description: 'Asks twice, logging between',
      async execute(_args, ctx) {
        const first = await ctx.elicit({ message: 'First?' });
        ctx.log('info', `first was ${first.action} on ${label}`);
        const second = await ctx.elicit({ message: 'Second?' });
        return `${first.action} ${second.action} on ${label}`;
      },
    },
    {
      name: 'then_sample',
      description: 'Asks, then samples',
      async execute(_args, ctx) {
        await ctx.elicit({ message: 'Go?' });
        const sampled = await ctx.sample({
          messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
          maxTokens: 5,
        });
        return JSON.stringify(sampled.content);
      },
    },
    {
      name: 'slow_after',
      description: 'Asks, then works for 1 s',
      async execute(_args, ctx) {
        const answer = await ctx.elicit({ message: 'Go?' });
        await new Promise((resolve) => setTimeout(resolve, 1000));
        return `${answer.action} after a second on ${label}`;
      },
    },
    {
      name: 'wait_after',
      description: 'Asks, then waits until stopped',
      async execute(_args, ctx) {
        await ctx.elicit({ message: 'Go?' });
        await untilAborted(ctx.signal);
        seen.stopped.push(`${label}: ${(ctx.signal.reason as Error).message}`);
        return 'stopped';
      },
    },
  ];
}

const auth = {
  issuer: 'http://127.0.0.1/dev-issuer',
  resource: RESOURCE,
  verifier: async (token: string) => {
    if (!token.startsWith('dev-')) throw invalidToken('not a dev token');
    return {
      clientId: token.slice(4),
      scopes: [],
      expiresAt: Math.floor(Date.now() / 1000) + 3600,
      audience: [RESOURCE],
      claims: {},
    };
  },
};

/** A bus that says it delivered what it sends but drops it (to the sender, an owner that went silent). */
class LosingBus implements RelayBus {
  constructor(private readonly inner: RelayBus) {}
  send(): Promise<boolean> {
    return Promise.resolve(true);
  }
  listen(node: string, onMessage: (message: string) => void) {
    return this.inner.listen(node, onMessage);
  }
}

/** A bus whose server is gone: sending fails. */
const failingBus: RelayBus = {
  send: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:1')),
  listen: async () => ({ close: async () => undefined }),
};

const bus = new MemoryRelayBus();
const nodes = new Map<string, HttpHandle>();

before(async () => {
  for (const label of ['a', 'b'])
    nodes.set(
      label,
      await serveHttp({ name: `relay-${label}`, version: '1.0.0' }, tools(label), {
        auth,
        inputRounds: { nodeId: label, relay: bus },
      }),
    );
  nodes.set(
    'c',
    await serveHttp({ name: 'relay-c', version: '1.0.0' }, tools('c'), {
      auth,
      inputRounds: { nodeId: 'c', relay: new LosingBus(bus), relayTimeoutMs: 300 },
    }),
  );
  nodes.set(
    'd',
    await serveHttp({ name: 'relay-d', version: '1.0.0' }, tools('d'), {
      auth,
      inputRounds: { nodeId: 'd', relay: failingBus },
    }),
  );
  nodes.set(
    'e',
    await serveHttp({ name: 'relay-e', version: '1.0.0' }, tools('e'), {
      auth,
      inputRounds: { nodeId: 'e', relay: bus, relayTimeoutMs: 300 },
    }),
  );
  nodes.set(
    'plain',
    await serveHttp({ name: 'relay-plain', version: '1.0.0' }, tools('plain'), {
      auth,
      inputRounds: { nodeId: 'plain' },
    }),
  );
});

after(async () => {
  await Promise.all([...nodes.values()].map((node) => node.close()));
});

/** POSTs a 2026-07-28 `tools/call` to node `label` as principal `who`: its result or error, and every message. */
function call(
  label: string,
  who: string,
  name: string,
  extra: Record<string, unknown> = {},
  meta = envelope(ELICIT),
  signal?: AbortSignal,
): Promise<RawCall> {
  return modernCall(nodes.get(label)!.url, name, extra, meta, {
    token: `dev-${who}`,
    ...(signal !== undefined ? { signal } : {}),
  });
}

/** The result or the error of an answer. */
function responseOf(answer: RawCall): { result?: Record<string, unknown>; error?: unknown } {
  return answer.result !== undefined ? { result: answer.result } : { error: answer.error };
}

const stale = { content: [{ type: 'text', text: STALE_STATE_TEXT }], isError: true, resultType: 'complete' };
const accept = (name: string) => ({ elicit_1: { action: 'accept', content: { name } } });

test('relay: a call parked on node a is resumed by a retry that reaches node b; it ran once, on a', async () => {
  const before = seen.sideEffects;
  const first = responseOf(await call('a', 'alice', 'greet')).result!;
  const state = first.requestState as string;
  assert.match(state, /^a\.[0-9a-f]{32}$/);
  assert.deepEqual(
    responseOf(await call('b', 'alice', 'greet', { requestState: state, inputResponses: accept('Ada') })),
    { result: { content: [{ type: 'text', text: 'hello Ada from a' }], resultType: 'complete' } },
  );
  assert.equal(seen.sideEffects - before, 1);
  // The state answered once, wherever the next retry lands.
  assert.deepEqual(
    responseOf(await call('b', 'alice', 'greet', { requestState: state, inputResponses: accept('Ada') })),
    { result: stale },
  );
  assert.deepEqual(
    responseOf(await call('a', 'alice', 'greet', { requestState: state, inputResponses: accept('Ada') })),
    { result: stale },
  );
});

test("relay: every round of a call may land on another node; the call's log messages reach the relayed request", async () => {
  const first = responseOf(await call('b', 'alice', 'two_rounds', {}, envelope(ELICIT, 'info'))).result!;
  assert.match(first.requestState as string, /^b\./);
  const second = await call(
    'a',
    'alice',
    'two_rounds',
    { requestState: first.requestState, inputResponses: { elicit_1: { action: 'accept', content: {} } } },
    envelope(ELICIT, 'info'),
  );
  const round = responseOf(second).result!;
  // The next round's state is still the owner's: the retry after it is relayed again.
  assert.match(round.requestState as string, /^b\.[0-9a-f]{32}$/);
  assert.deepEqual(round, {
    resultType: 'input_required',
    inputRequests: {
      elicit_2: {
        method: 'elicitation/create',
        params: { mode: 'form', message: 'Second?', requestedSchema: { type: 'object', properties: {} } },
      },
    },
    requestState: round.requestState,
  });
  assert.deepEqual(
    second.messages
      .filter((m) => (m as { method?: string }).method === 'notifications/message')
      .map((m) => (m as { params: unknown }).params),
    [{ level: 'info', data: 'first was accept on b' }],
  );
  const last = await call('a', 'alice', 'two_rounds', {
    requestState: round.requestState,
    inputResponses: { elicit_2: { action: 'decline' } },
  });
  assert.deepEqual(responseOf(last), {
    result: { content: [{ type: 'text', text: 'accept decline on b' }], resultType: 'complete' },
  });
});

test('relay: a retry of another principal is refused (the call stays for its own principal)', async () => {
  const state = responseOf(await call('a', 'alice', 'greet')).result!.requestState as string;
  assert.deepEqual(
    responseOf(await call('b', 'mallory', 'greet', { requestState: state, inputResponses: accept('Eve') })),
    { result: stale },
  );
  assert.deepEqual(
    responseOf(await call('a', 'mallory', 'greet', { requestState: state, inputResponses: accept('Eve') })),
    { result: stale },
  );
  assert.deepEqual(
    responseOf(await call('b', 'alice', 'greet', { requestState: state, inputResponses: accept('Ada') })),
    { result: { content: [{ type: 'text', text: 'hello Ada from a' }], resultType: 'complete' } },
  );
});

test('relay: a retry naming another tool is refused; the call stays', async () => {
  const state = responseOf(await call('a', 'alice', 'greet')).result!.requestState as string;
  assert.deepEqual(
    responseOf(await call('b', 'alice', 'two_rounds', { requestState: state, inputResponses: accept('Ada') })),
    { result: stale },
  );
  assert.deepEqual(
    responseOf(await call('b', 'alice', 'greet', { requestState: state, inputResponses: accept('Ada') })),
    { result: { content: [{ type: 'text', text: 'hello Ada from a' }], resultType: 'complete' } },
  );
});

test("relay: the owner's protocol error reaches the client as the owner answered it", async () => {
  const state = responseOf(await call('a', 'alice', 'then_sample', {}, envelope({ ...ELICIT, sampling: {} }))).result!
    .requestState as string;
  // The retry declares no sampling: the owner's next question fails the request with -32021.
  assert.deepEqual(
    responseOf(
      await call('b', 'alice', 'then_sample', {
        requestState: state,
        inputResponses: { elicit_1: { action: 'accept', content: {} } },
      }),
    ),
    {
      error: {
        code: -32021,
        message:
          "Cannot request input 'sample_2' (sampling/createMessage): the request's client capabilities do not declare the required capability",
        data: { requiredCapabilities: { sampling: {} } },
      },
    },
  );
});

test('relay: a state of a node nobody listens for (it died) is answered "call the tool again" at once', async () => {
  assert.deepEqual(
    responseOf(
      await call('a', 'alice', 'greet', { requestState: `gone.${'0'.repeat(32)}`, inputResponses: accept('Ada') }),
    ),
    { result: stale },
  );
  // A well-formed state the owner never minted: the owner answers stale.
  assert.deepEqual(
    responseOf(
      await call('a', 'alice', 'greet', { requestState: `b.${'0'.repeat(32)}`, inputResponses: accept('Ada') }),
    ),
    { result: stale },
  );
});

test('relay: an owner that never answers: the retry is answered "call the tool again" after relayTimeoutMs', async () => {
  const state = responseOf(await call('a', 'alice', 'greet')).result!.requestState as string;
  // Node c's bus loses what it sends: its relayed retry hears nothing from a.
  assert.deepEqual(
    responseOf(await call('c', 'alice', 'greet', { requestState: state, inputResponses: accept('Ada') })),
    { result: stale },
  );
  // The call was never taken: a retry through a working node still resumes it.
  assert.deepEqual(
    responseOf(await call('b', 'alice', 'greet', { requestState: state, inputResponses: accept('Ada') })),
    { result: { content: [{ type: 'text', text: 'hello Ada from a' }], resultType: 'complete' } },
  );
});

test("relay: an owner that works longer than the waiting node's relayTimeoutMs keeps it waiting (heartbeats at the waiting node's pace)", async () => {
  // Node a (default 5 s) owns the call; node e (300 ms) waits for it while the tool works 1 s.
  const state = responseOf(await call('a', 'alice', 'slow_after')).result!.requestState as string;
  assert.deepEqual(
    responseOf(
      await call('e', 'alice', 'slow_after', {
        requestState: state,
        inputResponses: { elicit_1: { action: 'accept', content: {} } },
      }),
    ),
    {
      result: { content: [{ type: 'text', text: 'accept after a second on a' }], resultType: 'complete' },
    },
  );
});

test('relay: a bus that fails: the retry is answered with the reason', async () => {
  const state = responseOf(await call('a', 'alice', 'greet')).result!.requestState as string;
  assert.deepEqual(
    responseOf(await call('d', 'alice', 'greet', { requestState: state, inputResponses: accept('Ada') })),
    {
      result: {
        content: [{ type: 'text', text: relayFailedText('connect ECONNREFUSED 127.0.0.1:1') }],
        isError: true,
        resultType: 'complete',
      },
    },
  );
});

test('relay: without a relay, another node\'s state is answered "call the tool again"', async () => {
  const state = responseOf(await call('a', 'alice', 'greet')).result!.requestState as string;
  assert.deepEqual(
    responseOf(await call('plain', 'alice', 'greet', { requestState: state, inputResponses: accept('Ada') })),
    { result: stale },
  );
});

test('relay: a client hanging up on a relayed retry stops the call on its owner', async () => {
  const state = responseOf(await call('a', 'alice', 'wait_after')).result!.requestState as string;
  const controller = new AbortController();
  const retry = call(
    'b',
    'alice',
    'wait_after',
    { requestState: state, inputResponses: { elicit_1: { action: 'accept', content: {} } } },
    envelope(ELICIT),
    controller.signal,
  ).catch((error: Error) => error.name);
  for (let i = 0; i < 100 && seen.stopped.length === 0; i++) {
    if (i === 5) controller.abort();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.equal(await retry, 'AbortError');
  assert.deepEqual(seen.stopped, [
    'a: the call was stopped while it waited for input: the client cancelled the request',
  ]);
});

test('relay options: checked, naming the problem', () => {
  const check = (inputRounds: unknown, message: string) =>
    assert.throws(() => new ParkedRuns(inputRounds as never), { name: 'TypeError', message });
  check({ relay: bus }, 'inputRounds.relay needs inputRounds.nodeId (the name other processes reach this one by)');
  check(
    { nodeId: 'n', relay: 'redis' },
    'inputRounds.relay must be a relay bus (an object with send and listen), got a string',
  );
  check(
    { nodeId: 'n', relay: bus, relayTimeoutMs: 0 },
    'inputRounds.relayTimeoutMs must be a positive number of milliseconds up to 2147483647, got 0',
  );
  assert.equal(ParkedRuns.nodeOf(`n-1.${'0'.repeat(32)}`), 'n-1');
  assert.equal(ParkedRuns.nodeOf('0'.repeat(32)), undefined);
});

test("MemoryRelayBus: delivers to the node's one listener, says false for a node nobody listens for", async () => {
  const own = new MemoryRelayBus();
  const got: string[] = [];
  const listener = await own.listen('x', (message) => got.push(message));
  await assert.rejects(
    own.listen('x', () => undefined),
    { message: 'node "x" already has a listener on this relay bus' },
  );
  assert.equal(await own.send('x', 'hello'), true);
  assert.equal(await own.send('y', 'lost'), false);
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(got, ['hello']);
  await listener.close();
  assert.equal(await own.send('x', 'after'), false);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LoggingMessageNotificationSchema, type Progress } from '@modelcontextprotocol/sdk/types.js';
import type { CallContext, ContractTool, Session } from '../src/contract/index.js';
import { createServer, sessionFrom, sessionId } from '../src/mcp/server/index.js';
import { connect, notificationsOf, responsesOf, serve, until } from './support/server-harness.js';

function tool(name: string, execute: ContractTool['execute'], extra: Partial<ContractTool> = {}): ContractTool {
  return { name, description: `the ${name} tool`, execute, ...extra };
}

/** Resolves when `signal` aborts. */
function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) =>
    signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true }),
  );
}

test('cancelling a call aborts the tool signal and the server sends no result for it', async () => {
  let started = false;
  let finished = false;
  let reason: unknown;
  const slow = tool('slow', async (_args, ctx) => {
    started = true;
    await aborted(ctx.signal);
    reason = ctx.signal.reason;
    finished = true;
    return 'too late';
  });
  const { client, wire, close } = await serve([slow]);
  try {
    const controller = new AbortController();
    const call = client.callTool({ name: 'slow' }, undefined, { signal: controller.signal });
    await until(() => started);
    controller.abort('user pressed stop');
    await assert.rejects(call, { name: 'McpError', code: -32001, message: 'MCP error -32001: user pressed stop' });
    await until(() => finished);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(reason, 'user pressed stop');
    assert.deepEqual(
      responsesOf(wire).map((message) => (message as { id: unknown }).id),
      [0],
    );
    await assert.rejects(client.callTool({ name: 'slow' }, undefined, { signal: AbortSignal.abort() }), {
      name: 'AbortError',
      message: 'This operation was aborted',
    });
    assert.deepEqual(
      responsesOf(wire).map((message) => (message as { id: unknown }).id),
      [0],
    );
  } finally {
    await close();
  }
});

test('closing the connection aborts calls in flight', async () => {
  let started = false;
  let sawAbort = false;
  const waiting = tool('waiting', async (_args, ctx) => {
    started = true;
    await aborted(ctx.signal);
    sawAbort = true;
    return 'closed';
  });
  const { client, server, close } = await serve([waiting]);
  const call = client.callTool({ name: 'waiting' }).catch((err: Error) => err.message);
  await until(() => started);
  await server.close();
  await until(() => sawAbort);
  assert.equal(await call, 'MCP error -32000: Connection closed');
  await close();
});

test('a tool past its timeoutMs is answered with the timeout error, its signal aborted and its late result dropped', async () => {
  let reason: unknown;
  let release: () => void = () => {};
  const bounded = tool(
    'bounded',
    async (_args, ctx) => {
      await aborted(ctx.signal);
      reason = ctx.signal.reason;
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return 'late';
    },
    { timeoutMs: 20 },
  );
  const ignoring = tool('ignoring', () => new Promise(() => {}), { timeoutMs: 10 });
  const quick = tool('quick', async () => 'in time', { timeoutMs: 60_000 });
  const { client, close } = await serve([bounded, ignoring, quick]);
  try {
    assert.deepEqual(await client.callTool({ name: 'bounded' }), {
      content: [{ type: 'text', text: 'tool "bounded" timed out after 20 ms' }],
      isError: true,
    });
    assert.equal((reason as Error).name, 'CallTimeoutError');
    release();
    assert.deepEqual(await client.callTool({ name: 'ignoring' }), {
      content: [{ type: 'text', text: 'tool "ignoring" timed out after 10 ms' }],
      isError: true,
    });
    assert.deepEqual(await client.callTool({ name: 'quick' }), { content: [{ type: 'text', text: 'in time' }] });
  } finally {
    await close();
  }
});

test('createServer refuses a timeoutMs that is not a positive number', () => {
  assert.throws(() => createServer({ name: 's', version: '1' }, [tool('t', async () => 'x', { timeoutMs: 0 })]), {
    message: 'createServer: tool "t": timeoutMs: expected a positive number of milliseconds up to 2147483647, got 0',
  });
});

test('progress is sent only with a progress token: numbered updates, explicit values, update texts', async () => {
  let kept: CallContext | undefined;
  const working = tool('working', async (_args, ctx) => {
    kept = ctx;
    ctx.progress('step one');
    ctx.progress({ progress: 10, total: 20, message: 'half' });
    ctx.update('partial text');
    ctx.update({ content: [], details: { progress: 15, total: 20, message: 'from details' } });
    ctx.progress({ total: 0, message: '' });
    return 'done';
  });
  const { client, wire, close } = await serve([working]);
  try {
    const received: Progress[] = [];
    assert.deepEqual(
      await client.callTool({ name: 'working' }, undefined, { onprogress: (progress) => received.push(progress) }),
      { content: [{ type: 'text', text: 'done' }] },
    );
    const expected = [
      { progress: 1, message: 'step one' },
      { progress: 10, total: 20, message: 'half' },
      { progress: 3, message: 'partial text' },
      { progress: 15, total: 20, message: 'from details' },
      { progress: 5 },
    ];
    assert.deepEqual(received, expected);
    assert.deepEqual(
      notificationsOf(wire, 'notifications/progress'),
      expected.map((params) => ({ progressToken: 1, ...params })),
    );
    kept!.progress('after the result');
    await client.callTool({ name: 'working' });
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(
      notificationsOf(wire, 'notifications/progress'),
      expected.map((params) => ({ progressToken: 1, ...params })),
    );
  } finally {
    await close();
  }
});

test('log messages honour logging/setLevel; everything passes until the client sets one', async () => {
  const chatty = tool('chatty', async (_args, ctx) => {
    ctx.log('debug', 'debugging');
    ctx.log('info', { step: 1 }, 'worker');
    ctx.log('warning', 'careful', 'worker');
    ctx.log('emergency', ['all', 'hands']);
    return 'logged';
  });
  const { client, wire, close } = await serve([chatty]);
  try {
    const received: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      received.push(notification.params);
    });
    await client.callTool({ name: 'chatty' });
    assert.deepEqual(notificationsOf(wire, 'notifications/message'), [
      { level: 'debug', data: 'debugging' },
      { level: 'info', logger: 'worker', data: { step: 1 } },
      { level: 'warning', logger: 'worker', data: 'careful' },
      { level: 'emergency', data: ['all', 'hands'] },
    ]);
    await client.setLoggingLevel('warning');
    await client.callTool({ name: 'chatty' });
    assert.deepEqual(notificationsOf(wire, 'notifications/message').slice(4), [
      { level: 'warning', logger: 'worker', data: 'careful' },
      { level: 'emergency', data: ['all', 'hands'] },
    ]);
    await until(() => received.length === 6);
    await assert.rejects(
      client.request(
        { method: 'logging/setLevel', params: { level: 'loud' } },
        LoggingMessageNotificationSchema.shape.params,
      ),
      {
        message:
          'MCP error -32602: logging/setLevel: unknown level "loud"; use one of debug, info, notice, warning, error, critical, alert, emergency',
      },
    );
  } finally {
    await close();
  }
});

test('ctx.log with an unknown level fails the call with a readable error', async () => {
  const wrong = tool('wrong', async (_args, ctx) => {
    ctx.log('verbose' as never, 'x');
    return 'unreachable';
  });
  const { client, close } = await serve([wrong]);
  try {
    assert.deepEqual(await client.callTool({ name: 'wrong' }), {
      content: [
        {
          type: 'text',
          text: 'ctx.log: unknown level "verbose"; use one of debug, info, notice, warning, error, critical, alert, emergency',
        },
      ],
      isError: true,
    });
  } finally {
    await close();
  }
});

test('each connection has its own session object, the same for every call on it', async () => {
  const seen: Array<Session | undefined> = [];
  const ids: string[] = [];
  const counts = new WeakMap<Session, number>();
  const counter = tool('count', async (_args, ctx) => {
    const session = sessionFrom(ctx);
    seen.push(session);
    ids.push(sessionId(ctx));
    if (session === undefined) throw new Error('this tool needs a session');
    const next = (counts.get(session) ?? 0) + 1;
    counts.set(session, next);
    return String(next);
  });
  const tools = [counter];
  const first = await connect(createServer({ name: 's', version: '1' }, tools, { transport: 'memory' }));
  const second = await connect(createServer({ name: 's', version: '1' }, tools));
  try {
    const texts = async (client: typeof first.client) =>
      ((await client.callTool({ name: 'count' })).content as Array<{ text: string }>)[0]!.text;
    assert.deepEqual(
      [
        await texts(first.client),
        await texts(first.client),
        await texts(second.client),
        await texts(first.client),
        await texts(second.client),
      ],
      ['1', '2', '1', '3', '2'],
    );
    assert.equal(seen[0], seen[1]);
    assert.notEqual(seen[0], seen[2]);
    assert.deepEqual(seen[0], { id: '', transport: 'memory' });
    assert.deepEqual(seen[2], { id: '', transport: 'other' });
    assert.equal(Object.isFrozen(seen[0]), true);
    assert.deepEqual(ids, ['', '', '', '', '']);
  } finally {
    await first.close();
    await second.close();
  }
});

test('completion/complete is not advertised, and is "Method not found" (a tools-only server has nothing to complete)', async () => {
  const { client, close } = await serve([tool('x', async () => 'x')]);
  try {
    assert.equal(client.getServerCapabilities()?.completions, undefined);
    await assert.rejects(
      client.complete({
        ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
        argument: { name: 'arg1', value: 'a' },
      }),
      { code: -32601, message: 'MCP error -32601: Method not found' },
    );
  } finally {
    await close();
  }
});

test('the session id is the transport session id, for logs and for the session log level', async () => {
  const seen: string[] = [];
  const tagged = tool('tagged', async (_args, ctx) => {
    seen.push(sessionId(ctx), sessionFrom(ctx)!.transport);
    ctx.log('info', 'hidden');
    ctx.log('error', 'shown');
    return 'ok';
  });
  const { InMemoryTransport } = await import('@modelcontextprotocol/server');
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  serverTransport.sessionId = 'session-abc';
  const wire: unknown[] = [];
  const send = serverTransport.send.bind(serverTransport);
  serverTransport.send = async (message, options) => {
    wire.push(message);
    return send(message, options);
  };
  const server = createServer({ name: 's', version: '1' }, [tagged], { transport: 'http' });
  await server.connect(serverTransport);
  const client = new Client({ name: 'c', version: '1' });
  await client.connect(clientTransport);
  try {
    await client.setLoggingLevel('error');
    await client.callTool({ name: 'tagged' });
    assert.deepEqual(seen, ['session-abc', 'http']);
    assert.deepEqual(notificationsOf(wire as never, 'notifications/message'), [{ level: 'error', data: 'shown' }]);
  } finally {
    await client.close();
    await server.close();
  }
});

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import type { ContractTool } from '../src/contract/index.js';
import { connectStdio, serveHttp, type HttpHandle } from '../src/mcp/index.js';
import { serverFor } from '../src/mcp/server/create-server.js';
import { ParkedRuns } from '../src/mcp/server/input-rounds/parked-runs.js';
import { LiveSet } from '../src/mcp/server/live-set.js';
import { envelope, modernPost, resultOf, withoutServerInfo } from './support/modern-http.js';
import { until } from './support/server-harness.js';
import { untilAborted } from './support/text.js';

/*
 * MRTR (the 2026-07-28 era's input rounds) over real HTTP on 127.0.0.1 and over a real stdio
 * connection: a tool that asks a question is parked, answered `input_required`, and resumed by
 * the client's retry, in place (its side effects run once). One server per file, plus one with
 * short limits.
 */

const STALE = 'the call these answers belong to is no longer waiting for them; call the tool again';
const FORM = { type: 'object', properties: { name: { type: 'string' } } };
const ELICIT_CAPS = { elicitation: { form: {} } };

/** What the tools of this file did, for assertions. */
const seen = { sideEffects: 0, aborted: [] as string[], errors: [] as string[] };

const tools: ContractTool[] = [
  {
    name: 'greet',
    description: 'Counts a side effect, asks for a name, greets it',
    async execute(_args, ctx) {
      seen.sideEffects += 1;
      const answer = await ctx.elicit({ message: 'Your name?', schema: FORM });
      return answer.action === 'accept' ? `hello ${String(answer.content?.name)}` : `no name (${answer.action})`;
    },
  },
  {
    name: 'pair',
    description: 'Asks two questions together, then a third',
    async execute(_args, ctx) {
      const [first, second] = await Promise.all([
        ctx.elicit({ message: 'First?' }),
        ctx.elicit({ message: 'Second?' }),
      ]);
      const third = await ctx.elicit({ message: 'Third?' });
      return [first.action, second.action, third.action].join(' ');
    },
  },
  {
    name: 'twice',
    description: 'Asks twice in a row, reporting a refused question',
    async execute(_args, ctx) {
      const first = await ctx.elicit({ message: 'Once?' });
      try {
        const second = await ctx.elicit({ message: 'Twice?' });
        return `${first.action} ${second.action}`;
      } catch (error) {
        return `${first.action}; ${(error as Error).message}`;
      }
    },
  },
  {
    name: 'wait_after',
    description: 'Asks, then waits until cancelled',
    async execute(_args, ctx) {
      await ctx.elicit({ message: 'Go?' });
      seen.aborted.push('wait_after: resumed');
      await untilAborted(ctx.signal);
      seen.aborted.push(`wait_after: ${(ctx.signal.reason as Error).message}`);
      return 'stopped';
    },
  },
  {
    name: 'guarded',
    description: 'Asks, and reports when its signal aborts',
    async execute(_args, ctx) {
      ctx.signal.addEventListener(
        'abort',
        () => seen.aborted.push(`guarded: ${(ctx.signal.reason as Error).message}`),
        { once: true },
      );
      const answer = await ctx.elicit({ message: 'Proceed?' });
      return answer.action;
    },
  },
  {
    name: 'keyed',
    description: 'Asks with a key of its own',
    async execute(_args, ctx) {
      const answer = await ctx.elicit({ key: 'user_name', message: 'Name?', schema: FORM });
      return `keyed ${answer.action} ${JSON.stringify(answer.content ?? null)}`;
    },
  },
  {
    name: 'rooted',
    description: 'Lists the client roots',
    async execute(_args, ctx) {
      const roots = await ctx.roots();
      return `roots ${JSON.stringify(roots)}`;
    },
  },
  {
    name: 'sample',
    description: 'Samples the client model',
    async execute(_args, ctx) {
      const answer = await ctx.sample({
        messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
        maxTokens: 10,
      });
      return `model said ${(answer.content as { text: string }).text}`;
    },
  },
];

let handle: HttpHandle;
let limited: HttpHandle;
let abandoning: HttpHandle;

before(async () => {
  handle = await serveHttp({ name: 'mrtr', version: '1.0.0' }, tools);
  limited = await serveHttp({ name: 'mrtr-limited', version: '1.0.0' }, tools, {
    inputRounds: { maxRequests: 2, nodeId: 'node-a' },
  });
  abandoning = await serveHttp({ name: 'mrtr-abandoning', version: '1.0.0' }, tools, {
    inputRounds: { abandonAfterMs: 50 },
  });
});

after(async () => {
  await handle.close();
  await limited.close();
  await abandoning.close();
});

const call = (id: number, name: string, extra: Record<string, unknown> = {}) => ({
  id,
  method: 'tools/call',
  params: { name, arguments: {}, ...extra },
});

test(
  'mrtr: a question parks the call; the retry resumes it in place and the side effect ran once',
  { timeout: 20_000 },
  async () => {
    const before = seen.sideEffects;
    const first = withoutServerInfo(resultOf(await modernPost(handle.url, call(1, 'greet'), envelope(ELICIT_CAPS))));
    const state = first.requestState as string;
    assert.match(state, /^[0-9a-f]{32}$/);
    assert.deepEqual(first, {
      resultType: 'input_required',
      inputRequests: {
        elicit_1: {
          method: 'elicitation/create',
          params: { mode: 'form', message: 'Your name?', requestedSchema: FORM },
        },
      },
      requestState: state,
    });
    const retry = await modernPost(
      handle.url,
      call(2, 'greet', {
        requestState: state,
        inputResponses: { elicit_1: { action: 'accept', content: { name: 'Ada' } } },
      }),
      envelope(ELICIT_CAPS),
    );
    assert.deepEqual(withoutServerInfo(resultOf(retry)), {
      content: [{ type: 'text', text: 'hello Ada' }],
      resultType: 'complete',
    });
    assert.equal(seen.sideEffects - before, 1);
    // The state answered once: the same retry again is stale.
    const reused = await modernPost(
      handle.url,
      call(3, 'greet', {
        requestState: state,
        inputResponses: { elicit_1: { action: 'accept', content: { name: 'Ada' } } },
      }),
      envelope(ELICIT_CAPS),
    );
    assert.deepEqual(withoutServerInfo(resultOf(reused)), {
      content: [{ type: 'text', text: STALE }],
      isError: true,
      resultType: 'complete',
    });
    assert.equal(seen.sideEffects - before, 1);
  },
);

test(
  'mrtr: questions asked together form one round; the next question is a round of its own',
  { timeout: 20_000 },
  async () => {
    const first = withoutServerInfo(resultOf(await modernPost(handle.url, call(1, 'pair'), envelope(ELICIT_CAPS))));
    const empty = { type: 'object', properties: {} };
    assert.deepEqual(first.inputRequests, {
      elicit_1: { method: 'elicitation/create', params: { mode: 'form', message: 'First?', requestedSchema: empty } },
      elicit_2: { method: 'elicitation/create', params: { mode: 'form', message: 'Second?', requestedSchema: empty } },
    });
    const second = withoutServerInfo(
      resultOf(
        await modernPost(
          handle.url,
          call(2, 'pair', {
            requestState: first.requestState,
            inputResponses: { elicit_1: { action: 'accept', content: {} }, elicit_2: { action: 'decline' } },
          }),
          envelope(ELICIT_CAPS),
        ),
      ),
    );
    assert.deepEqual(second.inputRequests, {
      elicit_3: { method: 'elicitation/create', params: { mode: 'form', message: 'Third?', requestedSchema: empty } },
    });
    assert.notEqual(second.requestState, first.requestState);
    const done = await modernPost(
      handle.url,
      call(3, 'pair', {
        requestState: second.requestState,
        inputResponses: { elicit_3: { action: 'accept', content: {} } },
      }),
      envelope(ELICIT_CAPS),
    );
    assert.deepEqual(withoutServerInfo(resultOf(done)), {
      content: [{ type: 'text', text: 'accept decline accept' }],
      resultType: 'complete',
    });
  },
);

test('mrtr: a question the retry does not answer is cancel', { timeout: 20_000 }, async () => {
  const first = resultOf(await modernPost(handle.url, call(1, 'greet'), envelope(ELICIT_CAPS)));
  const retry = await modernPost(
    handle.url,
    call(2, 'greet', { requestState: first.requestState, inputResponses: {} }),
    envelope(ELICIT_CAPS),
  );
  assert.deepEqual(withoutServerInfo(resultOf(retry)), {
    content: [{ type: 'text', text: 'no name (cancel)' }],
    resultType: 'complete',
  });
});

test('mrtr: an unknown state, or one retried for another tool, is answered stale', { timeout: 20_000 }, async () => {
  const unknown = await modernPost(
    handle.url,
    call(1, 'greet', { requestState: '0'.repeat(32), inputResponses: {} }),
    envelope(ELICIT_CAPS),
  );
  assert.deepEqual(withoutServerInfo(resultOf(unknown)), {
    content: [{ type: 'text', text: STALE }],
    isError: true,
    resultType: 'complete',
  });
  const first = resultOf(await modernPost(handle.url, call(2, 'greet'), envelope(ELICIT_CAPS)));
  const other = await modernPost(
    handle.url,
    call(3, 'guarded', { requestState: first.requestState, inputResponses: {} }),
    envelope(ELICIT_CAPS),
  );
  assert.deepEqual(withoutServerInfo(resultOf(other)), {
    content: [{ type: 'text', text: STALE }],
    isError: true,
    resultType: 'complete',
  });
  // The rightful retry still finds the call.
  const retry = await modernPost(
    handle.url,
    call(4, 'greet', { requestState: first.requestState, inputResponses: { elicit_1: { action: 'decline' } } }),
    envelope(ELICIT_CAPS),
  );
  assert.deepEqual(withoutServerInfo(resultOf(retry)), {
    content: [{ type: 'text', text: 'no name (decline)' }],
    resultType: 'complete',
  });
});

test(
  'mrtr: a question while the last allowed request waits fails at once; states carry the node id',
  { timeout: 20_000 },
  async () => {
    const first = resultOf(await modernPost(limited.url, call(1, 'twice'), envelope(ELICIT_CAPS)));
    assert.match(first.requestState as string, /^node-a\.[0-9a-f]{32}$/);
    const retry = await modernPost(
      limited.url,
      call(2, 'twice', {
        requestState: first.requestState,
        inputResponses: { elicit_1: { action: 'accept', content: {} } },
      }),
      envelope(ELICIT_CAPS),
    );
    assert.deepEqual(withoutServerInfo(resultOf(retry)), {
      content: [
        { type: 'text', text: 'accept; this call already used its 2 requests; the question "Twice?" cannot be asked' },
      ],
      resultType: 'complete',
    });
  },
);

test(
  'mrtr: a call nobody answers is abandoned after abandonAfterMs, and its state is then stale',
  { timeout: 20_000 },
  async () => {
    const first = resultOf(await modernPost(abandoning.url, call(1, 'guarded'), envelope(ELICIT_CAPS)));
    await until(
      () =>
        seen.aborted.includes('guarded: the call was stopped while it waited for input: no answer came within 50 ms'),
      2000,
    );
    const late = await modernPost(
      abandoning.url,
      call(2, 'guarded', {
        requestState: first.requestState,
        inputResponses: { elicit_1: { action: 'accept', content: {} } },
      }),
      envelope(ELICIT_CAPS),
    );
    assert.deepEqual(withoutServerInfo(resultOf(late)), {
      content: [{ type: 'text', text: STALE }],
      isError: true,
      resultType: 'complete',
    });
  },
);

test('mrtr: a client hanging up the waiting retry stops the call', { timeout: 20_000 }, async () => {
  const first = resultOf(await modernPost(handle.url, call(1, 'wait_after'), envelope(ELICIT_CAPS)));
  const controller = new AbortController();
  const retry = modernPost(
    handle.url,
    call(2, 'wait_after', {
      requestState: first.requestState,
      inputResponses: { elicit_1: { action: 'accept', content: {} } },
    }),
    envelope(ELICIT_CAPS),
    controller.signal,
  );
  // Hang up once the retry has resumed the call.
  await until(() => seen.aborted.includes('wait_after: resumed'), 2000);
  controller.abort();
  await assert.rejects(retry, { name: 'AbortError' });
  await until(
    () =>
      seen.aborted.includes(
        'wait_after: the call was stopped while it waited for input: the client cancelled the request',
      ),
    2000,
  );
});

test(
  'mrtr: sampling rides the round trip; without the sampling capability the request gets -32021',
  { timeout: 20_000 },
  async () => {
    const first = withoutServerInfo(
      resultOf(await modernPost(handle.url, call(1, 'sample'), envelope({ sampling: {} }))),
    );
    assert.deepEqual(first.inputRequests, {
      sample_1: {
        method: 'sampling/createMessage',
        params: { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 10 },
      },
    });
    const answer = { role: 'assistant', content: { type: 'text', text: 'pong' }, model: 'm' };
    const retry = await modernPost(
      handle.url,
      call(2, 'sample', { requestState: first.requestState, inputResponses: { sample_1: answer } }),
      envelope({ sampling: {} }),
    );
    assert.deepEqual(withoutServerInfo(resultOf(retry)), {
      content: [{ type: 'text', text: 'model said pong' }],
      resultType: 'complete',
    });
    const refused = await modernPost(handle.url, call(3, 'sample'), envelope({}));
    assert.deepEqual(refused.messages, [
      {
        jsonrpc: '2.0',
        id: 3,
        error: {
          code: -32021,
          message:
            "Cannot request input 'sample_1' (sampling/createMessage): the request's client capabilities do not declare the required capability",
          data: { requiredCapabilities: { sampling: {} } },
        },
      },
    ]);
  },
);

test(
  'mrtr: roots ride the round trip as roots_<n>; without the roots capability the request gets -32021',
  { timeout: 20_000 },
  async () => {
    const first = withoutServerInfo(resultOf(await modernPost(handle.url, call(1, 'rooted'), envelope({ roots: {} }))));
    assert.deepEqual(first.inputRequests, { roots_1: { method: 'roots/list', params: {} } });
    const retry = await modernPost(
      handle.url,
      call(2, 'rooted', {
        requestState: first.requestState,
        inputResponses: { roots_1: { roots: [{ uri: 'file:///work', name: 'work', extra: 1 }] } },
      }),
      envelope({ roots: {} }),
    );
    assert.deepEqual(withoutServerInfo(resultOf(retry)), {
      content: [{ type: 'text', text: 'roots [{"uri":"file:///work","name":"work"}]' }],
      resultType: 'complete',
    });
    const refused = await modernPost(handle.url, call(3, 'rooted'), envelope({}));
    assert.deepEqual(refused.messages, [
      {
        jsonrpc: '2.0',
        id: 3,
        error: {
          code: -32021,
          message:
            "Cannot request input 'roots_1' (roots/list): the request's client capabilities do not declare the required capability",
          data: { requiredCapabilities: { roots: {} } },
        },
      },
    ]);
  },
);

test('mrtr: the end of a stdio session stops the calls parked for it', { timeout: 20_000 }, async () => {
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
  const runs = new ParkedRuns();
  const prepared = new LiveSet({ where: 'createServer', tools, options: {} });
  const served = await connectStdio(
    () => serverFor({ name: 'mrtr-stdio', version: '1.0.0' }, prepared, { transport: 'stdio' }, runs),
    { stdin, stdout, log: () => undefined },
  );
  const request = {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'guarded', arguments: {}, _meta: envelope(ELICIT_CAPS) },
  };
  stdin.write(`${JSON.stringify(request)}\n`);
  await until(() => lines.length === 1, 2000);
  const result = (lines[0] as { result: Record<string, unknown> }).result;
  assert.equal(result.resultType, 'input_required');
  assert.equal(runs.size, 1);
  stdin.end();
  await served.closed;
  await until(
    () => seen.aborted.includes('guarded: the call was stopped while it waited for input: the session ended'),
    2000,
  );
  assert.equal(runs.size, 0);
});

test(
  'mrtr: a question names its own key; answers sent up front answer it without a round',
  { timeout: 20_000 },
  async () => {
    const first = withoutServerInfo(resultOf(await modernPost(handle.url, call(1, 'keyed'), envelope(ELICIT_CAPS))));
    assert.deepEqual(first.inputRequests, {
      user_name: { method: 'elicitation/create', params: { mode: 'form', message: 'Name?', requestedSchema: FORM } },
    });
    const upfront = await modernPost(
      handle.url,
      call(2, 'keyed', {
        inputResponses: { user_name: { action: 'accept', content: { name: 'Bo' } }, extra_key: { action: 'decline' } },
      }),
      envelope(ELICIT_CAPS),
    );
    assert.deepEqual(withoutServerInfo(resultOf(upfront)), {
      content: [{ type: 'text', text: 'keyed accept {"name":"Bo"}' }],
      resultType: 'complete',
    });
  },
);

test(
  'mrtr: a requestState of a form no toolwright process mints is -32602, not a stale result',
  { timeout: 20_000 },
  async () => {
    const first = resultOf(await modernPost(handle.url, call(1, 'greet'), envelope(ELICIT_CAPS)));
    const tampered = await modernPost(
      handle.url,
      call(2, 'greet', { requestState: `${String(first.requestState)}-TAMPERED`, inputResponses: {} }),
      envelope(ELICIT_CAPS),
    );
    assert.deepEqual(tampered.messages, [
      {
        jsonrpc: '2.0',
        id: 2,
        error: { code: -32602, message: 'Invalid or expired requestState', data: { reason: 'invalid_request_state' } },
      },
    ]);
  },
);

test('mrtr: bad input-round options are refused, naming the option', () => {
  assert.throws(() => new ParkedRuns({ maxRequests: -1 }), {
    message:
      'inputRounds.maxRequests must be a positive integer, 0 (the default, 10) or Infinity (no limit), got -1 (a negative number is not "no limit" here)',
  });
  assert.throws(() => new ParkedRuns({ maxRequests: 2.5 }), {
    message: 'inputRounds.maxRequests must be a positive integer, 0 (the default, 10) or Infinity (no limit), got 2.5',
  });
  assert.throws(() => new ParkedRuns({ abandonAfterMs: -1 }), {
    message: 'inputRounds.abandonAfterMs must be a positive number of milliseconds up to 2147483647, got -1',
  });
  assert.throws(() => new ParkedRuns({ nodeId: 'a.b' }), {
    message: 'inputRounds.nodeId must be 1 to 64 characters of A-Za-z0-9_-, got "a.b"',
  });
});

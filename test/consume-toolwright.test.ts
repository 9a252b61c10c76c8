import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  ToolError,
  factsOf,
  replayOf,
  createCallContext,
  type ContractTool,
  type ToolOutput,
} from '../src/contract/index.js';
import { Executor } from '../src/runtime/index.js';
import { createServer, FACTS_METHOD } from '../src/mcp/server/index.js';
import { connectTools, consumedToolInfo } from '../src/mcp/client/index.js';
import { connectCounted } from './support/consume-servers.js';
import { slowTool } from './support/consume-decorated.js';

const ctxFor = (
  tool: string,
  args: unknown = {},
  extra: Parameters<typeof createCallContext>[0] extends infer I ? Partial<I> : never = {},
) => createCallContext({ call: { id: 'c1', tool, args }, ...extra });

function upstreamTools(): ContractTool[] {
  return [
    {
      name: 'look',
      title: 'Look',
      description: 'Reads a path',
      parameters: {
        type: 'object',
        properties: { path: { type: 'string' } },
        required: ['path'],
        additionalProperties: false,
      },
      annotations: { readOnly: true, idempotent: true },
      replay: 'safe',
      facts: (args) => ({
        calls: [{ tool: 'read', args: { path: String(args.path) }, text: `read ${String(args.path)}` }],
      }),
      execute: async (args) => `looked at ${(args as { path: string }).path}`,
    },
    {
      name: 'change',
      description: 'Changes things',
      annotations: { destructive: true },
      resource: 'db:main',
      execute: async () => ({
        content: [{ type: 'text', text: 'changed' }],
        record: { ns: 'test:change', data: { n: 1 } },
      }),
    },
    slowTool(),
    {
      name: 'ask',
      description: 'Asks the user',
      annotations: { readOnly: true },
      execute: async (_args, ctx) => {
        const answer = await ctx.elicit({
          message: 'Your name?',
          schema: { type: 'object', properties: { name: { type: 'string' } } },
        });
        return `answer: ${JSON.stringify(answer)}`;
      },
    },
    {
      name: 'fail',
      description: 'Always fails',
      annotations: { readOnly: true },
      execute: async () => {
        throw new ToolError('it broke');
      },
    },
  ];
}

const upstream = await connectCounted(createServer({ name: 'upstream', version: '1.0.0' }, upstreamTools()));
after(() => upstream.close());

function plainTool(tool: ContractTool): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(tool)) {
    const value = (tool as unknown as Record<string, unknown>)[key];
    out[key] = typeof value === 'function' ? 'function' : value;
  }
  return out;
}

test('untrusted: tools keep the listed schema and hints, claim nothing, run sequentially, and are unclassified', async () => {
  const tools = await connectTools(upstream.client);
  assert.deepEqual(tools.map(plainTool)[0], {
    name: 'look',
    description: 'Reads a path',
    execute: 'function',
    title: 'Look',
    parameters: {
      type: 'object',
      properties: { path: { type: 'string' } },
      required: ['path'],
      additionalProperties: false,
    },
    annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
    sequential: true,
  });
  assert.deepEqual(
    tools.map((t) => consumedToolInfo(t)?.permission),
    ['', '', '', '', ''],
  );
  assert.deepEqual(consumedToolInfo(tools[1]!)?.server, 'upstream');
  await assert.rejects(tools[0]!.execute({ path: 'a' }, ctxFor('look')), {
    name: 'PermissionDeniedError',
    message: 'permission denied: unclassified on "look": permission denied by default',
  });
});

test('trusted annotations: read runs, write is denied by default and allowed by a host rule', async () => {
  const tools = await connectTools(upstream.client, { trustServerAnnotations: true });
  assert.deepEqual(
    tools.map((t) => consumedToolInfo(t)?.permission),
    ['read', 'write', 'read', 'read', 'read'],
  );
  assert.deepEqual(
    tools.map((t) => [t.sequential, t.resource]),
    [
      [undefined, undefined],
      [true, undefined],
      [undefined, undefined],
      [undefined, undefined],
      [undefined, undefined],
    ],
  );
  const look = await tools[0]!.execute({ path: 'a' }, ctxFor('look'));
  assert.deepEqual(plainResult(look), {
    content: [{ type: 'text', text: 'looked at a' }],
    details: { result: { content: [{ type: 'text', text: 'looked at a' }] } },
    record: {
      ns: 'toolwright:permissions',
      data: { decisions: [], grants: [{ capabilities: ['read'], granted: ['read'], subjects: ['look'] }] },
    },
  });
  await assert.rejects(tools[1]!.execute({}, ctxFor('change')), {
    name: 'PermissionDeniedError',
    message: 'permission denied: write on "change": permission denied by default',
  });
  const allowed = await connectTools(upstream.client, {
    trustServerAnnotations: true,
    policy: { rules: [{ effect: 'allow', tool: 'change', capabilities: ['write'] }] },
  });
  const changed = (await allowed[1]!.execute(undefined, ctxFor('change'))) as { content: unknown; record?: unknown };
  assert.deepEqual(changed.content, [{ type: 'text', text: 'changed' }]);
  assert.deepEqual(changed.record, { ns: 'test:change', data: { n: 1 } });
});

test('a host question is asked only when the host configured one', async () => {
  const asked: string[] = [];
  const tools = await connectTools(upstream.client, {
    trustServerAnnotations: true,
    policy: {
      ask: async (question) => {
        asked.push(`${question.tool} ${question.capabilities.join(',')}`);
        return { decision: 'allow_once' };
      },
    },
  });
  const changed = (await tools[1]!.execute({}, ctxFor('change'))) as { content: unknown };
  assert.deepEqual(changed.content, [{ type: 'text', text: 'changed' }]);
  assert.deepEqual(asked, ['change write']);
  let elicited = 0;
  const noAsk = await connectTools(upstream.client, { trustServerAnnotations: true });
  await assert.rejects(
    noAsk[1]!.execute(
      {},
      ctxFor(
        'change',
        {},
        {
          elicit: async () => {
            elicited++;
            return { action: 'accept', content: { decision: 'allow_once' } };
          },
        },
      ),
    ),
    { name: 'PermissionDeniedError' },
  );
  assert.equal(elicited, 0);
});

test('isError results become tool errors with the server text; the projected form starts mcp_error=true', async () => {
  const tools = await connectTools(upstream.client, { permission: 'read' });
  await assert.rejects(tools[4]!.execute({}, ctxFor('fail')), (err: Error) => {
    assert.equal(err.name, 'ToolError');
    assert.equal(err.message, 'it broke');
    assert.deepEqual((err as ToolError).details, {
      result: { content: [{ type: 'text', text: 'it broke' }], isError: true },
    });
    return true;
  });
  const bounded = await connectTools(upstream.client, { permission: 'read', maxLLMChars: 10 });
  await assert.rejects(bounded[4]!.execute({}, ctxFor('fail')), { name: 'ToolError', message: 'mcp_err...' });
  const { record: _record, ...result } = plainResult(
    await bounded[0]!.execute({ path: 'abcdef' }, ctxFor('look')),
  ) as Record<string, unknown>;
  assert.deepEqual(result, {
    content: [{ type: 'text', text: 'looked ...' }],
    details: { result: { content: [{ type: 'text', text: 'looked at abcdef' }] }, forUser: 'looked at abcdef' },
  });
});

test('progress becomes updates, cancellation reaches the server, a per-tool timeout names server and tool', async () => {
  const tools = await connectTools(upstream.client, {
    permission: 'read',
    timeoutMs: (tool) => (tool.name === 'slow' ? 300 : undefined),
  });
  assert.equal(tools[2]!.timeoutMs, 300);
  assert.equal(tools[0]!.timeoutMs, undefined);
  const updates: ToolOutput[] = [];
  const controller = new AbortController();
  const running = tools[2]!.execute(
    {},
    ctxFor('slow', {}, {
      signal: controller.signal,
      update: (output: ToolOutput) => {
        updates.push(output);
        controller.abort(new Error('stop'));
      },
    } as never),
  );
  await assert.rejects(running, { message: 'stop' });
  assert.deepEqual(updates, [
    { content: [{ type: 'text', text: 'half' }], details: { progress: 1, total: 2, message: 'half' } },
  ]);
  const call = upstream.sent.filter((m) => m.method === 'tools/call').at(-1)!;
  assert.deepEqual(call.params, {
    name: 'slow',
    arguments: {},
    _meta: { progressToken: (call.params as { _meta: { progressToken: number } })._meta.progressToken },
  });
  assert.deepEqual(
    upstream.notified
      .filter((m) => m.method === 'notifications/cancelled')
      .map((m) => (m.params as { reason: string }).reason),
    ['Error: stop'],
  );
  await assert.rejects(tools[2]!.execute({}, ctxFor('slow')), {
    message: 'mcp server "upstream": tool "slow": timed out after 300 ms',
  });
});

test('elicitation: the single call in flight gets the question; no elicitor means cancel', async () => {
  const tools = await connectTools(upstream.client, { permission: 'read' });
  const questions: unknown[] = [];
  const answered = await tools[3]!.execute(
    {},
    ctxFor(
      'ask',
      {},
      {
        elicit: async (question) => {
          questions.push(question);
          return { action: 'accept', content: { name: 'Ada' } };
        },
      },
    ),
  );
  assert.deepEqual(contentOf(answered), {
    content: [{ type: 'text', text: 'answer: {"action":"accept","content":{"name":"Ada"}}' }],
  });
  assert.deepEqual(questions, [
    { message: 'Your name?', schema: { type: 'object', properties: { name: { type: 'string' } } } },
  ]);
  const nobody = await tools[3]!.execute({}, ctxFor('ask'));
  assert.deepEqual(contentOf(nobody), { content: [{ type: 'text', text: 'answer: {"action":"cancel"}' }] });
  const hosted = await connectTools(upstream.client, {
    permission: 'read',
    elicit: async (_q, about) => ({ action: 'accept', content: { name: `${about.server}/${about.tool}` } }),
  });
  assert.deepEqual(contentOf(await hosted[3]!.execute({}, ctxFor('ask'))), {
    content: [{ type: 'text', text: 'answer: {"action":"accept","content":{"name":"upstream/ask"}}' }],
  });
});

test('elicitation with two calls of one server in flight is answered cancel: nobody can tell whose question it is', async () => {
  const tools = await connectTools(upstream.client, { permission: 'read' });
  let asked = 0;
  const elicit = async () => {
    asked += 1;
    return { action: 'accept' as const, content: { name: 'Ada' } };
  };
  const outputs = await Promise.all([
    tools[3]!.execute({}, ctxFor('ask', {}, { elicit })),
    tools[3]!.execute({}, ctxFor('ask', {}, { elicit })),
  ]);
  assert.deepEqual(outputs.map(contentOf), [
    { content: [{ type: 'text', text: 'answer: {"action":"cancel"}' }] },
    { content: [{ type: 'text', text: 'answer: {"action":"cancel"}' }] },
  ]);
  assert.equal(asked, 0);
});

test('an explicit execution mode wins; the listed definition is kept frozen', async () => {
  const tools = await connectTools(upstream.client, {
    trustServerAnnotations: true,
    trustClaims: true,
    executionMode: (tool) => (tool.name === 'look' ? 'exclusive' : tool.name === 'change' ? 'parallel' : undefined),
  });
  assert.deepEqual(
    tools.map((t) => [t.name, t.sequential, t.barrier, t.resource]),
    [
      ['look', undefined, true, undefined],
      ['change', undefined, undefined, undefined],
      ['slow', undefined, undefined, undefined],
      ['ask', undefined, undefined, undefined],
      ['fail', undefined, undefined, undefined],
    ],
  );
  const definition = consumedToolInfo(tools[1]!)!.definition;
  assert.deepEqual(definition, {
    name: 'change',
    description: 'Changes things',
    inputSchema: { type: 'object', properties: {}, required: [] },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    _meta: { 'io.github.christopherdavenport.agenttool/tool': { resource: 'db:main', replay: true } },
  });
  assert.equal(Object.isFrozen(definition.annotations), true);
});

test('trusted claims: facts of a batch go in one execution/facts request; replay other than safe reads unknown', async () => {
  const untrusted = await connectTools(upstream.client, { permission: 'read' });
  assert.equal(untrusted[0]!.facts, undefined);
  assert.equal(await replayOf(untrusted[0]!, {}, ctxFor('look')), 'unknown');
  const tools = await connectTools(upstream.client, { permission: 'read', trustClaims: true });
  assert.deepEqual([tools[1]!.sequential, tools[1]!.resource], [undefined, 'db:main']);
  const before = upstream.sent.filter((m) => m.method === FACTS_METHOD).length;
  const answers = await Promise.all([
    factsOf(tools[0]!, { path: 'a' }, ctxFor('look')),
    factsOf(tools[0]!, { path: 'b' }, ctxFor('look')),
    replayOf(tools[0]!, { path: 'a' }, ctxFor('look')),
    factsOf(tools[1]!, {}, ctxFor('change')),
  ]);
  const requests = upstream.sent.filter((m) => m.method === FACTS_METHOD);
  assert.equal(requests.length - before, 1);
  assert.deepEqual(requests.at(-1)!.params, {
    calls: [
      { name: 'look', arguments: { path: 'a' } },
      { name: 'look', arguments: { path: 'b' } },
    ],
  });
  assert.deepEqual(answers, [
    { claimed: true, facts: { calls: [{ tool: 'read', args: { path: 'a' }, text: 'read a' }] } },
    { claimed: true, facts: { calls: [{ tool: 'read', args: { path: 'b' }, text: 'read b' }] } },
    'safe',
    { claimed: false },
  ]);
});

test('the executor runs consumed tools under the policy with their scheduling', async () => {
  const tools = await connectTools(upstream.client, { trustServerAnnotations: true });
  const outcomes = await new Executor({ tools }).run([
    { id: 'a', tool: 'look', args: { path: 'x' } },
    { id: 'b', tool: 'change', args: {} },
    { id: 'c', tool: 'fail', args: {} },
  ]);
  assert.deepEqual(
    outcomes.map((o) =>
      o.ok ? [o.id, 'ok', (o.result.content[0] as { text: string }).text] : [o.id, o.error.name, o.error.message],
    ),
    [
      ['a', 'ok', 'looked at x'],
      ['b', 'PermissionDeniedError', 'permission denied: write on "change": permission denied by default'],
      ['c', 'ToolError', 'it broke'],
    ],
  );
});

function plainResult(output: ToolOutput): unknown {
  return JSON.parse(JSON.stringify(output));
}

function contentOf(output: ToolOutput): unknown {
  return { content: (plainResult(output) as { content: unknown }).content };
}

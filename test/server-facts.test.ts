import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ContractTool, Session } from '../src/contract/index.js';
import { FACTS_METHOD } from '../src/mcp/server/index.js';
import { responsesOf, serve } from './support/server-harness.js';

let executed = 0;

function tool(name: string, extra: Partial<ContractTool> = {}): ContractTool {
  return {
    name,
    description: `the ${name} tool`,
    execute: async () => {
      executed++;
      return 'ran';
    },
    ...extra,
  };
}

test('execution/facts answers every call in order, in every answer kind, without running execute', async () => {
  executed = 0;
  const sessions: Array<Session | undefined> = [];
  const tools = [
    tool('bash', {
      replay: 'safe',
      facts: (args, ctx) => {
        sessions.push(ctx.session);
        const command = String(args.command);
        return {
          calls: [
            { tool: 'read', args: { path: '.env' }, text: 'read .env' },
            { tool: 'write', args: { path: 'out/x' }, text: '' },
            { tool: '', args },
          ],
          rewrite: { command, stamp: 'abc' },
        };
      },
    }),
    tool('itself', { facts: () => ({ calls: null }) }),
    tool('absent_calls', { facts: () => ({}) as never }),
    tool('nothing', { facts: async () => ({ calls: [] }), replay: 'keyed' }),
    tool('failing', {
      facts: () => {
        throw new Error('cannot read the command');
      },
      replay: 'safe',
    }),
    tool('unclaimed'),
    tool('replay_only', { replay: (args) => (args.again === true ? 'safe' : 'unknown') }),
    tool('typed', {
      parameters: { type: 'object', properties: { n: { type: 'integer' } }, additionalProperties: false },
      facts: () => ({ calls: null }),
    }),
    tool('wrong_shape', { facts: () => 'yes' as never }),
  ];
  const { client, wire, close } = await serve(tools);
  try {
    const calls = [
      { name: 'bash', arguments: { command: 'cat .env > out/x' } },
      { name: 'itself' },
      { name: 'absent_calls', arguments: {} },
      { name: 'nothing' },
      { name: 'failing' },
      { name: 'unclaimed' },
      { name: 'replay_only', arguments: { again: true } },
      { name: 'x' },
      { name: 'typed', arguments: { n: 'one' } },
      { name: 'typed', arguments: { n: 1 } },
      { name: 'wrong_shape' },
      { name: 'bash', arguments: 'not an object' },
    ];
    await client.request({ method: FACTS_METHOD, params: { calls } } as never, ResultSchema);
    const answered = (responsesOf(wire).at(-1) as { result: unknown }).result;
    assert.equal(
      JSON.stringify(answered),
      JSON.stringify({
        results: [
          {
            facts: {
              calls: [
                { tool: 'read', args: { path: '.env' }, text: 'read .env' },
                { tool: 'write', args: { path: 'out/x' } },
                { tool: '', args: { command: 'cat .env > out/x' } },
              ],
              rewrite: { command: 'cat .env > out/x', stamp: 'abc' },
            },
            replay: 'safe',
          },
          { facts: { calls: null }, replay: 'unknown' },
          { facts: { calls: null }, replay: 'unknown' },
          { facts: { calls: [] }, replay: 'unknown' },
          { error: 'cannot read the command', replay: 'safe' },
          { replay: 'unknown' },
          { replay: 'safe' },
          { error: 'unknown tool "x"', replay: 'unknown' },
          { error: 'invalid arguments: /n: must be integer', replay: 'unknown' },
          { facts: { calls: null }, replay: 'unknown' },
          { error: 'tool "wrong_shape": facts must return an object with "calls", got a string', replay: 'unknown' },
          { error: 'invalid arguments: the arguments must be a JSON object', replay: 'unknown' },
        ],
      }),
    );
    assert.equal(executed, 0);
    assert.deepEqual(sessions, [{ id: '', transport: 'memory' }]);
  } finally {
    await close();
  }
});

test('malformed execution/facts params are a -32602 error naming the problem', async () => {
  const { client, close } = await serve([tool('a')]);
  try {
    await assert.rejects(client.request({ method: FACTS_METHOD, params: {} } as never, ResultSchema), {
      message: 'MCP error -32602: execution/facts: params.calls must be an array of {"name", "arguments"?}',
    });
    await assert.rejects(
      client.request({ method: FACTS_METHOD, params: { calls: [{ arguments: {} }] } } as never, ResultSchema),
      {
        message: 'MCP error -32602: execution/facts: params.calls[0] must be an object with a string "name"',
      },
    );
    assert.deepEqual(await client.request({ method: FACTS_METHOD, params: { calls: [] } } as never, ResultSchema), {
      results: [],
    });
  } finally {
    await close();
  }
});

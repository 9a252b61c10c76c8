import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { ToolError, type ContractTool } from '../src/contract/index.js';
import { createPolicy } from '../src/runtime/index.js';
import {
  FACTS_METHOD,
  RECORD_META_KEY,
  TOOL_META_KEY,
  createServer,
  serveHttp,
  type HttpHandle,
} from '../src/mcp/index.js';
import { envelope, modernPost, resultOf, withoutServerInfo } from './support/modern-http.js';
import { responsesOf, serve, type Connected } from './support/server-harness.js';

/*
 * Wire fidelity with the Go seed: schemas validated in the dialect they declare, the
 * no-arguments schema, the annotations' title, records on failures and written while a tool
 * runs, `replay: true` on every served tool, and the facts decisions, in both eras. One in-memory
 * connection (SDK 1.x client) and one HTTP endpoint (raw 2026-07-28 requests) for the file.
 */

const warnings: string[] = [];
const factsAsked: string[] = [];

const tools: ContractTool[] = [
  {
    name: 'draft7',
    description: 'A draft-07 schema with the trailing #',
    parameters: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { n: { type: 'integer', maximum: 3 } },
      required: ['n'],
      additionalProperties: false,
    },
    execute: async (args) => `n=${String((args as { n: number }).n)}`,
  },
  {
    name: 'draft7_bare',
    description: 'A draft-07 schema without the trailing #',
    parameters: {
      $schema: 'http://json-schema.org/draft-07/schema',
      type: 'object',
      properties: { s: { type: 'string', minLength: 2 } },
    },
    execute: async () => 'ok',
  },
  {
    name: 'draft4',
    description: 'A draft-04 schema with a boolean exclusiveMinimum',
    parameters: {
      $schema: 'http://json-schema.org/draft-04/schema#',
      type: 'object',
      properties: { n: { type: 'number', minimum: 5, exclusiveMinimum: true } },
    },
    execute: async () => 'ok',
  },
  {
    name: 'future',
    description: 'A dialect nobody knows',
    parameters: { $schema: 'https://example.com/dialect/2099', type: 'object', properties: { n: { type: 'integer' } } },
    execute: async (args) => `got ${JSON.stringify(args)}`,
  },
  {
    name: 'bare',
    description: 'Takes no arguments',
    annotations: { title: 'Bare Tool', readOnly: true },
    execute: async () => 'ok',
  },
  {
    name: 'titled',
    title: 'Own Title',
    description: 'Has its own title',
    annotations: { title: 'Annotated' },
    execute: async () => 'ok',
  },
  {
    name: 'fails_with_record',
    description: 'Throws a ToolError carrying a record',
    execute: async () => {
      throw new ToolError('it broke', { record: { ns: 'test:failure', data: { step: 2 } } });
    },
  },
  {
    name: 'writes',
    description: 'Writes its record twice while it runs, the second raw',
    execute: async (_args, ctx) => {
      ctx.writeRecord('test:progress', { step: 1 });
      ctx.writeRecord('test:progress', '{"id":12345678901234567890}');
      return 'done';
    },
  },
  {
    name: 'writes_then_fails',
    description: 'Writes a record, then throws',
    execute: async (_args, ctx) => {
      ctx.writeRecord('test:partial', { done: 1 });
      throw new Error('half way');
    },
  },
  {
    name: 'asking_facts',
    description: 'Its facts try to ask the user',
    parameters: { type: 'object', properties: { n: { type: 'integer' } }, additionalProperties: false },
    facts: async (_args, ctx) => {
      const answer = await ctx.elicit({ message: 'May I?' });
      factsAsked.push(answer.action);
      return { calls: null };
    },
    execute: async () => 'ok',
  },
];

// Served under the host's policy (the call core applies it; no other tool here asks for a permission).
const denied: ContractTool[] = [
  {
    name: 'guarded_write',
    description: 'Writes under a policy',
    execute: async (_args, ctx) => {
      await ctx.requirePermission({ subject: '/etc/x', capabilities: ['write'] });
      return 'wrote';
    },
  },
];
const policy = createPolicy({
  rules: [{ effect: 'deny', capabilities: ['write'], path: '/etc/**', reason: 'system files' }],
});

let connected: Connected;
let handle: HttpHandle;

before(async () => {
  connected = await serve(
    [...tools, ...denied],
    {},
    { transport: 'memory', policy, log: (message) => warnings.push(message) },
  );
  handle = await serveHttp({ name: 'wire', version: '1.0.0' }, tools, { log: () => undefined });
});

after(async () => {
  await connected.close();
  await handle.close();
});

const text = async (name: string, args: Record<string, unknown> = {}) =>
  connected.client.callTool({ name, arguments: args });

test('wire: draft-07 schemas, with or without the trailing #, are validated as draft-07', async () => {
  assert.deepEqual(await text('draft7', { n: 2 }), { content: [{ type: 'text', text: 'n=2' }] });
  assert.deepEqual(await text('draft7', { n: 4 }), {
    content: [{ type: 'text', text: 'invalid arguments: /n: must be <= 3' }],
    isError: true,
  });
  assert.deepEqual(await text('draft7_bare', { s: 'x' }), {
    content: [{ type: 'text', text: 'invalid arguments: /s: must NOT have fewer than 2 characters' }],
    isError: true,
  });
});

test('wire: a draft-04 schema is validated as draft-04 (a boolean exclusiveMinimum)', async () => {
  assert.deepEqual(await text('draft4', { n: 5 }), {
    content: [{ type: 'text', text: 'invalid arguments: /n: must be > 5' }],
    isError: true,
  });
  assert.deepEqual(await text('draft4', { n: 6 }), { content: [{ type: 'text', text: 'ok' }] });
});

test('wire: a schema in an unknown dialect is served unvalidated, with one warning', async () => {
  assert.deepEqual(await text('future', { n: 'not a number' }), {
    content: [{ type: 'text', text: 'got {"n":"not a number"}' }],
  });
  assert.deepEqual(warnings, [
    'createServer: tool "future": schema declares the dialect "https://example.com/dialect/2099", which no validator here knows; it is served unvalidated',
  ]);
  assert.throws(
    () =>
      createServer({ name: 's', version: '1' }, [
        {
          ...tools[0]!,
          parameters: {
            $schema: 'http://json-schema.org/draft-07/schema#',
            type: 'object',
            properties: { n: { type: 'integer', maximum: 'three' } },
          },
        },
      ]),
    {
      message: 'createServer: tool "draft7": schema: schema is invalid: data/properties/n/maximum must be number',
    },
  );
});

test('wire: the listing: the no-arguments schema, the annotations title as title, replay on every tool', async () => {
  const listed = (await connected.client.listTools()).tools;
  const bare = listed.find((tool) => tool.name === 'bare');
  assert.deepEqual(bare, {
    name: 'bare',
    title: 'Bare Tool',
    description: 'Takes no arguments',
    inputSchema: { type: 'object', properties: {}, required: [] },
    annotations: {
      title: 'Bare Tool',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    },
    _meta: { [TOOL_META_KEY]: { replay: true, readOnly: true } },
  });
  assert.equal(listed.find((tool) => tool.name === 'titled')?.title, 'Own Title');
  assert.deepEqual(
    listed.map((tool) => tool._meta?.[TOOL_META_KEY]).filter((meta) => (meta as { replay?: unknown }).replay !== true),
    [],
  );
});

test("wire: a record crosses on a failure: a ToolError's, a permission denial's, or the last one written", async () => {
  assert.deepEqual(await text('fails_with_record'), {
    content: [{ type: 'text', text: 'it broke' }],
    isError: true,
    _meta: { [RECORD_META_KEY]: { ns: 'test:failure', data: '{"step":2}' } },
  });
  assert.deepEqual(await text('guarded_write'), {
    content: [{ type: 'text', text: 'permission denied: write on "/etc/x": system files' }],
    isError: true,
    _meta: {
      [RECORD_META_KEY]: {
        ns: 'toolwright:permissions',
        data: '{"decisions":[],"grants":[{"subjects":["/etc/x"],"capabilities":["write"],"granted":[]}]}',
      },
    },
  });
  assert.deepEqual(await text('writes_then_fails'), {
    content: [{ type: 'text', text: 'half way' }],
    isError: true,
    _meta: { [RECORD_META_KEY]: { ns: 'test:partial', data: '{"done":1}' } },
  });
});

test('wire: ctx.writeRecord: the last write wins, and raw JSON text crosses byte for byte', async () => {
  await text('writes');
  const response = responsesOf(connected.wire).at(-1) as { result: unknown };
  assert.equal(
    JSON.stringify(response.result),
    JSON.stringify({
      content: [{ type: 'text', text: 'done' }],
      _meta: { [RECORD_META_KEY]: { ns: 'test:progress', data: '{"id":12345678901234567890}' } },
    }),
  );
});

test('wire: facts validate arguments and never ask, in the 2025 era', async () => {
  factsAsked.length = 0;
  await connected.client.request(
    {
      method: FACTS_METHOD,
      params: {
        calls: [
          { name: 'asking_facts', arguments: { n: 1 } },
          { name: 'asking_facts', arguments: { n: 'x' } },
        ],
      },
    } as never,
    ResultSchema,
  );
  assert.deepEqual((responsesOf(connected.wire).at(-1) as { result: unknown }).result, {
    results: [
      { facts: { calls: null }, replay: 'unknown' },
      { error: 'invalid arguments: /n: must be integer', replay: 'unknown' },
    ],
  });
  assert.deepEqual(factsAsked, ['cancel']);
});

test('wire: facts validate arguments and never ask, in the 2026-07-28 era', async () => {
  factsAsked.length = 0;
  const answer = await modernPost(
    handle.url,
    {
      id: 1,
      method: FACTS_METHOD,
      params: {
        calls: [
          { name: 'asking_facts', arguments: { n: 1 } },
          { name: 'asking_facts', arguments: { n: 'x' } },
        ],
      },
    },
    envelope({ elicitation: { form: {} } }),
  );
  assert.deepEqual(withoutServerInfo(resultOf(answer)), {
    results: [
      { facts: { calls: null }, replay: 'unknown' },
      { error: 'invalid arguments: /n: must be integer', replay: 'unknown' },
    ],
    resultType: 'complete',
  });
  assert.deepEqual(factsAsked, ['cancel']);
});

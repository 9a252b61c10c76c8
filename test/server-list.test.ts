import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ListToolsResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ContractTool } from '../src/contract/index.js';
import { FACTS_CAPABILITY, TOOL_META_KEY, createServer, definitionOf } from '../src/mcp/server/index.js';
import { responsesOf, serve } from './support/server-harness.js';

function tool(name: string, extra: Partial<ContractTool> = {}): ContractTool {
  return { name, description: `the ${name} tool`, execute: async () => 'ok', ...extra };
}

test('a tool that states nothing is listed with the empty-object schema (as the Go seed lists it), no annotations, and only replay under _meta', () => {
  assert.deepEqual(definitionOf(tool('plain')), {
    name: 'plain',
    description: 'the plain tool',
    inputSchema: { type: 'object', properties: {}, required: [] },
    _meta: { [TOOL_META_KEY]: { replay: true } },
  });
});

test('parameters and an output schema are listed verbatim, $schema and $defs kept', () => {
  const parameters = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: { address: { $ref: '#/$defs/address' } },
    required: ['address'],
    additionalProperties: false,
    $defs: { address: { type: 'object', properties: { street: { type: 'string' } }, additionalProperties: false } },
  };
  const outputSchema = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };
  const definition = definitionOf(tool('schemas', { title: 'Schemas', parameters, outputSchema }));
  assert.equal(
    JSON.stringify(definition),
    JSON.stringify({
      name: 'schemas',
      title: 'Schemas',
      description: 'the schemas tool',
      inputSchema: parameters,
      outputSchema,
      _meta: { [TOOL_META_KEY]: { replay: true } },
    }),
  );
});

test('stated annotations list every hint, missing ones false, title only when given', () => {
  assert.deepEqual(definitionOf(tool('some', { annotations: { readOnly: true } })).annotations, {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  });
  assert.deepEqual(
    definitionOf(
      tool('titled', { annotations: { title: 'Titled', destructive: true, idempotent: true, openWorld: true } }),
    ).annotations,
    {
      title: 'Titled',
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: true,
    },
  );
  assert.deepEqual(definitionOf(tool('empty', { annotations: {} })).annotations, {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  });
});

test('a flow that reads untrusted content or sends forces openWorldHint, creating a lone block when none was stated', () => {
  assert.deepEqual(
    definitionOf(tool('reader', { annotations: { readOnly: true }, flow: { readsUntrusted: true } })).annotations,
    { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  );
  assert.deepEqual(definitionOf(tool('sender', { flow: { sends: true } })), {
    name: 'sender',
    description: 'the sender tool',
    inputSchema: { type: 'object', properties: {}, required: [] },
    annotations: { openWorldHint: true },
    _meta: { [TOOL_META_KEY]: { replay: true, flow: { sends: true } } },
  });
  assert.deepEqual(definitionOf(tool('quiet', { flow: { readsUntrusted: false, sends: false } })), {
    name: 'quiet',
    description: 'the quiet tool',
    inputSchema: { type: 'object', properties: {}, required: [] },
    _meta: { [TOOL_META_KEY]: { replay: true } },
  });
});

test('claims are listed under the tool _meta key in wire order, false fields omitted, replay on every served tool', () => {
  const everything = tool('everything', {
    annotations: { readOnly: true },
    replay: 'safe',
    facts: () => ({ calls: null }),
    flow: { readsUntrusted: true, sends: true },
  });
  assert.equal(
    JSON.stringify(definitionOf(everything)._meta),
    JSON.stringify({
      [TOOL_META_KEY]: { facts: true, replay: true, readOnly: true, flow: { readsUntrusted: true, sends: true } },
    }),
  );
  assert.equal(
    JSON.stringify(definitionOf(tool('chained', { resource: 'shell:session' }))._meta),
    `{"${TOOL_META_KEY}":{"replay":true,"resource":"shell:session"}}`,
  );
  assert.equal(
    JSON.stringify(definitionOf(tool('alone', { sequential: true, resource: 'shell:session' }))._meta),
    `{"${TOOL_META_KEY}":{"replay":true,"sequential":true}}`,
  );
  assert.equal(
    JSON.stringify(definitionOf(tool('split', { barrier: true, resource: 'x:y' }))._meta),
    `{"${TOOL_META_KEY}":{"replay":true,"sequential":true,"barrier":true}}`,
  );
  assert.equal(
    JSON.stringify(definitionOf(tool('keyed', { replay: () => 'keyed' }))._meta),
    `{"${TOOL_META_KEY}":{"replay":true}}`,
  );
  assert.deepEqual(definitionOf(tool('none', { resource: '', annotations: { readOnly: false } })), {
    name: 'none',
    description: 'the none tool',
    inputSchema: { type: 'object', properties: {}, required: [] },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    _meta: { [TOOL_META_KEY]: { replay: true } },
  });
});

test('tools/list serves the definitions byte for byte, and initialize advertises the capabilities', async () => {
  const tools = [
    tool('a_plain'),
    tool('b_claims', { annotations: { title: 'B', readOnly: true }, barrier: true, facts: () => ({ calls: [] }) }),
    tool('c_flow', { flow: { readsUntrusted: true }, resource: 'repo:main' }),
  ];
  const { client, wire, close } = await serve(tools);
  try {
    assert.deepEqual(client.getServerCapabilities(), {
      tools: { listChanged: true },
      logging: {},
      experimental: { [FACTS_CAPABILITY]: {} },
    });
    assert.deepEqual(client.getServerVersion(), { name: 'server-test', version: '0.0.1' });
    await client.request({ method: 'tools/list' }, ListToolsResultSchema);
    const listed = responsesOf(wire).at(-1) as { result: unknown };
    assert.equal(
      JSON.stringify(listed.result),
      JSON.stringify({
        tools: [
          {
            name: 'a_plain',
            description: 'the a_plain tool',
            inputSchema: { type: 'object', properties: {}, required: [] },
            _meta: { [TOOL_META_KEY]: { replay: true } },
          },
          {
            name: 'b_claims',
            title: 'B',
            description: 'the b_claims tool',
            inputSchema: { type: 'object', properties: {}, required: [] },
            annotations: {
              title: 'B',
              readOnlyHint: true,
              destructiveHint: false,
              idempotentHint: false,
              openWorldHint: false,
            },
            _meta: { [TOOL_META_KEY]: { facts: true, replay: true, readOnly: true, sequential: true, barrier: true } },
          },
          {
            name: 'c_flow',
            description: 'the c_flow tool',
            inputSchema: { type: 'object', properties: {}, required: [] },
            annotations: { openWorldHint: true },
            _meta: { [TOOL_META_KEY]: { replay: true, resource: 'repo:main', flow: { readsUntrusted: true } } },
          },
        ],
      }),
    );
  } finally {
    await close();
  }
});

test('server info carries the title and instructions when given', async () => {
  const { client, close } = await import('./support/server-harness.js').then(({ connect }) =>
    connect(
      createServer({ name: 'named', version: '2.0.0', title: 'Named Server', instructions: 'Use the tools wisely.' }, [
        tool('x'),
      ]),
    ),
  );
  try {
    assert.deepEqual(client.getServerVersion(), { name: 'named', version: '2.0.0', title: 'Named Server' });
    assert.equal(client.getInstructions(), 'Use the tools wisely.');
  } finally {
    await close();
  }
});

test('createServer refuses duplicate names, bad names and unusable schemas, naming the tool', () => {
  const info = { name: 's', version: '1' };
  assert.throws(() => createServer(info, [tool('twice'), tool('twice')]), {
    message: 'createServer: tool "twice" is listed twice; tool names must be unique',
  });
  assert.throws(() => createServer(info, [tool('has space')]), {
    message: 'createServer: tool "has space": the name must be 1 to 128 characters of A-Za-z0-9, "_", "-" and "."',
  });
  assert.throws(() => createServer(info, [tool('str', { parameters: { type: 'string' } })]), {
    message: 'createServer: tool "str": schema: must be a JSON Schema object with "type": "object" at its root',
  });
  assert.throws(
    () =>
      createServer(info, [
        tool('broken', { parameters: { type: 'object', properties: { n: { type: 'integer', minimum: 'one' } } } }),
      ]),
    {
      message: 'createServer: tool "broken": schema: schema is invalid: data/properties/n/minimum must be number',
    },
  );
  assert.throws(() => createServer(info, [tool('out', { outputSchema: { type: 'object', required: 'x' } })]), {
    message: 'createServer: tool "out": output schema: schema is invalid: data/required must be array',
  });
  assert.throws(() => createServer(info, [{ name: 'no_execute', description: '' } as unknown as ContractTool]), {
    message: 'createServer: tools[0] is not a contract tool (it needs a string "name" and an "execute" function)',
  });
});

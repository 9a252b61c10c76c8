import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compile, ContractError, type ContractTool } from '../src/index.js';
import { Executor } from '../src/runtime/index.js';
import { serveHttp } from '../src/mcp/index.js';
import { serve } from './support/server-harness.js';
import { connectEraClient, ERA_CLIENT_KINDS } from './support/nest-era-clients.js';

/*
 * One dialect rule for every entry point: a hand-built tool's `parameters` are checked and
 * validated in the dialect their `$schema` declares (draft-07 and draft-04 however the URI is
 * spelt), and a dialect no validator knows is served unvalidated with a warning, never refused.
 * `compile()` agrees with the call core of `createServer`, `serveHttp` (over the wire, both eras)
 * and the `Executor`; test/cli-permissions.test.ts pins `toolwright call` and `serve` (stdio).
 */

const DECLARED = [
  'http://json-schema.org/draft-07/schema',
  'http://json-schema.org/draft-07/schema#',
  'http://json-schema.org/draft-04/schema',
  'http://json-schema.org/draft-04/schema#',
  'https://example.com/my-dialect',
];

function echo(name: string, $schema: string): ContractTool {
  return {
    name,
    description: 'Echoes n',
    parameters: {
      $schema,
      type: 'object',
      properties: { n: { type: 'integer', minimum: 1 } },
      required: ['n'],
      additionalProperties: false,
    },
    async execute(args) {
      return `n=${JSON.stringify((args as { n?: unknown }).n)}`;
    },
  };
}

const tools = DECLARED.map((uri, i) => echo(`t${i}`, uri));

test('dialects: compile() accepts draft-07, draft-04 and an unknown dialect, as the hosts do', () => {
  const compiled = compile(tools);
  assert.deepEqual(
    compiled.map((tool) => [tool.name, tool.parameters?.$schema]),
    DECLARED.map((uri, i) => [`t${i}`, uri]),
  );
});

test('dialects: compile() refuses a schema invalid in its own dialect, naming the dialect', () => {
  const broken = { ...echo('broken', 'http://json-schema.org/draft-07/schema#') };
  broken.parameters = { ...broken.parameters, properties: { n: { type: 'integer', minimum: 'one' } } };
  assert.throws(
    () => compile([broken]),
    (error: unknown) =>
      error instanceof ContractError &&
      error.issues.length === 1 &&
      error.issues[0]!.code === 'invalid-schema' &&
      error.issues[0]!.message ===
        'contract tool "broken": "parameters" is not a valid JSON Schema draft-07 (schema is invalid: data/properties/n/minimum must be number); fix the schema',
  );
});

test('dialects: the Executor validates each in its dialect and runs the unknown one unvalidated, with a warning', async () => {
  const warnings: string[] = [];
  const executor = new Executor({ tools: compile(tools), log: (line) => warnings.push(line) });
  const outcomes = await executor.run(tools.map((tool, i) => ({ id: `c${i}`, tool: tool.name, args: { n: 0 } })));
  assert.deepEqual(
    outcomes.map((o) => (o.ok ? o.result.content : o.error.message)),
    [
      'invalid arguments: /n: must be >= 1',
      'invalid arguments: /n: must be >= 1',
      'invalid arguments: /n: must be >= 1',
      'invalid arguments: /n: must be >= 1',
      [{ type: 'text', text: 'n=0' }],
    ],
  );
  assert.deepEqual(warnings, [
    'Executor: tool "t4": schema declares the dialect "https://example.com/my-dialect", which no validator here knows; it is served unvalidated',
  ]);
});

test('dialects: createServer serves what compile() made, validating the same way', async () => {
  const warnings: string[] = [];
  const connected = await serve(compile(tools), {}, { transport: 'memory', log: (line) => warnings.push(line) });
  try {
    const results = [];
    for (const tool of tools) results.push(await connected.client.callTool({ name: tool.name, arguments: { n: 0 } }));
    assert.deepEqual(
      results.map((r) => [r.isError ?? false, (r.content as Array<{ text: string }>)[0]!.text]),
      [
        [true, 'invalid arguments: /n: must be >= 1'],
        [true, 'invalid arguments: /n: must be >= 1'],
        [true, 'invalid arguments: /n: must be >= 1'],
        [true, 'invalid arguments: /n: must be >= 1'],
        [false, 'n=0'],
      ],
    );
    assert.equal(warnings.length, 1);
  } finally {
    await connected.close();
  }
});

const REFUSED = { content: [{ type: 'text', text: 'invalid arguments: /n: must be >= 1' }], isError: true };

test('dialects: serveHttp validates each in its dialect over the wire in both eras, and warns once', async () => {
  const warnings: string[] = [];
  const handle = await serveHttp({ name: 'dialects', version: '1.0.0' }, compile(tools), {
    log: (line) => warnings.push(line),
  });
  try {
    for (const kind of ERA_CLIENT_KINDS) {
      const client = await connectEraClient(kind, { url: new URL(handle.url) });
      try {
        const results = [];
        for (const tool of tools) results.push(await client.call(tool.name, { n: 0 }));
        assert.deepEqual(
          results,
          [REFUSED, REFUSED, REFUSED, REFUSED, { content: [{ type: 'text', text: 'n=0' }] }],
          kind,
        );
      } finally {
        await client.close();
      }
    }
  } finally {
    await handle.close();
  }
  assert.deepEqual(warnings, [
    'createServer: tool "t4": schema declares the dialect "https://example.com/my-dialect", which no validator here knows; it is served unvalidated',
  ]);
});

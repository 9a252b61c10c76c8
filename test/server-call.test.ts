import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CallToolResultSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import {
  ToolError,
  embeddedBlob,
  embeddedText,
  image,
  audio,
  resourceLink,
  text,
  type ContractTool,
} from '../src/contract/index.js';
import { RECORD_META_KEY, contentOf } from '../src/mcp/server/index.js';
import { responsesOf, serve } from './support/server-harness.js';

function tool(name: string, execute: ContractTool['execute'], extra: Partial<ContractTool> = {}): ContractTool {
  return { name, description: `the ${name} tool`, execute, ...extra };
}

/** Calls `name` and returns the raw result object exactly as the server put it on the wire. */
async function callRaw(tools: readonly ContractTool[], name: string, args?: Record<string, unknown>): Promise<unknown> {
  const { client, wire, close } = await serve(tools);
  try {
    await client.request(
      { method: 'tools/call', params: args === undefined ? { name } : { name, arguments: args } },
      CallToolResultSchema,
    );
    return (responsesOf(wire).at(-1) as { result: unknown }).result;
  } finally {
    await close();
  }
}

test('a string output is one text block', async () => {
  assert.deepEqual(await callRaw([tool('hello', async () => 'hi there')], 'hello'), {
    content: [{ type: 'text', text: 'hi there' }],
  });
});

test('parts map one to one to MCP content', async () => {
  const parts = [
    text('t'),
    image('iVBORw0KGgo=', 'image/png'),
    audio('UklGRg==', 'audio/wav'),
    embeddedText('file:///a.txt', 'body', 'text/plain'),
    embeddedBlob('file:///b.bin', 'AAE='),
    resourceLink('file:///c.md', 'c.md', { description: 'the c file', mimeType: 'text/markdown' }),
  ];
  assert.deepEqual(await callRaw([tool('parts', async () => parts)], 'parts'), {
    content: [
      { type: 'text', text: 't' },
      { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
      { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
      { type: 'resource', resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'body' } },
      { type: 'resource', resource: { uri: 'file:///b.bin', blob: 'AAE=' } },
      {
        type: 'resource_link',
        uri: 'file:///c.md',
        name: 'c.md',
        description: 'the c file',
        mimeType: 'text/markdown',
      },
    ],
  });
});

test('contentOf keeps structured content, adds its JSON as text when there is no content, and drops details', () => {
  assert.deepEqual(contentOf({ content: [], structuredContent: { n: 1 }, details: { secret: true } }), {
    content: [{ type: 'text', text: '{"n":1}' }],
    structuredContent: { n: 1 },
  });
  assert.deepEqual(contentOf({ content: [text('n is 1')], structuredContent: { n: 1 }, terminate: true }), {
    content: [{ type: 'text', text: 'n is 1' }],
    structuredContent: { n: 1 },
  });
  assert.deepEqual(contentOf([{ type: 'mystery', value: 1 } as never]), {
    content: [{ type: 'text', text: '{"type":"mystery","value":1}' }],
  });
});

const counted = {
  type: 'object',
  properties: { count: { type: 'integer' } },
  required: ['count'],
  additionalProperties: false,
};

test('structured content that matches the output schema is served with its content', async () => {
  const counter = tool('count', async () => ({ content: [text('3 things')], structuredContent: { count: 3 } }), {
    outputSchema: counted,
  });
  assert.deepEqual(await callRaw([counter], 'count'), {
    content: [{ type: 'text', text: '3 things' }],
    structuredContent: { count: 3 },
  });
});

test('structured content that misses the output schema is an error result naming every problem', async () => {
  const counter = tool('count', async () => ({ content: [], structuredContent: { count: 'three', extra: 1 } }), {
    outputSchema: counted,
  });
  assert.deepEqual(await callRaw([counter], 'count'), {
    content: [
      {
        type: 'text',
        text: 'structured content does not match the output schema: /: must NOT have additional property "extra"; /count: must be integer',
      },
    ],
    isError: true,
  });
  const silent = tool('silent', async () => 'no structure', { outputSchema: counted });
  assert.deepEqual(await callRaw([silent], 'silent'), {
    content: [
      {
        type: 'text',
        text: 'structured content does not match the output schema: the tool returned no structured content',
      },
    ],
    isError: true,
  });
});

test('a result marked isError is served as an error without checking the output schema', async () => {
  const failing = tool('fail', async () => ({ content: [text('could not count')], isError: true }), {
    outputSchema: counted,
  });
  assert.deepEqual(await callRaw([failing], 'fail'), {
    content: [{ type: 'text', text: 'could not count' }],
    isError: true,
  });
});

test('a thrown error is an error result with its message only; ToolError details never cross', async () => {
  const thrower = tool('boom', async () => {
    throw new Error('disk full');
  });
  assert.deepEqual(await callRaw([thrower], 'boom'), { content: [{ type: 'text', text: 'disk full' }], isError: true });
  const detailed = tool('detailed', async () => {
    throw new ToolError('quota exceeded', { details: { secret: 'token-123' } });
  });
  const result = await callRaw([detailed], 'detailed');
  assert.deepEqual(result, { content: [{ type: 'text', text: 'quota exceeded' }], isError: true });
  assert.equal(JSON.stringify(result).includes('token-123'), false);
});

test('a non-Error throw is named with the tool, as on every host, and a synchronous throw is caught too', async () => {
  assert.deepEqual(
    await callRaw(
      [
        tool('raw', async () => {
          throw 42;
        }),
      ],
      'raw',
    ),
    { content: [{ type: 'text', text: 'tool "raw" threw: 42' }], isError: true },
  );
  const sync = tool('sync', (() => {
    throw new TypeError('not async');
  }) as unknown as ContractTool['execute']);
  assert.deepEqual(await callRaw([sync], 'sync'), { content: [{ type: 'text', text: 'not async' }], isError: true });
  assert.deepEqual(
    await callRaw(
      [
        tool('unshowable', async () => {
          throw Object.create(null);
        }),
      ],
      'unshowable',
    ),
    { content: [{ type: 'text', text: 'tool "unshowable" threw: {}' }], isError: true },
  );
});

test('an output that is not a ToolOutput is an error result', async () => {
  assert.deepEqual(await callRaw([tool('bad', async () => 7 as never)], 'bad'), {
    content: [
      {
        type: 'text',
        text: 'tool "bad" returned an invalid output: expected a string, an array of content parts or a result object, got a number',
      },
    ],
    isError: true,
  });
  assert.deepEqual(await callRaw([tool('nothing', async () => undefined as never)], 'nothing'), {
    content: [
      {
        type: 'text',
        text: 'tool "nothing" returned an invalid output: expected a string, an array of content parts or a result object, got nothing',
      },
    ],
    isError: true,
  });
});

test('a content part missing a field MCP requires is an error result naming the part, never an invalid MCP result', async () => {
  const cases: Array<[unknown, string]> = [
    [[{ type: 'text' }], 'content part 0 ("text") needs a string "text", got nothing'],
    [
      [text('ok'), { type: 'image', mimeType: 'image/png' }],
      'content part 1 ("image") needs a string "data", got nothing',
    ],
    [
      [{ type: 'audio', data: 'AAAA', mimeType: 3 }],
      'content part 0 ("audio") needs a string "mimeType", got a number',
    ],
    [
      [{ type: 'resource_link', uri: 'file:///a' }],
      'content part 0 ("resource_link") needs a string "name", got nothing',
    ],
    [
      [{ type: 'resource', resource: 'file:///a' }],
      'content part 0 ("resource") needs a "resource" object with a string "uri"',
    ],
    [
      [{ type: 'resource', resource: { uri: 'file:///a' } }],
      'content part 0 ("resource") needs a string "text" or "blob" in its "resource"',
    ],
  ];
  for (const [output, problem] of cases) {
    assert.deepEqual(await callRaw([tool('parts', async () => output as never)], 'parts'), {
      content: [{ type: 'text', text: `tool "parts" returned an invalid output: ${problem}` }],
      isError: true,
    });
  }
  assert.deepEqual(
    await callRaw([tool('custom', async () => [{ type: 'chart', points: [1, 2] }] as never)], 'custom'),
    {
      content: [{ type: 'text', text: '{"type":"chart","points":[1,2]}' }],
    },
  );
});

test('execute gets the raw arguments ({} when missing) and a context with the call', async () => {
  const seen: unknown[] = [];
  const echo = tool('echo', async (args, ctx) => {
    seen.push(args, ctx.call);
    return 'ok';
  });
  const { client, close } = await serve([echo]);
  try {
    await client.request({ method: 'tools/call', params: { name: 'echo' } }, CallToolResultSchema);
    await client.callTool({ name: 'echo', arguments: { a: [1, { b: null }] } });
    assert.deepEqual(seen, [
      {},
      { id: '1', tool: 'echo', args: {} },
      { a: [1, { b: null }] },
      { id: '2', tool: 'echo', args: { a: [1, { b: null }] } },
    ]);
  } finally {
    await close();
  }
});

test('a hand-built tool gets its arguments validated against its parameters before it runs', async () => {
  let ran = 0;
  const parameters = {
    type: 'object',
    properties: { text: { type: 'string' }, count: { type: 'integer', minimum: 1 } },
    required: ['text'],
    additionalProperties: false,
  };
  const echo = tool(
    'echo',
    async (args) => {
      ran++;
      return (args as { text: string }).text;
    },
    { parameters },
  );
  const { client, close } = await serve([echo]);
  try {
    assert.deepEqual(await client.callTool({ name: 'echo', arguments: { count: 0, extra: true } }), {
      content: [
        {
          type: 'text',
          text: 'invalid arguments: /: must have required property "text"; /: must NOT have additional property "extra"; /count: must be >= 1',
        },
      ],
      isError: true,
    });
    assert.deepEqual(await client.callTool({ name: 'echo' }), {
      content: [{ type: 'text', text: 'invalid arguments: /: must have required property "text"' }],
      isError: true,
    });
    assert.equal(ran, 0);
    assert.deepEqual(await client.callTool({ name: 'echo', arguments: { text: 'fine' } }), {
      content: [{ type: 'text', text: 'fine' }],
    });
    assert.equal(ran, 1);
  } finally {
    await close();
  }
});

test('an unknown tool is a JSON-RPC -32602 error, not a result', async () => {
  const { client, wire, close } = await serve([tool('known', async () => 'ok')]);
  try {
    await assert.rejects(
      client.callTool({ name: 'nope' }),
      (err: unknown) =>
        err instanceof McpError &&
        err.code === ErrorCode.InvalidParams &&
        err.message === 'MCP error -32602: Unknown tool: nope',
    );
    assert.deepEqual(responsesOf(wire).at(-1), {
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32602, message: 'Unknown tool: nope' },
    });
  } finally {
    await close();
  }
});

test('malformed tools/call params are -32602 errors', async () => {
  const { client, wire, close } = await serve([tool('known', async () => 'ok')]);
  try {
    const malformed = [{}, { name: 'known', arguments: 'text' }, { name: 'known', arguments: [1] }, { name: 5 }];
    for (const params of malformed) {
      await assert.rejects(
        client.request({ method: 'tools/call', params } as never, CallToolResultSchema),
        (err: unknown) => err instanceof McpError && err.code === ErrorCode.InvalidParams,
      );
    }
    const errors = responsesOf(wire)
      .slice(1)
      .map((message) => (message as { error: { code: number; message: string } }).error);
    assert.deepEqual(errors, [
      { code: -32602, message: 'tools/call: params.name must be a string, got nothing' },
      { code: -32602, message: 'tools/call: params.arguments must be an object, got a string' },
      { code: -32602, message: 'tools/call: params.arguments must be an object, got an array' },
      { code: -32602, message: 'tools/call: params.name must be a string, got a number' },
    ]);
  } finally {
    await close();
  }
});

test('a record is served under the record _meta key with its data as a JSON string', async () => {
  const recorder = tool('rec', async () => ({
    content: [text('done')],
    record: { ns: 'files:write', data: { path: 'a.txt', bytes: 3 } },
  }));
  const result = (await callRaw([recorder], 'rec')) as { _meta: Record<string, unknown> };
  assert.deepEqual(result, {
    content: [{ type: 'text', text: 'done' }],
    _meta: { [RECORD_META_KEY]: { ns: 'files:write', data: '{"path":"a.txt","bytes":3}' } },
  });
  assert.equal(
    JSON.stringify(result._meta),
    `{"${RECORD_META_KEY}":{"ns":"files:write","data":"{\\"path\\":\\"a.txt\\",\\"bytes\\":3}"}}`,
  );
});

test('a record that cannot be made leaves its error text under the key and the call still succeeds', async () => {
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  const cases: Array<[unknown, string]> = [
    [{ ns: '', data: 1 }, 'record: the namespace is empty'],
    [{ ns: 'x:y', data: undefined }, 'record: the data has no JSON form'],
    [{ ns: 'x:y', data: 10n }, 'record: the data cannot be serialised to JSON: Do not know how to serialize a BigInt'],
    [
      { ns: 'x:y', data: cyclic },
      "record: the data cannot be serialised to JSON: Converting circular structure to JSON\n    --> starting at object with constructor 'Object'\n    --- property 'self' closes the circle",
    ],
  ];
  for (const [record, expected] of cases) {
    const result = (await callRaw(
      [tool('rec', async () => ({ content: [text('done')], record }) as never)],
      'rec',
    )) as { content: unknown; _meta: Record<string, string> };
    assert.deepEqual(Object.keys(result).sort(), ['_meta', 'content']);
    assert.deepEqual(result.content, [{ type: 'text', text: 'done' }]);
    assert.equal(result._meta[RECORD_META_KEY], expected);
  }
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { boundResult, createCallContext, prepareTools } from '../src/runtime/index.js';
import { type ContractTool, type ToolOutput } from '../src/index.js';
import { throughCore } from './support/core-tools.js';

function returning(output: ToolOutput, claims: Partial<ContractTool> = {}): ContractTool {
  return {
    name: 'out',
    description: 'Out',
    ...claims,
    async execute() {
      return output;
    },
  };
}

const ctx = () => createCallContext({ call: { id: '1', tool: 'out', args: {} } });

test('text within the bound is returned as it is', () => {
  const result = { content: [{ type: 'text' as const, text: 'abc' }] };
  assert.equal(boundResult(result, 3), result);
});

test('long text is cut with a visible marker naming the original size', async () => {
  const tool = throughCore(returning('x'.repeat(52340)), { maxOutputChars: 1000 });
  const result = await tool.execute({}, ctx());
  assert.deepEqual(result, {
    content: [{ type: 'text', text: `${'x'.repeat(1000)}\n…[truncated: showing 1,000 of 52,340 characters]` }],
  });
});

test('characters are counted across text parts; later text parts are dropped, binary parts kept', () => {
  const result = boundResult(
    {
      content: [
        { type: 'text', text: 'hello ' },
        { type: 'image', data: 'A'.repeat(5000), mimeType: 'image/png' },
        { type: 'text', text: 'world, this is long' },
        { type: 'resource', resource: { uri: 'file:///a', text: 'more text' } },
        { type: 'resource_link', uri: 'file:///b', name: 'b' },
      ],
      isError: true,
      record: { ns: 'a:b', data: 1 },
    },
    11,
  );
  assert.deepEqual(result, {
    content: [
      { type: 'text', text: 'hello ' },
      { type: 'image', data: 'A'.repeat(5000), mimeType: 'image/png' },
      { type: 'text', text: 'world\n…[truncated: showing 11 of 34 characters]' },
      { type: 'resource_link', uri: 'file:///b', name: 'b' },
    ],
    isError: true,
    record: { ns: 'a:b', data: 1 },
  });
});

test('a bound falling between parts puts the marker alone; embedded text resources are cut too', () => {
  assert.deepEqual(
    boundResult(
      {
        content: [
          { type: 'text', text: 'abc' },
          { type: 'text', text: 'def' },
        ],
      },
      3,
    ),
    {
      content: [
        { type: 'text', text: 'abc' },
        { type: 'text', text: '…[truncated: showing 3 of 6 characters]' },
      ],
    },
  );
  assert.deepEqual(
    boundResult(
      { content: [{ type: 'resource', resource: { uri: 'file:///a', mimeType: 'text/plain', text: '0123456789' } }] },
      4,
    ),
    {
      content: [
        {
          type: 'resource',
          resource: {
            uri: 'file:///a',
            mimeType: 'text/plain',
            text: '0123\n…[truncated: showing 4 of 10 characters]',
          },
        },
      ],
    },
  );
});

test('a cut never splits a surrogate pair', () => {
  assert.deepEqual(boundResult({ content: [{ type: 'text', text: 'ab😀cd' }] }, 3), {
    content: [{ type: 'text', text: 'ab\n…[truncated: showing 2 of 6 characters]' }],
  });
});

test('structured content is never cut: too large is an error, within the bound it is kept whole', async () => {
  const big = { items: Array.from({ length: 100 }, (_, i) => `item-${i}`) };
  const size = JSON.stringify(big).length;
  const tool = throughCore(
    returning({ content: [{ type: 'text', text: JSON.stringify(big) }], structuredContent: big }),
    { maxOutputChars: 200 },
  );
  await assert.rejects(tool.execute({}, ctx()), {
    name: 'OutputTooLargeError',
    message: 'output too large: structured content is 1,001 characters, the limit is 200',
  });
  assert.equal(size, 1001);
  const small = { n: 1 };
  const kept = boundResult({ content: [{ type: 'text', text: 'a long explanation' }], structuredContent: small }, 8);
  assert.deepEqual(kept, {
    content: [{ type: 'text', text: 'a long e\n…[truncated: showing 8 of 18 characters]' }],
    structuredContent: { n: 1 },
  });
});

test("the tool's own bound wins over the default; without any, the result is left as it is", async () => {
  const own = returning('abcdef', { maxOutputChars: 2 });
  assert.deepEqual(await throughCore(own, { maxOutputChars: 4 }).execute({}, ctx()), {
    content: [{ type: 'text', text: 'ab\n…[truncated: showing 2 of 6 characters]' }],
  });
  const free = returning('abcdef');
  assert.deepEqual(await throughCore(free).execute({}, ctx()), { content: [{ type: 'text', text: 'abcdef' }] });
  assert.throws(() => prepareTools([free], { maxOutputChars: 0 }), {
    name: 'TypeError',
    message: 'prepareTools: "maxOutputChars" must be a positive integer or Infinity, got 0',
  });
  assert.throws(() => prepareTools([returning('x', { maxOutputChars: 1.5 })]), {
    message: 'prepareTools: tool "out": maxOutputChars: expected a positive integer, got 1.5',
  });
});

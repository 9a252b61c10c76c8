import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contentOf } from '../src/mcp/server/content.js';
import { outputProblemOf } from '../src/runtime/call/output.js';

/* The result-object checks and the resource-link fields that mutation testing found unpinned. */

test('a result object is checked: content must be an array, structuredContent an object, every part well formed', () => {
  assert.deepEqual(
    [
      { content: 'hello' },
      { content: [], structuredContent: [1, 2] },
      { content: [], structuredContent: 'text' },
      {
        content: [
          { type: 'text', text: 'ok' },
          { type: 'image', data: 'AAAA' },
        ],
      },
      { content: [{ type: 'text', text: 'ok' }, 'loose'] },
      { content: [{ type: 'resource', resource: { uri: 'file:///a' } }] },
      { content: [{ type: 'resource', resource: 'file:///a' }] },
      { content: [{ type: 'resource_link', uri: 'file:///a' }] },
      { content: [{ type: 'custom', anything: 1 }], structuredContent: { a: 1 } },
      { content: [] },
    ].map(outputProblemOf),
    [
      'a result object needs a "content" array',
      '"structuredContent" must be a JSON object',
      '"structuredContent" must be a JSON object',
      'content part 1 ("image") needs a string "mimeType", got nothing',
      'content part 1 is not an object with a string "type"',
      'content part 0 ("resource") needs a string "text" or "blob" in its "resource"',
      'content part 0 ("resource") needs a "resource" object with a string "uri"',
      'content part 0 ("resource_link") needs a string "name", got nothing',
      undefined,
      undefined,
    ],
  );
});

test('a resource link keeps its title, description and mimeType and nothing else', () => {
  assert.deepEqual(
    contentOf({
      content: [
        {
          type: 'resource_link',
          uri: 'file:///a.txt',
          name: 'a.txt',
          title: 'The A file',
          description: 'first',
          mimeType: 'text/plain',
          extra: 1,
        } as never,
      ],
    }),
    {
      content: [
        {
          type: 'resource_link',
          uri: 'file:///a.txt',
          name: 'a.txt',
          title: 'The A file',
          description: 'first',
          mimeType: 'text/plain',
        },
      ],
    },
  );
});

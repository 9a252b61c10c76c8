import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resourceLink, type ContractTool } from '../src/index.js';
import { testTools } from '../src/testing/index.js';

/*
 * The call core's output check (`checkedResult`): what a tool returns must be a tool output, on
 * every host, and the one text names what is wrong. Mutation testing found these unpinned.
 */

function returning(output: unknown): ContractTool {
  return { name: 't', description: 'Returns what the test gives', execute: async () => output as never };
}

const refused = (problem: string) => ({
  content: [{ type: 'text', text: `tool "t" returned an invalid output: ${problem}` }],
  isError: true,
});

test('every malformed output ends the call with a text naming the problem', async () => {
  const cases: Array<[unknown, string]> = [
    [7, 'expected a string, an array of content parts or a result object, got a number'],
    [null, 'expected a string, an array of content parts or a result object, got null'],
    [{ content: 'text' }, 'a result object needs a "content" array'],
    [{ content: [], structuredContent: [1, 2] }, '"structuredContent" must be a JSON object'],
    [{ content: [], structuredContent: 'x' }, '"structuredContent" must be a JSON object'],
    [[{ type: 5 }], 'content part 0 is not an object with a string "type"'],
    [{ content: [{ type: 'text', text: 'ok' }, null] }, 'content part 1 is not an object with a string "type"'],
    [{ content: [{ type: 'text', text: 5 }] }, 'content part 0 ("text") needs a string "text", got a number'],
    [{ content: [{ type: 'image', data: 'AAAA' }] }, 'content part 0 ("image") needs a string "mimeType", got nothing'],
    [
      { content: [{ type: 'resource_link', uri: 'file:///a' }] },
      'content part 0 ("resource_link") needs a string "name", got nothing',
    ],
    [
      { content: [{ type: 'resource', resource: 'file:///a' }] },
      'content part 0 ("resource") needs a "resource" object with a string "uri"',
    ],
    [
      { content: [{ type: 'resource', resource: { uri: 'file:///a' } }] },
      'content part 0 ("resource") needs a string "text" or "blob" in its "resource"',
    ],
  ];
  for (const [output, problem] of cases) {
    assert.deepEqual(await testTools([returning(output)]).callTool('t', {}), refused(problem), JSON.stringify(output));
  }
});

test('a resource link keeps its title, description and MIME type; unknown part types cross as JSON text', async () => {
  const link = resourceLink('file:///a.txt', 'a.txt', {
    title: 'The A file',
    description: 'letters',
    mimeType: 'text/plain',
  });
  assert.deepEqual(await testTools([returning([link, { type: 'custom', value: 1 }])]).callTool('t', {}), {
    content: [
      {
        type: 'resource_link',
        uri: 'file:///a.txt',
        name: 'a.txt',
        title: 'The A file',
        description: 'letters',
        mimeType: 'text/plain',
      },
      { type: 'text', text: '{"type":"custom","value":1}' },
    ],
  });
});

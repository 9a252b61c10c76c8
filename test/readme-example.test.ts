import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI_PATH, OUT_DIR, REPO_ROOT } from './support/cli-paths.js';
import { runProcess } from './support/run-process.js';

/**
 * The README's first example is samples/greet, compiled and run here for real: the README shows
 * the files verbatim, a stdio client lists and calls the tool, and the CLI calls it.
 */

const GREET_MODULE = join(OUT_DIR, 'samples', 'greet', 'greet.js');
const GREET_SERVER = join(OUT_DIR, 'samples', 'greet', 'server.js');

test('the README shows samples/greet/greet.ts and server.ts verbatim', () => {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  for (const file of ['greet.ts', 'server.ts']) {
    const source = readFileSync(join(REPO_ROOT, 'samples', 'greet', file), 'utf8');
    assert.ok(
      readme.includes('```ts\n// ' + file + '\n' + source + '```'),
      `README.md must contain samples/greet/${file} verbatim`,
    );
  }
});

test('the README example serves over stdio: listed, called, and bad arguments explained', async () => {
  const client = new Client({ name: 'readme-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [GREET_SERVER], stderr: 'pipe' }));
  try {
    const { tools } = await client.listTools();
    assert.deepEqual(tools, [
      {
        name: 'greet',
        description: 'Greet someone, politely',
        inputSchema: {
          type: 'object',
          properties: {
            name: { description: 'Who to greet', type: 'string' },
            times: { type: ['integer', 'null'], minimum: 1, maximum: 5, default: 1 },
          },
          required: ['name'],
          additionalProperties: false,
        },
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
        _meta: { 'io.github.christopherdavenport.agenttool/tool': { replay: true, readOnly: true } },
      },
    ]);
    assert.deepEqual(await client.callTool({ name: 'greet', arguments: { name: 'Ada', times: 2 } }), {
      content: [{ type: 'text', text: 'Hello, Ada! Hello, Ada!' }],
    });
    assert.deepEqual(await client.callTool({ name: 'greet', arguments: { times: 9 } }), {
      content: [
        { type: 'text', text: 'invalid arguments: /: must have required property "name"; /times: must be <= 5' },
      ],
      isError: true,
    });
  } finally {
    await client.close();
  }
});

test('the README example is called through the CLI', async () => {
  const outcome = await runProcess(
    process.execPath,
    [CLI_PATH, 'call', GREET_MODULE, 'greet', '{"name":"Ada","times":2}'],
    { timeoutMs: 30_000 },
  );
  assert.equal(outcome.stdout, 'Hello, Ada! Hello, Ada!\n');
  assert.equal(outcome.code, 0);
});

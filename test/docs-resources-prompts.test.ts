import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { OUT_DIR, REPO_ROOT } from './support/cli-paths.js';

/**
 * The resources and prompts guide starts from samples/notes: the guide shows its files verbatim,
 * and the sample, compiled, serves over stdio exactly what the guide's table says.
 */

const NOTES_SERVER = join(OUT_DIR, 'samples', 'notes', 'server.js');

test('docs/resources-prompts.md shows samples/notes/notes.ts and server.ts verbatim', () => {
  const guide = readFileSync(join(REPO_ROOT, 'docs', 'resources-prompts.md'), 'utf8');
  for (const file of ['notes.ts', 'server.ts']) {
    const source = readFileSync(join(REPO_ROOT, 'samples', 'notes', file), 'utf8');
    assert.ok(
      guide.includes('```ts\n// ' + file + '\n' + source + '```'),
      `the guide must contain samples/notes/${file} verbatim`,
    );
  }
});

test('samples/notes answers as the guide says, over stdio', async () => {
  const client = new Client({ name: 'docs-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [NOTES_SERVER], stderr: 'pipe' }));
  try {
    assert.deepEqual(await client.listResources(), {
      resources: [
        { uri: 'notes://index', name: 'note_index', description: 'The names of every note', mimeType: 'text/plain' },
      ],
    });
    assert.deepEqual(await client.listResourceTemplates(), {
      resourceTemplates: [
        { uriTemplate: 'notes://{name}', name: 'note', description: 'One note', mimeType: 'text/plain' },
      ],
    });
    assert.deepEqual(await client.readResource({ uri: 'notes://groceries' }), {
      contents: [{ uri: 'notes://groceries', mimeType: 'text/plain', text: 'milk, eggs, coffee' }],
    });
    await assert.rejects(client.readResource({ uri: 'notes://nope' }), (err: unknown) => {
      assert.deepEqual(
        {
          code: (err as { code?: unknown }).code,
          message: (err as Error).message,
          data: (err as { data?: unknown }).data,
        },
        { code: -32602, message: 'MCP error -32602: Resource not found', data: { uri: 'notes://nope' } },
      );
      return true;
    });
    assert.deepEqual(await client.getPrompt({ name: 'summarise_note', arguments: { name: 'ideas', style: 'short' } }), {
      messages: [
        { role: 'user', content: { type: 'text', text: 'Write a short summary of "ideas": serve the notes over MCP' } },
      ],
    });
    await assert.rejects(client.getPrompt({ name: 'summarise_note', arguments: { name: 'ideas', style: 'long' } }), {
      code: -32602,
      message: 'MCP error -32602: invalid arguments: /style: must be one of "short", "detailed"',
    });
    assert.deepEqual(
      await client.complete({
        ref: { type: 'ref/prompt', name: 'summarise_note' },
        argument: { name: 'name', value: 'g' },
      }),
      { completion: { values: ['groceries'] } },
    );
    assert.deepEqual(
      await client.complete({
        ref: { type: 'ref/resource', uri: 'notes://{name}' },
        argument: { name: 'name', value: 'i' },
      }),
      { completion: { values: ['ideas'] } },
    );
  } finally {
    await client.close();
  }
});

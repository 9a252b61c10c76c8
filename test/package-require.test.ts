import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { REPO_ROOT } from './support/cli-paths.js';
import { runProcess } from './support/run-process.js';

/**
 * toolwright is ESM only and must load in CommonJS apps (NestJS compiled to CommonJS) through
 * Node's require(esm), which refuses any module graph with a top-level await. This runs a real
 * CommonJS app against the package by name, as an installed copy would be loaded.
 */
test('a CommonJS app loads toolwright with require(), compiles a tool and calls it over MCP', async () => {
  const outcome = await runProcess(process.execPath, [join(REPO_ROOT, 'test', 'support', 'cjs-app', 'app.cjs')], {
    timeoutMs: 30_000,
    cwd: REPO_ROOT,
  });
  assert.equal(outcome.stderr, '');
  assert.deepEqual(JSON.parse(outcome.stdout), {
    requireModule: true,
    name: 'shout',
    result: { content: [{ type: 'text', text: 'HI! (a ShoutArgs)' }] },
  });
  assert.equal(outcome.code, 0);
});

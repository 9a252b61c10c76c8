/**
 * What `import 'toolwright'` loads (issue 7, speed: every ES module costs about a millisecond of
 * cold start here). A stdio server's import never loads the layers' aggregating faces
 * (`runtime/index.js`, `compiler/index.js`), the batch executor, the schema inspection helpers,
 * the HTTP transport or auth's HTTP gate; the subpaths still load what they export. A child
 * process each, about 2 seconds.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { RECORD_RESOLVED_MODULES } from './support/module-loads.js';
import { runProcess } from './support/run-process.js';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The toolwright modules (paths under dist/src/) a child loads when it runs `code` after the hook. */
async function toolwrightModulesLoadedBy(code: string): Promise<string[]> {
  const outcome = await runProcess(process.execPath, ['--input-type=module', '-e', `${RECORD_RESOLVED_MODULES}
    ${code}
    // The hook posts each URL from its own thread: give the last ones time to arrive.
    await new Promise((r) => setTimeout(r, 250));
    console.log(JSON.stringify(seen.filter((u) => u.includes('/dist/src/')).map((u) => u.slice(u.indexOf('/dist/src/') + '/dist/src/'.length))));
  `], { timeoutMs: 60_000, cwd: REPO_ROOT });
  assert.equal(outcome.stderr, '');
  return JSON.parse(outcome.stdout) as string[];
}

/** Modules a stdio server never needs before its first answer. */
const NOT_FOR_STDIO = ['runtime/index.js', 'compiler/index.js', 'runtime/executor/executor.js', 'compiler/compile/inspect.js', 'mcp/transports/http/http-handler.js', 'mcp/auth/http-gate.js'];

test('importing toolwright loads none of the aggregating faces, the executor, inspection or HTTP', async () => {
  const loaded = await toolwrightModulesLoadedBy(`await import('toolwright');`);
  assert.ok(loaded.includes('index.js') && loaded.includes('compiler/compile/compile.js') && loaded.includes('mcp/transports/stdio/stdio-transport.js'), loaded.join(' '));
  assert.deepEqual(NOT_FOR_STDIO.filter((module) => loaded.includes(module)), []);
});

test('the subpaths still load what they export', async () => {
  const loaded = await toolwrightModulesLoadedBy(`await import('toolwright/runtime'); await import('toolwright/compiler');`);
  assert.deepEqual(['runtime/index.js', 'compiler/index.js', 'runtime/executor/executor.js', 'compiler/compile/inspect.js'].filter((module) => !loaded.includes(module)), []);
});

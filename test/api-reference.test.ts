import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { REPO_ROOT } from './support/cli-paths.js';
import { runProcess } from './support/run-process.js';

/**
 * The API reference (`npm run docs:api`) builds from the doc comments with no warning: TypeDoc
 * 0.28.20 on TypeScript 6.0.3, from its own folder (`scripts/api-docs`: TypeDoc does not run on
 * TypeScript 7), over the published entry points, every exported declaration and its methods
 * documented, every link resolved, every referenced type exported (the options treat a warning
 * as an error). Its TypeScript 6 run also type-checks `src/` with TypeScript 6, so the sources
 * and tsconfig stay valid there. Nothing is written (`--emit none`). About 15 s of CPU.
 */

/** TypeDoc's command, as the folder's own package resolves it (wherever npm placed it). */
function typedocBin(folder: string): string {
  return join(dirname(createRequire(join(folder, 'package.json')).resolve('typedoc/package.json')), 'bin', 'typedoc');
}

test('the API reference builds with TypeDoc and TypeScript 6, with no warning', { timeout: 300_000 }, async () => {
  const folder = join(REPO_ROOT, 'scripts', 'api-docs');
  const outcome = await runProcess(
    process.execPath,
    [typedocBin(folder), '--options', 'typedoc.json', '--emit', 'none'],
    { cwd: folder, timeoutMs: 280_000, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } },
  );
  // oxlint-disable-next-line no-control-regex -- ESC is the character looked for
  const said = (outcome.stdout + outcome.stderr).replace(/\x1b\[[0-9;]*m/g, '');
  assert.deepEqual(
    said.split('\n').filter((line) => /\[(warning|error)\]/.test(line)),
    [],
  );
  assert.equal(outcome.code, 0, said);
});

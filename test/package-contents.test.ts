import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { REPO_ROOT } from './support/cli-paths.js';
import { runProcess } from './support/run-process.js';

/** The files `npm pack` would put in the package, as paths relative to the package root. */
async function packedFiles(): Promise<string[]> {
  const outcome = await runProcess('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    timeoutMs: 60_000,
    cwd: REPO_ROOT,
  });
  assert.equal(outcome.code, 0, outcome.stderr);
  const [report] = JSON.parse(outcome.stdout) as { files: { path: string }[] }[];
  return report!.files.map((file) => file.path);
}

test('the package ships every file the README links to and every source a source map names', async () => {
  const files = new Set(await packedFiles());
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const linked = [...readme.matchAll(/`((?:src|docs)\/[\w./-]+\.md)`/g)].map((m) => m[1]!);
  assert.deepEqual(
    linked.filter((path) => !files.has(path)),
    [],
  );
  assert.ok(
    linked.includes('src/compiler/schema/MAPPING.md') && linked.some((path) => path.startsWith('docs/')),
    `README links: ${linked.join(', ')}`,
  );

  const maps = [...files].filter((path) => path.endsWith('.js.map'));
  assert.ok(maps.length > 50, `${maps.length} source maps`);
  const missing = maps.flatMap((map) => {
    const { sources } = JSON.parse(readFileSync(join(REPO_ROOT, map), 'utf8')) as { sources: string[] };
    return sources
      .map((source) => posix.normalize(posix.join(dirname(map), source)))
      .filter((source) => !files.has(source));
  });
  assert.deepEqual(missing, []);
});

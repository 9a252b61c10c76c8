/**
 * What `import 'toolwright'` loads (issue 7, speed: every ES module costs about a millisecond of
 * cold start here). A stdio server's import never loads the layers' aggregating faces
 * (`runtime/index`, `compiler/index`), the batch executor, the schema inspection helpers, the HTTP
 * transport or auth's HTTP gate; the subpaths still load what they export. Both builds are held to
 * it: the published bundle (`dist/bundle/`, what `toolwright` resolves to), whose files are read
 * back to source modules through their source maps, and the unbundled modules (`dist/src/`, under
 * the condition `toolwright-unbundled`). The bundle also loads a handful of files, none of
 * `dist/src/`. A child process each, about 4 seconds in all.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { RECORD_RESOLVED_MODULES, toolwrightSourcesOf } from './support/module-loads.js';
import { runProcess } from './support/run-process.js';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

type Build = 'bundle' | 'unbundled';

/** The URLs a child loads (through the build `build`) when it runs `code` after the hook. */
async function urlsLoadedBy(build: Build, code: string): Promise<string[]> {
  const conditions = build === 'unbundled' ? ['--conditions=toolwright-unbundled'] : [];
  const outcome = await runProcess(
    process.execPath,
    [
      ...conditions,
      '--input-type=module',
      '-e',
      `${RECORD_RESOLVED_MODULES}
    ${code}
    // The hook posts each URL from its own thread: give the last ones time to arrive.
    await new Promise((r) => setTimeout(r, 250));
    console.log(JSON.stringify([...new Set(seen)]));
  `,
    ],
    { timeoutMs: 60_000, cwd: REPO_ROOT },
  );
  assert.equal(outcome.stderr, '');
  return JSON.parse(outcome.stdout) as string[];
}

/** Source modules a stdio server never needs before its first answer. */
const NOT_FOR_STDIO = [
  'runtime/index',
  'compiler/index',
  'runtime/executor/executor',
  'compiler/compile/inspect',
  'mcp/transports/http/http-handler',
  'mcp/auth/http-gate',
];
/**
 * The most files of the bundle that `import 'toolwright'` may load (it loads 9 today; the unbundled
 * build loads 164 modules).
 */
const MAX_BUNDLE_FILES = 12;

for (const build of ['bundle', 'unbundled'] as const) {
  test(`${build}: importing toolwright loads none of the aggregating faces, the executor, inspection or HTTP`, async () => {
    const loaded = toolwrightSourcesOf(await urlsLoadedBy(build, `await import('toolwright');`));
    assert.ok(
      loaded.includes('index') &&
        loaded.includes('compiler/compile/compile') &&
        loaded.includes('mcp/transports/stdio/stdio-transport'),
      loaded.join(' '),
    );
    assert.deepEqual(
      NOT_FOR_STDIO.filter((module) => loaded.includes(module)),
      [],
    );
  });

  test(`${build}: the subpaths still load what they export`, async () => {
    const loaded = toolwrightSourcesOf(
      await urlsLoadedBy(build, `await import('toolwright/runtime'); await import('toolwright/compiler');`),
    );
    assert.deepEqual(
      ['runtime/index', 'compiler/index', 'runtime/executor/executor', 'compiler/compile/inspect'].filter(
        (module) => !loaded.includes(module),
      ),
      [],
    );
  });
}

test('the bundle: importing toolwright loads a handful of files, all of dist/bundle/', async () => {
  const ours = (await urlsLoadedBy('bundle', `await import('toolwright');`)).filter(
    (url) => url.startsWith('file:') && !url.includes('/node_modules/'),
  );
  assert.deepEqual(
    ours.filter((url) => !url.includes('/dist/bundle/')),
    [],
  );
  assert.ok(ours.length >= 2 && ours.length <= MAX_BUNDLE_FILES, `${ours.length} files: ${ours.join(' ')}`);
});

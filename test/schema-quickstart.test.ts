import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from './support/cli-paths.js';
import type { ProcessOutcome } from './support/run-process.js';
import { packedProject, type PackedProject } from './support/packed-project.js';

// The README's first screen, followed literally in an empty folder, from the tarball `npm pack`
// makes: the install lines (toolwright itself replaced by the tarball, everything installed
// from a registry on 127.0.0.1 that serves what package-lock.json locks, so nothing but loopback
// is reached; see packed-project.ts), the tsconfig, greet.ts and server.ts as shown, build and
// call. Then `toolwright init` from that install writes a project whose own `npm test` passes.

/**
 * The fenced blocks of the README section that starts with `heading`, in order, with their language
 * (markers after it left out).
 */
function blocksOf(readme: string, heading: string): { lang: string; text: string }[] {
  const start = readme.indexOf(heading);
  assert.ok(start >= 0, `README has no ${heading}`);
  const end = readme.indexOf('\n## ', start + heading.length);
  const section = readme.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/```(\w+)[^\n]*\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1]!, text: m[2]! }));
}

let project: PackedProject;
let work: string;
let tarball: string;
const sh = (script: string, cwd: string, timeoutMs: number): Promise<ProcessOutcome> =>
  project.sh(script, cwd, timeoutMs);

before(async () => {
  project = await packedProject('toolwright-quickstart-');
  ({ work, tarball } = project);
});

after(() => project?.close());

describe('the README quick start, in an empty folder', { timeout: 600_000 }, () => {
  it('installs, builds and calls the tool exactly as the README says; init writes a project whose npm test passes', async () => {
    const blocks = blocksOf(
      readFileSync(join(REPO_ROOT, 'README.md'), 'utf8'),
      '## Your first tool, in an empty folder',
    );
    assert.deepEqual(
      blocks.map((b) => b.lang),
      ['sh', 'json', 'ts', 'ts', 'sh'],
    );
    const [install, tsconfig, greet, server, run] = blocks as unknown as [
      { text: string },
      { text: string },
      { text: string },
      { text: string },
      { text: string },
    ];

    const installScript = install.text.replace('npm install toolwright ', `npm install ${tarball} `);
    assert.notEqual(installScript, install.text, 'the install line names toolwright');
    const installed = await sh(installScript, work, 400_000);
    assert.equal(installed.code, 0, installed.stdout + installed.stderr);
    const app = join(work, 'greeter');
    assert.equal(JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')).type, 'module');

    for (const block of [tsconfig, greet, server]) {
      const [first, ...rest] = block.text.split('\n');
      const name = /^\/\/ (\S+)$/.exec(first!)?.[1];
      assert.ok(name, `a README block starts with // <file name>: ${first}`);
      writeFileSync(join(app, name), block.text.startsWith('// tsconfig') ? rest.join('\n') : block.text);
    }

    const lines = run.text
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => line.replace(/\s+#.*$/, ''));
    assert.equal(lines[0], 'npx tsc');
    const built = await sh(lines[0]!, app, 200_000);
    assert.deepEqual({ code: built.code, out: built.stdout }, { code: 0, out: '' });
    const called = await sh(lines[1]!, app, 60_000);
    assert.deepEqual(
      { code: called.code, out: called.stdout, err: called.stderr },
      { code: 0, out: 'Hello, Ada! Hello, Ada!\n', err: '[info] greeting Ada\n' },
    );
    const listed = await sh(lines[2]!, app, 60_000);
    assert.equal(listed.code, 0);
    assert.match(listed.stdout, /^greet — Greet someone, politely\n/);

    const init = await sh('npx toolwright init tools', app, 60_000);
    assert.equal(init.code, 0, init.stderr);
    assert.match(
      init.stdout,
      /^wrote package\.json, tsconfig\.json, src\/greet\.ts, src\/server\.ts, test\/greet\.test\.ts in /,
    );
    const tested = await sh('npm test', join(app, 'tools'), 200_000);
    assert.equal(tested.code, 0, tested.stdout + tested.stderr);
    assert.match(tested.stdout, /(# pass 2\n# fail 0|ℹ pass 2\nℹ fail 0)\n/); // TAP on Node 20, spec on 22 and later
    const again = await sh('npx toolwright init tools', app, 60_000);
    assert.equal(again.code, 2);
    assert.match(
      again.stderr,
      /^toolwright: init: tsconfig\.json, src\/greet\.ts, src\/server\.ts, test\/greet\.test\.ts already exist in .*tools; run init in an empty folder \(nothing was written\)\n$/,
    );
  });
});

describe('init in process', () => {
  it('keeps an existing package.json and its scripts, and refuses a CommonJS one', async () => {
    const { runCli } = await import('../src/cli/run.js');
    const dir = mkdtempSync(join(tmpdir(), 'toolwright-init-'));
    try {
      writeFileSync(
        join(dir, 'package.json'),
        JSON.stringify({ name: 'x', scripts: { test: 'echo "Error: no test specified" && exit 1', lint: 'eslint .' } }),
      );
      let out = '';
      const io = {
        out: (t: string) => void (out += t),
        err: () => undefined,
        cwd: dir,
        stopRequested: () => new Promise<void>(() => {}),
      };
      assert.equal(await runCli(['init'], io), 0);
      assert.deepEqual(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')), {
        name: 'x',
        scripts: {
          test: 'tsc -p . && node --test dist/test/*.test.js',
          lint: 'eslint .',
          build: 'tsc -p .',
          start: 'tsc -p . && node dist/src/server.js',
        },
        type: 'module',
      });
      assert.match(
        out,
        /\n {2}npm install toolwright reflect-metadata class-validator class-transformer @modelcontextprotocol\/server @modelcontextprotocol\/client\n/,
      );
      const cjs = join(dir, 'cjs');
      mkdirSync(cjs);
      writeFileSync(join(cjs, 'package.json'), JSON.stringify({ type: 'commonjs' }));
      let err = '';
      assert.equal(await runCli(['init', 'cjs'], { ...io, err: (t: string) => void (err += t) }), 2);
      assert.equal(
        err,
        `toolwright: init: ${join(cjs, 'package.json')} has "type": "commonjs"; toolwright projects are ES modules ("type": "module")\n`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

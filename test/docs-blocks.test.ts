import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { OUT_DIR, REPO_ROOT } from './support/cli-paths.js';
import { runProcess } from './support/run-process.js';
import {
  allBlocks,
  blocksOf,
  documents,
  FRAGMENT_GLOBALS,
  kindOf,
  namedPath,
  where,
  type BlockKind,
  type DocBlock,
} from './support/doc-blocks.js';

/**
 * Every code block of README.md and docs/*.md, checked against the package as built (see
 * test/support/doc-blocks.ts for the markers): TypeScript and JavaScript blocks are type-checked
 * by one `tsc` run for whole modules and one for fragments (with the README's own tsconfig
 * options), runnable ones are run, `from` blocks are compared with the files they show, JSON is
 * parsed and `sh run` blocks run in a scratch folder. A new guide in docs/ is read with no change
 * here; it must be listed in docs/README.md. A removed or renamed export, a wrong import, an
 * unknown CLI flag then fails here, naming the document and line.
 */

const CHECK = join(OUT_DIR, 'docs-check');
const TSC = join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const README_MAX_LINES = 250;

const blocks = allBlocks(REPO_ROOT);
const kinds = new Map<DocBlock, BlockKind | string>(blocks.map((block) => [block, kindOf(block)]));
const ofKind = (...wanted: string[]): DocBlock[] =>
  blocks.filter((block) => {
    const kind = kinds.get(block)!;
    return typeof kind !== 'string' && wanted.includes(kind.kind);
  });

/** The folder a document's blocks are written to: `README`, `docs-nest`, ... */
const slug = (doc: string): string => doc.replace(/\.md$/, '').replace(/\//g, '-');

/** Where each written block is, relative to CHECK, and which block each file is. */
const written = new Map<string, DocBlock>();

/** The file a code block is written to, relative to CHECK. */
function fileOf(block: DocBlock): string {
  const ext = block.lang.startsWith('j') ? 'js' : 'ts';
  return join(slug(block.doc), namedPath(block) ?? `block-${block.line}.${ext}`);
}

/** The compiler options of the README's quick start tsconfig.json, as a newcomer's project has them. */
function readmeCompilerOptions(): Record<string, unknown> {
  const tsconfig = blocksOf('README.md', readFileSync(join(REPO_ROOT, 'README.md'), 'utf8')).find(
    (block) => block.lang === 'json' && namedPath(block) === 'tsconfig.json',
  );
  assert.ok(tsconfig, 'README.md shows a tsconfig.json');
  const { compilerOptions } = JSON.parse(tsconfig.text.replace(/^\/\/.*\n/, '')) as {
    compilerOptions: Record<string, unknown>;
  };
  return compilerOptions;
}

/** Runs tsc over `files` (relative to CHECK) and returns its errors, each as `doc:line: error TSnnnn: message`. */
async function typeCheck(name: string, files: readonly string[], emit: boolean): Promise<string[]> {
  const tsconfig = {
    compilerOptions: {
      ...readmeCompilerOptions(),
      rootDir: '.',
      outDir: 'out',
      noEmit: !emit,
      allowJs: true,
      checkJs: true,
      sourceMap: false,
    },
    files,
  };
  writeFileSync(join(CHECK, `tsconfig.${name}.json`), JSON.stringify(tsconfig, null, 2));
  const outcome = await runProcess(process.execPath, [TSC, '-p', `tsconfig.${name}.json`, '--pretty', 'false'], {
    cwd: CHECK,
    timeoutMs: 120_000,
  });
  assert.equal(outcome.timedOut, false, 'tsc timed out');
  const errors: string[] = [];
  for (const line of outcome.stdout.split('\n')) {
    const match = /^(.+?)\((\d+),\d+\): error (TS\d+: .*)$/.exec(line);
    if (match === null) {
      if (line.startsWith('  ') && errors.length > 0) errors[errors.length - 1] += `\n${line}`;
      else if (line.trim() !== '') errors.push(line);
      continue;
    }
    const block = written.get(normalize(match[1]!));
    errors.push(block === undefined ? line : `${where(block, Number(match[2]) - 1)}: error ${match[3]}`);
  }
  return errors;
}

describe('the code blocks of README.md and docs/*.md', { timeout: 300_000 }, () => {
  let moduleErrors: string[] = [];
  let fragmentErrors: string[] = [];

  before(async () => {
    rmSync(CHECK, { recursive: true, force: true });
    mkdirSync(CHECK, { recursive: true });
    for (const block of ofKind('module', 'runnable', 'fragment')) {
      const file = fileOf(block);
      assert.ok(!written.has(file), `${where(block)}: a second block named ${file}`);
      written.set(file, block);
      mkdirSync(dirname(join(CHECK, file)), { recursive: true });
      writeFileSync(join(CHECK, file), block.text);
    }
    writeFileSync(join(CHECK, 'fragment-globals.d.ts'), FRAGMENT_GLOBALS);
    const files = (...wanted: string[]) =>
      [...written].filter(([, block]) => wanted.includes((kinds.get(block) as { kind: string }).kind)).map(([f]) => f);
    [moduleErrors, fragmentErrors] = await Promise.all([
      typeCheck('modules', files('module', 'runnable'), true),
      typeCheck('fragments', ['fragment-globals.d.ts', ...files('fragment')], false),
    ]);
  });

  it('every block says what it is (a marker every checked language understands)', () => {
    const problems = [...kinds].flatMap(([block, kind]) => {
      if (typeof kind === 'string') return [`${where(block)}: ${kind}`];
      if (kind.kind !== 'skip') return [];
      const named = [...kind.reason.matchAll(/\btest\/[\w./-]+\.test\.ts\b/g)].map((m) => m[0]);
      return named
        .filter((path) => !existsSync(join(REPO_ROOT, path)))
        .map((path) => `${where(block)}: ${path} does not exist`);
    });
    assert.deepEqual(problems, []);
    assert.ok(ofKind('module', 'runnable', 'fragment').length > 20, 'the documents have TypeScript blocks');
  });

  it('every whole-module block type-checks against the built package', () => {
    assert.deepEqual(moduleErrors, []);
  });

  it('every fragment type-checks against the built package, with only the placeholder globals added', () => {
    assert.deepEqual(fragmentErrors, []);
  });

  it('every runnable block runs to exit code 0 (the published bundle, no test condition)', async () => {
    const runnable = ofKind('runnable');
    assert.ok(runnable.length >= 3, `${runnable.length} runnable blocks`);
    const failed: string[] = [];
    for (const block of runnable) {
      const js = join(CHECK, 'out', fileOf(block).replace(/\.ts$/, '.js'));
      const outcome = await runProcess(process.execPath, [js], { cwd: dirname(js), timeoutMs: 30_000 });
      if (outcome.code !== 0)
        failed.push(
          `${where(block)}: exit ${outcome.code}${outcome.timedOut ? ' (timed out)' : ''}\n${outcome.stderr}`,
        );
    }
    assert.deepEqual(failed, []);
  });

  it('every `from` block is the file it shows, byte for byte', () => {
    const differ = ofKind('from').flatMap((block) => {
      const kind = kinds.get(block) as { folder: string };
      const path = namedPath(block);
      if (path === undefined) return [`${where(block)}: a from block starts with // <path>`];
      const file = join(REPO_ROOT, kind.folder, path);
      if (!existsSync(file)) return [`${where(block)}: ${kind.folder}/${path} does not exist`];
      return readFileSync(file, 'utf8') === block.text.replace(/^.*\n/, '')
        ? []
        : [`${where(block)}: differs from ${kind.folder}/${path}`];
    });
    assert.deepEqual(differ, []);
  });

  it('every JSON block parses', () => {
    const bad = ofKind('json').flatMap((block) => {
      try {
        JSON.parse(block.text.replace(/^\/\/.*\n/, ''));
        return [];
      } catch (error) {
        return [`${where(block)}: ${(error as Error).message}`];
      }
    });
    assert.deepEqual(bad, []);
  });

  it('every `sh run` block runs in a scratch folder holding the greet sample, each line exiting 0', async () => {
    const run = ofKind('run');
    assert.ok(run.length >= 2, `${run.length} sh run blocks`);
    const failed: string[] = [];
    for (const block of run) {
      const scratch = join(CHECK, 'shell', `${slug(block.doc)}-${block.line}`);
      mkdirSync(join(scratch, 'dist'), { recursive: true });
      for (const file of readdirSync(join(OUT_DIR, 'samples', 'greet')).filter((f) => f.endsWith('.js')))
        cpSync(join(OUT_DIR, 'samples', 'greet', file), join(scratch, 'dist', file));
      const outcome = await runProcess('sh', ['-ec', block.text], { cwd: scratch, timeoutMs: 60_000 });
      if (outcome.code !== 0) failed.push(`${where(block)}: exit ${outcome.code}\n${outcome.stdout}${outcome.stderr}`);
    }
    assert.deepEqual(failed, []);
  });
});

describe('the documents as a whole', () => {
  it(`the README is a front page: at most ${README_MAX_LINES} lines`, () => {
    const lines = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8').split('\n').length - 1;
    assert.ok(lines <= README_MAX_LINES, `README.md has ${lines} lines: move detail into a docs/ guide`);
  });

  it('docs/README.md lists every guide, and every relative link of every document resolves', () => {
    const index = readFileSync(join(REPO_ROOT, 'docs', 'README.md'), 'utf8');
    const unlisted = documents(REPO_ROOT)
      .filter((doc) => doc.startsWith('docs/') && doc !== 'docs/README.md')
      .filter((doc) => !index.includes(`](${doc.slice('docs/'.length)})`));
    assert.deepEqual(unlisted, [], 'guides missing from the index docs/README.md');
    const broken = documents(REPO_ROOT).flatMap((doc) => {
      const text = readFileSync(join(REPO_ROOT, doc), 'utf8').replace(/```[\s\S]*?```/g, '');
      return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
        .map((m) => m[1]!)
        .filter((target) => !/^[a-z]+:|^#/.test(target))
        .map((target) => target.split('#')[0]!)
        .filter((target) => !existsSync(join(REPO_ROOT, dirname(doc), target)))
        .map((target) => `${doc}: ${target}`);
    });
    assert.deepEqual(broken, []);
  });
});

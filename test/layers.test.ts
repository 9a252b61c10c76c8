import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';

/*
 * The architecture as a test. Layers, innermost first; a file may import its own layer and any
 * layer inside it, never one outside it. Across layers it imports the other layer's faces: an
 * `index.js` (of the layer or of one of its folders: public API), the layer's `internal.js` (what
 * the package's other layers may use, never exported by the package), or a module listed in
 * SHARED_INTERNALS.
 * The package entry points (src/*.ts beside the layer folders) may import anything.
 */
const LAYERS = ['util', 'contract', 'decorators', 'compiler', 'runtime', 'mcp', 'testing', 'redis', 'cli', 'nest'];

/** Modules another layer may import although they are not an index, each with its reason. */
const SHARED_INTERNALS = new Map<string, string>([
  ['src/decorators/metadata.js', 'the typed metadata readers the compiler reads classes through'],
]);

/** Violations known today; the list may only shrink. */
const KNOWN: readonly string[] = [];

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function sourceFiles(root: string, dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = posix.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(root, path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every cross-layer import of `src` that breaks the rules, as `<kind>: <file> -> <target>`. */
function layerViolations(root: string): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(root, 'src')) {
    const layer = file.split('/')[1]!;
    if (!LAYERS.includes(layer)) continue;
    const text = readFileSync(join(root, file), 'utf8');
    for (const match of text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const target = posix.normalize(posix.join(posix.dirname(file), match[1]!));
      const targetLayer = target.split('/')[1]!;
      if (targetLayer === layer || targetLayer === 'util') continue;
      if (!LAYERS.includes(targetLayer) || LAYERS.indexOf(targetLayer) > LAYERS.indexOf(layer))
        found.push(`outward: ${file} -> ${target}`);
      else if (
        !target.endsWith('/index.js') &&
        target !== `src/${targetLayer}/internal.js` &&
        !SHARED_INTERNALS.has(target)
      )
        found.push(`internal: ${file} -> ${target}`);
    }
  }
  return found.sort();
}

test('imports point inward and cross layers only through an index or a listed shared module', () => {
  assert.deepEqual(layerViolations(repoRoot), [...KNOWN].sort());
});

test('every folder under src is a layer', () => {
  const folders = readdirSync(join(repoRoot, 'src'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  assert.deepEqual(folders, [...LAYERS].sort());
});

/**
 * Every cycle of imports between the files of `src`, each as `a -> b -> a` from its smallest file
 * name. Type-only imports (`import type`, `export type`) count only with `withTypes`.
 */
function importCycles(root: string, withTypes: boolean): string[] {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(root, 'src')) {
    const text = readFileSync(join(root, file), 'utf8');
    const targets: string[] = [];
    for (const match of text.matchAll(/^(import|export)(\s+type)?\s[^;]*?from\s+['"](\.{1,2}\/[^'"]+)\.js['"]/gm)) {
      if (match[2] !== undefined && !withTypes) continue;
      targets.push(posix.normalize(posix.join(posix.dirname(file), `${match[3]!}.ts`)));
    }
    graph.set(file, targets);
  }
  // Depth first with three colours: an edge back to a file still on the path closes a cycle.
  const cycles = new Set<string>();
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (file: string): void => {
    if (done.has(file)) return;
    const at = path.indexOf(file);
    if (at >= 0) {
      const cycle = path.slice(at);
      const start = cycle.indexOf([...cycle].sort()[0]!);
      const ordered = [...cycle.slice(start), ...cycle.slice(0, start)];
      cycles.add([...ordered, ordered[0]].join(' -> '));
      return;
    }
    path.push(file);
    for (const next of graph.get(file) ?? []) visit(next);
    path.pop();
    done.add(file);
  };
  for (const file of graph.keys()) visit(file);
  return [...cycles].sort();
}

test('no file of src imports a value from a file that imports one from it, however indirectly', () => {
  assert.deepEqual(importCycles(repoRoot, false), []);
});

/** Cycles through type-only imports known today; the list may only shrink. */
const KNOWN_TYPE_CYCLES: readonly string[] = [];

test('no cycle of imports, type-only ones included, but the known ones', () => {
  assert.deepEqual(importCycles(repoRoot, true), [...KNOWN_TYPE_CYCLES].sort());
});

test('util imports nothing of ours', () => {
  const imports = sourceFiles(repoRoot, 'src/util').flatMap((file) =>
    [...readFileSync(join(repoRoot, file), 'utf8').matchAll(/from\s+['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) =>
      posix.normalize(posix.join(posix.dirname(file), m[1]!)),
    ),
  );
  assert.deepEqual(
    imports.filter((target) => !target.startsWith('src/util/')),
    [],
  );
});

test("the layer check reports an outward import and an import of another layer's internals", () => {
  const tree = mkdtempSync(join(tmpdir(), 'toolwright-layers-'));
  try {
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(tree, path)), { recursive: true });
      writeFileSync(join(tree, path), text);
    };
    write('src/contract/tool.ts', "import { serve } from '../mcp/index.js';\n");
    write(
      'src/mcp/server/call.ts',
      "import { x } from '../../runtime/executor/run-call.js';\nimport { y } from '../../runtime/index.js';\nimport { z } from '../../contract/internal.js';\nimport { w } from '../../contract/readers/internal.js';\n",
    );
    write('src/index.ts', "export * from './mcp/index.js';\n");
    assert.deepEqual(layerViolations(tree), [
      'internal: src/mcp/server/call.ts -> src/contract/readers/internal.js',
      'internal: src/mcp/server/call.ts -> src/runtime/executor/run-call.js',
      'outward: src/contract/tool.ts -> src/mcp/index.js',
    ]);
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
});

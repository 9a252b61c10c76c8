// `npm run build`'s second step: bundles what `tsc` compiled into `dist/src/` into the files the
// package publishes, `dist/bundle/` (issue 7: every ES module costs about a millisecond of cold
// start, and `import 'toolwright'` loaded 164 of them; the bundle loads a handful).
//
// - One esbuild run over every published entry point (the package's `exports` and the `toolwright`
//   command), with code splitting: a module shared by two entry points lives in one shared chunk,
//   so `toolwright` and `toolwright/runtime` (or the command and the tool files it loads) share one
//   instance of every class, WeakMap and registry. Modules an entry point reaches only through a
//   dynamic `import()` (the HTTP transport from the root, the CLI's commands) stay in chunks of
//   their own, loaded when first used, as in the unbundled build.
// - Dependencies stay imports (`packages: 'external'`): the bundle holds toolwright's own code only.
// - A class keeps its name: where esbuild renames a class to avoid a clash (tsc's emit for a
//   decorated class, `let X = class X {}`, becomes `var X = class X2 {}`), a static block gives
//   it back its `name` (Nest, for one, shows and keys classes by name). esbuild's own `keepNames`
//   would do it for every function too, at a `defineProperty` each time a closure is made (about
//   12 per tool call); a renamed function's name shows only in stack traces, which the source
//   maps resolve.
// - Source maps chain through tsc's maps to `src/*.ts` (published beside them, so not copied in).
// - A chunk esbuild leaves empty (for modules that hold types only, re-exported with `export *`)
//   is deleted and the lines importing it blanked (not removed, so the source maps stay right):
//   loading an empty module costs as much as loading a full one.
//
// The unbundled modules in `dist/src/` stay: they carry the type declarations the `exports` point
// to, and the condition `toolwright-unbundled` (`node --conditions=toolwright-unbundled`) resolves
// every entry point to them, which the project's own tests use. Fails (exit code 1, esbuild's
// messages on stderr) when an entry point is missing: run `tsc -p .` first; and fails naming the
// file when an empty chunk is referred to other than by a side-effect import (a dynamic import of
// it would break if it were dropped).
import { build } from 'esbuild';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const input = join(root, 'dist', 'src');
const output = join(root, 'dist', 'bundle');

/** Every published entry point: output name (under `dist/bundle/`) to compiled module. */
const ENTRY_POINTS = {
  index: 'index.js',
  'compiler/index': 'compiler/index.js',
  'runtime/index': 'runtime/index.js',
  'mcp/index': 'mcp/index.js',
  'testing/index': 'testing/index.js',
  'nest/index': 'nest/index.js',
  'redis/index': 'redis/index.js',
  'cli/main': 'cli/main.js',
};

rmSync(output, { recursive: true, force: true });
await build({
  entryPoints: Object.fromEntries(Object.entries(ENTRY_POINTS).map(([name, file]) => [name, join(input, file)])),
  outdir: output,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  sourcesContent: false,
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
});

/** A class declared as `var X = [X_1 = ]class Y [extends Z] {`: `X` is its source name, `Y` esbuild's. */
const RENAMED_CLASS =
  /^(var ([A-Za-z_$][\w$]*) = (?:[A-Za-z_$][\w$]* = )?class )([A-Za-z_$][\w$]*)((?: extends [^{\n]+)?) \{/gm;

/** What an empty chunk holds: its source-map comment at most. */
const EMPTY = /^\s*(\/\/# sourceMappingURL=\S+\s*)?$/;

const files = readdirSync(output, { recursive: true })
  .filter((file) => file.endsWith('.js'))
  .map((file) => join(output, file));
const empty = new Set(files.filter((file) => EMPTY.test(readFileSync(file, 'utf8'))).map((file) => basename(file)));
for (const file of files) {
  if (empty.has(basename(file))) {
    rmSync(file);
    rmSync(`${file}.map`, { force: true });
    continue;
  }
  const text = readFileSync(file, 'utf8');
  const kept = text
    .replace(/^import "[^"]*\/([^"/]+\.js)";$/gm, (line, chunk) => (empty.has(chunk) ? '' : line))
    .replace(RENAMED_CLASS, (line, head, outer, inner, heritage) =>
      inner === outer
        ? line
        : `${head}${inner}${heritage} { static { Object.defineProperty(this, "name", { value: "${outer}", configurable: true }); }`,
    );
  const stillNamed = [...empty].find((chunk) => kept.includes(chunk));
  if (stillNamed !== undefined)
    throw new Error(
      `bundle: ${file} refers to the empty chunk ${stillNamed} other than by a side-effect import; cannot drop it`,
    );
  if (kept !== text) writeFileSync(file, kept);
}

import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Paths the CLI, conformance and Inspector tests need, found from this compiled file
 * (`<out>/test/support/cli-paths.js`), so the tests run the same build they belong to
 * (`dist/` under `npm test`, `dist-<name>/` for one engineer) from any working directory.
 */

/** The compiled output folder the tests run from (`dist`, `dist-cli`, ...). */
export const OUT_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The repository root (holds package.json, node_modules and scripts/). */
export const REPO_ROOT = resolve(OUT_DIR, '..');

/** The `toolwright` command as published: the bundle's (see scripts/bundle.mjs). */
export const CLI_PATH = join(OUT_DIR, 'bundle', 'cli', 'main.js');

/** The compiled conformance sample module. */
export const CONFORMANCE_SAMPLE = join(OUT_DIR, 'samples', 'conformance', 'index.js');

/** The MCP Inspector's command (the `mcp-inspector` bin of @modelcontextprotocol/inspector). */
export const INSPECTOR_PATH = join(
  REPO_ROOT,
  'node_modules',
  '@modelcontextprotocol',
  'inspector',
  'clients',
  'launcher',
  'build',
  'index.js',
);

/** A compiled CLI test fixture module under test/support/cli-fixtures/. */
export function fixture(name: string): string {
  return join(OUT_DIR, 'test', 'support', 'cli-fixtures', `${name}.js`);
}

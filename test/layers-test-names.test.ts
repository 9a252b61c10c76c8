import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/*
 * The naming rule of test/README.md: every test file is `<area>-<what it pins>.test.ts` (or a
 * whole-area check, `<area>.test.ts`), with an area from the README's table.
 */
const testDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test');

function areasOf(readme: string): string[] {
  return [...readme.matchAll(/^\| `([a-z]+)` \|/gm)].map((match) => match[1]!);
}

test("every test file's name starts with an area listed in test/README.md", () => {
  const areas = areasOf(readFileSync(join(testDir, 'README.md'), 'utf8'));
  assert.ok(areas.length > 20, `only ${areas.length} areas read from test/README.md`);
  const files = readdirSync(testDir).filter((name) => name.endsWith('.test.ts'));
  assert.ok(files.length > 100, `only ${files.length} test files found`);
  const misnamed = files.filter((name) => {
    const match = /^([a-z]+)(?:-[a-z0-9]+)*\.test\.ts$/.exec(name);
    return match === null || !areas.includes(match[1]!);
  });
  assert.deepEqual(misnamed, []);
});

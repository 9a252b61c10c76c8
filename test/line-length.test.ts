import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript5';

/*
 * The line length the code keeps: Prettier wraps code at 120 characters but never a comment or a
 * string. A line may pass 120 only where what lies past column 120 is a string literal (a long
 * error message or test name reads better whole), a URL, or the closing punctuation after one of
 * those. Comments are rewrapped by hand; this test says which line to rewrap.
 */
const MAX = 120;
const FOLDERS = ['src', 'test', 'samples', 'bench'];
const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(join(repoRoot, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = posix.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return /\.(?:ts|mts|mjs|js)$/.test(entry.name) ? [path] : [];
  });
}

/** The [start, end) offsets of every string, template and regular expression literal of `text`. */
function stringSpans(text: string, fileName: string): Array<readonly [number, number]> {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const spans: Array<readonly [number, number]> = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateExpression(node) || ts.isRegularExpressionLiteral(node)) {
      spans.push([node.getStart(source), node.getEnd()]);
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return spans;
}

/**
 * What may follow a string past the limit: closing punctuation, or the opening of the callback
 * after a test's name (`, async () => {`), which Prettier cannot move to a line of its own.
 */
const TAIL = /^[\s,;)\]}]*(?:,\s*(?:async\s*)?\(\w*\)\s*=>\s*[{(]?)?\s*$/;

/** Whether nothing but strings, URLs and a tail `TAIL` allows after the last of them lies past `MAX`. */
function excessAllowed(line: string, lineStart: number, spans: Array<readonly [number, number]>): boolean {
  const urls = [...line.matchAll(/\bhttps?:\/\/\S+/g)].map((m) => [m.index, m.index + m[0].length] as const);
  const inLine = spans
    .filter(([start, end]) => end > lineStart && start < lineStart + line.length)
    .map(([start, end]) => [start - lineStart, end - lineStart] as const)
    .concat(urls);
  for (let column = MAX; column < line.length; column++) {
    if (inLine.some(([start, end]) => start <= column && column < end)) continue;
    // The first character past the limit outside them: the string or URL before it must end in a tail.
    const ends = inLine.map(([, end]) => end).filter((end) => end <= column);
    return ends.length > 0 && TAIL.test(line.slice(Math.max(...ends)));
  }
  return true;
}

/** Every line of `text` over the limit that the rule does not allow, as `<file>:<line>`. */
function longLines(file: string, text: string): string[] {
  const lines = text.split('\n');
  if (lines.every((line) => line.length <= MAX)) return [];
  const spans = stringSpans(text, file);
  const found: string[] = [];
  let lineStart = 0;
  lines.forEach((line, index) => {
    if (line.length > MAX && !excessAllowed(line, lineStart, spans)) found.push(`${file}:${index + 1}`);
    lineStart += line.length + 1;
  });
  return found;
}

test(`code and comment lines of ${FOLDERS.join(', ')} keep within ${MAX} characters, but for strings and URLs`, () => {
  const files = FOLDERS.flatMap(sourceFiles);
  assert.ok(files.length > 400, `only ${files.length} files found under ${FOLDERS.join(', ')}`);
  const found = files.flatMap((file) => longLines(file, readFileSync(join(repoRoot, file), 'utf8')));
  assert.deepEqual(found, [], `lines to rewrap:\n${found.join('\n')}`);
});

test('the line check allows a long string or URL and refuses long code or comment text', () => {
  const long = 'x'.repeat(MAX);
  const text = [
    `throw new Error('${long}');`,
    `  \`${long} \${value} ${long}\`,`,
    `// see https://example.com/${long}`,
    `// ${long}`,
    `const ${long} = 1;`,
    `call('a', ${long});`,
    `test('${long}', async () => {`,
    `test('${long}', async () => { run(); });`,
    `test('${'y'.repeat(MAX - 20)}', async () => {`,
  ].join('\n');
  assert.deepEqual(longLines('probe.ts', text), ['probe.ts:4', 'probe.ts:5', 'probe.ts:6', 'probe.ts:8']);
});

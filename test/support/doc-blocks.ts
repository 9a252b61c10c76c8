import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The fenced code blocks of the README and the guides, and what each says it is. The info string
 * after the language is the block's marker (GitHub shows only the language):
 *
 * - TypeScript and JavaScript (`ts`, `typescript`, `js`, `javascript`):
 *   - no marker: a whole module, type-checked (strict) against the built package;
 *   - `runnable`: a whole module, type-checked, then compiled and run with node (exit 0 within 30 s);
 *   - `fragment`: type-checked with the placeholder globals of `FRAGMENT_GLOBALS` in scope (`info`,
 *     `tools`, ...), for a block that shows a call rather than a program;
 *   - `from <folder>`: a file of a project the tests build and run themselves (its first line
 *     `// <path>` names it); it must equal `<folder>/<path>` byte for byte;
 *   - `skip: <reason>`: not checked, for the reason given (a path `test/x.test.ts` in the reason
 *     must exist).
 *   A block whose first line is `// <path>.ts` (or `.js`) is written at that path in its
 *   document's folder, so the blocks of one document import each other as the files they show.
 * - Shell (`sh`, `bash`): `run` (every line runs with `sh -e` in a scratch folder holding the greet
 *   sample compiled in `dist/`, and must exit 0) or `skip: <reason>`. A shell block must say which.
 * - `json`: parsed (after a first line `// <file name>`), unless marked `skip: <reason>`.
 * Any other language (`text`, no language, ...) is prose and not checked.
 */
export interface DocBlock {
  /** The document, relative to the repository root (`README.md`, `docs/nest.md`). */
  readonly doc: string;
  /** The 1-based line of the opening fence. */
  readonly line: number;
  readonly lang: string;
  /** The info string after the language, trimmed (`''` when there is none). */
  readonly marker: string;
  readonly text: string;
}

/** What a checked block is, from its language and marker. */
export type BlockKind =
  | { readonly kind: 'module' | 'runnable' | 'fragment' }
  | { readonly kind: 'from'; readonly folder: string }
  | { readonly kind: 'skip'; readonly reason: string }
  | { readonly kind: 'run' }
  | { readonly kind: 'json' }
  | { readonly kind: 'prose' };

const CODE = new Set(['ts', 'typescript', 'js', 'javascript']);
const SHELL = new Set(['sh', 'bash']);

/** The kind of `block`, or a sentence saying why its marker is not one. */
export function kindOf(block: DocBlock): BlockKind | string {
  const skip = /^skip: (\S.*)$/.exec(block.marker);
  if (CODE.has(block.lang)) {
    if (block.marker === '') return { kind: 'module' };
    if (block.marker === 'runnable' || block.marker === 'fragment') return { kind: block.marker };
    const from = /^from (\S+)$/.exec(block.marker);
    if (from !== null) return { kind: 'from', folder: from[1]! };
    if (skip !== null) return { kind: 'skip', reason: skip[1]! };
    return `unknown marker "${block.marker}" (a ${block.lang} block takes none, runnable, fragment, from <folder> or skip: <reason>)`;
  }
  if (SHELL.has(block.lang)) {
    if (block.marker === 'run') return { kind: 'run' };
    if (skip !== null) return { kind: 'skip', reason: skip[1]! };
    return block.marker === ''
      ? `a ${block.lang} block says whether it runs: ${block.lang} run, or ${block.lang} skip: <reason>`
      : `unknown marker "${block.marker}" (a ${block.lang} block takes run or skip: <reason>)`;
  }
  if (block.lang === 'json') {
    if (block.marker === '') return { kind: 'json' };
    if (skip !== null) return { kind: 'skip', reason: skip[1]! };
    return `unknown marker "${block.marker}" (a json block takes none or skip: <reason>)`;
  }
  return { kind: 'prose' };
}

/** The fenced blocks of one Markdown document, in order (fences indented in lists included, their indent removed). */
export function blocksOf(doc: string, markdown: string): DocBlock[] {
  const lines = markdown.split('\n');
  const blocks: DocBlock[] = [];
  for (let at = 0; at < lines.length; at++) {
    const open = /^( {0,3}|\s*)(`{3,}|~{3,})\s*([\w-]*)\s*(.*)$/.exec(lines[at]!);
    if (open === null) continue;
    const [, indent, fence, lang, marker] = open as unknown as [string, string, string, string, string];
    const body: string[] = [];
    let end = at + 1;
    for (; end < lines.length; end++) {
      const line = lines[end]!;
      if (line.trim().startsWith(fence[0]!.repeat(fence.length)) && line.trim().replace(/[`~]/g, '') === '') break;
      body.push(line.startsWith(indent) ? line.slice(indent.length) : line.trimStart());
    }
    blocks.push({ doc, line: at + 1, lang, marker: marker.trim(), text: body.length ? body.join('\n') + '\n' : '' });
    at = end;
  }
  return blocks;
}

/** The documents the docs test reads: README.md and every docs/*.md, relative to `root`. */
export function documents(root: string): string[] {
  const guides = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...guides];
}

/** Every fenced block of every document under `root`. */
export function allBlocks(root: string): DocBlock[] {
  return documents(root).flatMap((doc) => blocksOf(doc, readFileSync(join(root, doc), 'utf8')));
}

/** `README.md:12` for a block's line `row` (1-based, counted from the fence). */
export function where(block: DocBlock, row = 0): string {
  return `${block.doc}:${block.line + row}`;
}

/** The path a block's first line names (`// src/app.module.ts`), or `undefined`. */
export function namedPath(block: DocBlock): string | undefined {
  return /^\/\/ ([\w./@-]+\.(?:ts|js|mts|cts|json))\n/.exec(block.text)?.[1];
}

/**
 * The placeholder globals a `fragment` block may use without declaring them: what a real
 * program would have made a few lines earlier. Everything else a fragment names it imports.
 */
export const FRAGMENT_GLOBALS = `// Placeholders for the fragments of README.md and docs/*.md (see test/support/doc-blocks.ts).
declare const info: import('toolwright/mcp').ServerInfo;
declare const tools: readonly import('toolwright').ContractTool[];
declare const client: import('@modelcontextprotocol/client').Client;
declare const rules: readonly import('toolwright/runtime').PermissionRule[];
`;

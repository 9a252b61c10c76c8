import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { factsOf } from '../src/runtime/index.js';
import { formatDefinitions, inspectTool } from '../src/compiler/index.js';
import { type ContractTool } from '../src/index.js';
import { fileTools, globToRegExp } from '../samples/files/index.js';
import { contextFor, invalidMessage } from './support/compile-helpers.js';

async function workspace(): Promise<{ root: string; tools: Map<string, ContractTool>; done: () => Promise<void> }> {
  const root = await mkdtemp(path.join(tmpdir(), 'toolwright-files-'));
  await mkdir(path.join(root, 'src', 'lib'), { recursive: true });
  await writeFile(path.join(root, 'README.md'), 'line 1\nline 2\nline 3\n');
  await writeFile(path.join(root, 'src', 'main.ts'), 'export const x = 1;\n');
  await writeFile(path.join(root, 'src', 'lib', 'big.json'), JSON.stringify({ data: 'x'.repeat(100) }));
  await writeFile(path.join(root, '.hidden'), 'secret');
  const tools = new Map(fileTools(root).map((tool) => [tool.name, tool]));
  return { root, tools, done: () => rm(root, { recursive: true, force: true }) };
}

test('the file tools compile with the claims stated by their decorators', async () => {
  const { tools, done } = await workspace();
  try {
    assert.deepEqual([...tools.keys()], ['read_file', 'write_file', 'list_directory']);
    assert.deepEqual(tools.get('read_file')!.annotations, { idempotent: true, readOnly: true });
    assert.deepEqual(tools.get('write_file')!.annotations, { destructive: true });
    assert.equal(tools.get('write_file')!.resource, 'fs:workspace');
    assert.deepEqual(inspectTool(tools.get('list_directory')!).resultClass, 'Listing');
    assert.equal(
      formatDefinitions([...tools.values()]),
      [
        'read_file — Read a UTF-8 text file in the workspace, optionally a range of lines.',
        '  title: Read file',
        '  claims: readOnly, idempotent',
        '  arguments (ReadFileArgs):',
        '    path: string, length 1..4096 — Path of the file, relative to the workspace root',
        '    startLine?: integer, >= 1 — First line to return, counting from 1',
        '    maxLines?: integer, 1..10000, default 2000 — Most lines to return',
        '',
        'write_file — Write a UTF-8 text file in the workspace (overwrite, append or create).',
        '  title: Write file',
        '  claims: destructive, resource=fs:workspace, facts',
        '  arguments (WriteFileArgs):',
        '    path: string, length 1..4096 — Path of the file, relative to the workspace root',
        '    content: string, length <= 1000000 — The text to write (UTF-8)',
        '    mode?: "overwrite" | "append" | "create", default "overwrite" — overwrite replaces the file, append adds to its end, create fails if it exists',
        '    createFolders?: boolean, default false — Create missing parent folders',
        '',
        'list_directory — List the entries of a folder in the workspace, with sizes and modification times.',
        '  title: List folder',
        '  claims: readOnly, idempotent',
        '  arguments (ListDirectoryArgs):',
        '    path?: string, length <= 4096 — Folder to list, relative to the workspace root (default: the root)',
        '    sort?: "name" | "size" | "mtime" — Order of the entries: by name, by size (largest first) or by modification time (newest first)',
        '    include?: string[], items <= 20, each length <= 256 — Globs the relative paths of files must match, such as "*.ts" or "src/**/*.json" (folders are always listed)',
        '    options?: object',
        '      recursive?: boolean — Descend into sub-folders',
        '      maxDepth?: integer, 1..10 — How many folder levels to descend when recursive (1 = only the folder itself)',
        '      includeHidden?: boolean — Include names starting with a dot',
        '      limit?: integer, 1..5000 — Most entries to return',
        '  result (Listing):',
        '    folder: string',
        '    entries: object[]',
        '      path: string',
        '      type: "file" | "directory" | "other"',
        '      size: integer, >= 0',
        '      mtime: string — Modification time, ISO 8601',
        '    truncated: boolean — True when the limit cut the listing short',
        '',
      ].join('\n'),
    );
  } finally {
    await done();
  }
});

test('read_file reads whole files and line ranges', async () => {
  const { tools, done } = await workspace();
  const read = tools.get('read_file')!;
  try {
    assert.equal(await read.execute({ path: 'README.md' }, contextFor('read_file')), 'line 1\nline 2\nline 3\n');
    assert.equal(
      await read.execute({ path: 'README.md', startLine: 2, maxLines: 1 }, contextFor('read_file')),
      'line 2',
    );
    await assert.rejects(read.execute({ path: 'missing.txt' }, contextFor('read_file')), {
      name: 'ToolError',
      message: 'file "missing.txt" does not exist',
    });
    await assert.rejects(read.execute({ path: 'src' }, contextFor('read_file')), {
      name: 'ToolError',
      message: '"src" is not a file',
    });
    assert.equal(
      await invalidMessage(read.execute({ path: '' }, contextFor('read_file'))),
      'invalid arguments: /path: must NOT have fewer than 1 characters',
    );
    assert.equal(
      await invalidMessage(read.execute({ path: 'a', maxLines: 0 }, contextFor('read_file'))),
      'invalid arguments: /maxLines: must be >= 1',
    );
  } finally {
    await done();
  }
});

test('paths outside the workspace are refused, through .. or a symbolic link', async () => {
  const { root, tools, done } = await workspace();
  const outside = await mkdtemp(path.join(tmpdir(), 'toolwright-outside-'));
  try {
    await writeFile(path.join(outside, 'secret.txt'), 'nope');
    await symlink(outside, path.join(root, 'escape'));
    const read = tools.get('read_file')!;
    await assert.rejects(read.execute({ path: '../etc/passwd' }, contextFor('read_file')), {
      message: 'path "../etc/passwd" is outside the workspace',
    });
    await assert.rejects(read.execute({ path: '/etc/passwd' }, contextFor('read_file')), {
      message: 'path "/etc/passwd" is outside the workspace',
    });
    await assert.rejects(read.execute({ path: 'escape/secret.txt' }, contextFor('read_file')), {
      message: 'path "escape/secret.txt" is outside the workspace (through a symbolic link)',
    });
    await assert.rejects(
      tools.get('write_file')!.execute({ path: 'escape/new.txt', content: 'x' }, contextFor('write_file')),
      { message: 'path "escape/new.txt" is outside the workspace (through a symbolic link)' },
    );
    await assert.rejects(tools.get('list_directory')!.execute({ path: '..' }, contextFor('list_directory')), {
      message: 'path ".." is outside the workspace',
    });
  } finally {
    await rm(outside, { recursive: true, force: true });
    await done();
  }
});

test('write_file overwrites, appends, creates and states its facts', async () => {
  const { root, tools, done } = await workspace();
  const write = tools.get('write_file')!;
  try {
    assert.equal(
      await write.execute({ path: 'notes/today.md', content: 'hello', createFolders: true }, contextFor('write_file')),
      'wrote 5 bytes to notes/today.md',
    );
    assert.equal(
      await write.execute(
        { path: 'notes/today.md', content: '!', mode: 'append', createFolders: null },
        contextFor('write_file'),
      ),
      'appended 1 byte to notes/today.md',
    );
    assert.equal(await readFile(path.join(root, 'notes', 'today.md'), 'utf8'), 'hello!');
    await assert.rejects(write.execute({ path: 'README.md', content: 'x', mode: 'create' }, contextFor('write_file')), {
      message: 'file "README.md" already exists (mode "create")',
    });
    await assert.rejects(write.execute({ path: 'no/such/folder.txt', content: 'x' }, contextFor('write_file')), {
      message: 'the folder of "no/such/folder.txt" does not exist (set createFolders to create it)',
    });
    assert.equal(
      await invalidMessage(write.execute({ path: 'a', content: 'x', mode: 'truncate' }, contextFor('write_file'))),
      'invalid arguments: /mode: must be one of "overwrite", "append", "create", null',
    );
    assert.deepEqual(await factsOf(write, { path: 'out/x', content: 'y' }, contextFor('write_file')), {
      claimed: true,
      facts: { calls: [{ tool: 'write', args: { path: 'out/x' }, text: 'write out/x' }] },
    });
  } finally {
    await done();
  }
});

test('list_directory lists, filters by glob, sorts and returns structured content', async () => {
  const { tools, done } = await workspace();
  const list = tools.get('list_directory')!;
  const paths = async (args: unknown): Promise<string[]> => {
    const result = (await list.execute(args, contextFor('list_directory'))) as unknown as {
      structuredContent: { entries: Array<{ path: string }> };
    };
    return result.structuredContent.entries.map((e) => e.path);
  };
  try {
    assert.deepEqual(await paths({}), ['README.md', 'src']);
    assert.deepEqual(await paths({ options: { includeHidden: true } }), ['.hidden', 'README.md', 'src']);
    assert.deepEqual(await paths({ options: { recursive: true } }), [
      'README.md',
      'src',
      'src/lib',
      'src/lib/big.json',
      'src/main.ts',
    ]);
    assert.deepEqual(await paths({ include: ['*.ts'], options: { recursive: true } }), [
      'src',
      'src/lib',
      'src/main.ts',
    ]);
    assert.deepEqual(await paths({ include: ['src/**/*.json'], options: { recursive: true } }), [
      'src',
      'src/lib',
      'src/lib/big.json',
    ]);
    assert.deepEqual(
      await paths({ sort: 'size', include: ['*.json', '*.md', '*.ts'], options: { recursive: true, maxDepth: 3 } }),
      ['src/lib/big.json', 'README.md', 'src/main.ts', 'src', 'src/lib'],
    );
    const limited = (await list.execute(
      { options: { recursive: true, limit: 2 } },
      contextFor('list_directory'),
    )) as unknown as { structuredContent: { truncated: boolean; entries: Array<{ mtime: string }> } };
    const { entries, ...listing } = limited.structuredContent;
    assert.deepEqual(listing, { folder: '.', truncated: true });
    assert.deepEqual(
      entries.map(({ mtime, ...entry }) => ({ ...entry, mtime: new Date(mtime).toISOString() === mtime })),
      [
        { path: 'README.md', type: 'file', size: 21, mtime: true },
        { path: 'src', type: 'directory', size: 0, mtime: true },
      ],
    );
    const whole = (await list.execute({ path: 'src/lib' }, contextFor('list_directory'))) as unknown as {
      content: Array<{ text: string }>;
      structuredContent: unknown;
    };
    assert.equal(whole.content[0]!.text, JSON.stringify(whole.structuredContent));
    assert.equal(
      await invalidMessage(
        list.execute({ sort: 'date', include: 'x', options: { depth: 2 } }, contextFor('list_directory')),
      ),
      'invalid arguments: /sort: must be one of "name", "size", "mtime", null; /include: must be array or null; /options: must NOT have additional property "depth"',
    );
    await assert.rejects(list.execute({ path: 'README.md' }, contextFor('list_directory')), {
      message: '"README.md" is not a folder',
    });
  } finally {
    await done();
  }
});

test('globToRegExp: * stays in a segment, ** crosses them, a bare pattern matches names anywhere', () => {
  const cases: Array<[string, string, boolean]> = [
    ['*.ts', 'main.ts', true],
    ['*.ts', 'src/main.ts', true],
    ['*.ts', 'main.tsx', false],
    ['src/*.ts', 'src/main.ts', true],
    ['src/*.ts', 'src/lib/x.ts', false],
    ['src/**/*.ts', 'src/main.ts', true],
    ['src/**/*.ts', 'src/lib/x.ts', true],
    ['?.md', 'a.md', true],
    ['?.md', 'ab.md', false],
    ['a+b.txt', 'a+b.txt', true],
    ['a+b.txt', 'aab.txt', false],
  ];
  assert.deepEqual(
    cases.map(([glob, p]) => [glob, p, globToRegExp(glob).test(p)]),
    cases,
  );
});

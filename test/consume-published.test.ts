import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import * as z from 'zod/v4';
import { createCallContext, type ToolOutput } from '../src/contract/index.js';
import { createServer } from '../src/mcp/server/index.js';
import { connectServer, consumedToolInfo, type ServerConnection } from '../src/mcp/client/index.js';
import { connectCounted } from './support/consume-servers.js';
import { REPO_ROOT } from './support/cli-paths.js';
import { freePort } from './support/ports.js';

const EVERYTHING = join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const FILESYSTEM = join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');
const ctxFor = (tool: string, extra: Record<string, unknown> = {}) =>
  createCallContext({ call: { id: 'c1', tool, args: {} }, ...extra });
const byName = (connection: ServerConnection, name: string) => connection.tools.find((t) => t.name === name)!;
const plain = (output: ToolOutput) => JSON.parse(JSON.stringify(output)) as Record<string, unknown>;

const closers: Array<() => Promise<unknown>> = [];
after(async () => {
  for (const close of closers.reverse()) await close();
});

let everything: ServerConnection;
before(async () => {
  everything = await connectServer(
    { command: process.execPath, args: [EVERYTHING, 'stdio'], stderr: 'ignore' },
    { trustServerAnnotations: true, policy: { rules: [{ effect: 'allow', tool: 'trigger-elicitation-request' }] } },
  );
  closers.push(() => everything.close());
});

test('server-everything over stdio: permissions from trusted hints, read parallel and the rest sequential', () => {
  assert.equal(everything.server, 'mcp-servers/everything');
  assert.deepEqual(
    everything.tools.map((t) => [t.name, consumedToolInfo(t)!.permission, t.sequential === true]),
    [
      ['echo', 'read', false],
      ['get-annotated-message', 'read', false],
      ['get-env', 'read', false],
      ['get-resource-links', 'read', false],
      ['get-resource-reference', 'read', false],
      ['get-structured-content', 'read', false],
      ['get-sum', 'read', false],
      ['get-tiny-image', 'read', false],
      ['gzip-file-as-resource', '', true],
      ['toggle-simulated-logging', '', true],
      ['toggle-subscriber-updates', '', true],
      ['trigger-long-running-operation', 'read', false],
      ['trigger-elicitation-request', '', true],
      ['trigger-url-elicitation', '', true],
      ['simulate-research-query', '', true],
    ],
  );
});

test(
  'server-everything: calls, structured content, images in the bounded format, progress, elicitation',
  { timeout: 60_000 },
  async () => {
    assert.deepEqual(plain(await byName(everything, 'echo').execute({ message: 'hi' }, ctxFor('echo'))).content, [
      { type: 'text', text: 'Echo: hi' },
    ]);
    const structured = plain(
      await byName(everything, 'get-structured-content').execute(
        { location: 'New York' },
        ctxFor('get-structured-content'),
      ),
    );
    assert.deepEqual(structured.structuredContent, { temperature: 33, conditions: 'Cloudy', humidity: 82 });
    const updates: ToolOutput[] = [];
    const long = await byName(everything, 'trigger-long-running-operation').execute(
      { duration: 0.2, steps: 2 },
      ctxFor('trigger-long-running-operation', { update: (output: ToolOutput) => updates.push(output) }),
    );
    assert.deepEqual(plain(long).content, [
      { type: 'text', text: 'Long running operation completed. Duration: 0.2 seconds, Steps: 2.' },
    ]);
    // The SDK 1.x client handles a notification a microtask after it reads it but a response at
    // once, so a last progress notification read in the same chunk as the result is dropped.
    const seen = JSON.parse(JSON.stringify(updates)) as unknown[];
    const expected = [
      { content: [], details: { progress: 1, message: '', total: 2 } },
      { content: [], details: { progress: 2, message: '', total: 2 } },
    ];
    assert.deepEqual(seen, expected.slice(0, Math.max(1, seen.length)));
    const questions: unknown[] = [];
    const elicited = await byName(everything, 'trigger-elicitation-request').execute(
      {},
      ctxFor('trigger-elicitation-request', {
        elicit: async (q: unknown) => {
          questions.push(q);
          return { action: 'decline' };
        },
      }),
    );
    assert.deepEqual(plain(elicited).content, [
      { type: 'text', text: '❌ User declined to provide the requested information.' },
      { type: 'text', text: '\nRaw result: {\n  "action": "decline"\n}' },
    ]);
    assert.equal(questions.length, 1);
    const bounded = await connectServer(
      { command: process.execPath, args: [EVERYTHING, 'stdio'], stderr: 'ignore' },
      { permission: 'read', maxLLMChars: 0 },
    );
    closers.push(() => bounded.close());
    const image = plain(await byName(bounded, 'get-tiny-image').execute({}, ctxFor('get-tiny-image')));
    assert.deepEqual(image.content, [
      {
        type: 'text',
        text: "Here's the image you requested:\ncontent_part type=image mime=image/png bytes=4033\nThe image above is the MCP logo.",
      },
    ]);
    const sent = (image.details as { result: { content: Array<{ data?: string }> } }).result.content[1]!.data!;
    assert.equal(Buffer.from(sent, 'base64').length, 4033);
  },
);

test(
  'server-everything served again by toolwright: the listing is unchanged byte for byte',
  { timeout: 60_000 },
  async () => {
    const raw = new Client({ name: 'raw', version: '1.0.0' }, { capabilities: { elicitation: { form: {}, url: {} } } });
    const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
    await raw.connect(
      new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, 'stdio'], stderr: 'ignore' }),
    );
    closers.push(() => raw.close());
    const again = await connectCounted(createServer({ name: 'again', version: '1.0.0' }, everything.tools));
    closers.push(() => again.close());
    const list = async (client: Client) =>
      JSON.stringify(await client.request({ method: 'tools/list', params: {} }, z.looseObject({})));
    assert.equal(await list(again.client), await list(raw));
  },
);

test('server-everything over streamable HTTP', { timeout: 60_000 }, async () => {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise((resolve) => child.on('exit', resolve));
  closers.push(async () => {
    child.kill('SIGKILL');
    await exited;
  });
  for (let i = 0; i < 1500 && !stderr.includes('listening on port'); i++)
    await new Promise((resolve) => setTimeout(resolve, 10));
  const connection = await connectServer({ url: `http://127.0.0.1:${port}/mcp` }, { permission: 'read' });
  closers.push(() => connection.close());
  assert.deepEqual(
    connection.tools.map((t) => t.name),
    everything.tools.map((t) => t.name),
  );
  assert.deepEqual(plain(await byName(connection, 'get-sum').execute({ a: 2, b: 3 }, ctxFor('get-sum'))).content, [
    { type: 'text', text: 'The sum of 2 and 3 is 5.' },
  ]);
});

test(
  'server-filesystem confined to a temporary folder: reads run, writes are denied by default, a rule allows them',
  { timeout: 60_000 },
  async () => {
    const dir = await realpath(await mkdtemp(join(tmpdir(), 'toolwright-fs-')));
    closers.push(() => rm(dir, { recursive: true, force: true }));
    await writeFile(join(dir, 'a.txt'), 'hello');
    const fs = await connectServer(
      { command: process.execPath, args: [FILESYSTEM, dir], stderr: 'ignore' },
      { trustServerAnnotations: true },
    );
    closers.push(() => fs.close());
    assert.deepEqual(
      fs.tools.map((t) => [t.name, consumedToolInfo(t)!.permission]),
      [
        ['read_file', 'read'],
        ['read_text_file', 'read'],
        ['read_media_file', 'read'],
        ['read_multiple_files', 'read'],
        ['write_file', 'write'],
        ['edit_file', 'write'],
        ['create_directory', ''],
        ['list_directory', 'read'],
        ['list_directory_with_sizes', 'read'],
        ['directory_tree', 'read'],
        ['move_file', 'write'],
        ['search_files', 'read'],
        ['get_file_info', 'read'],
        ['list_allowed_directories', 'read'],
      ],
    );
    const read = plain(
      await byName(fs, 'read_text_file').execute({ path: join(dir, 'a.txt') }, ctxFor('read_text_file')),
    );
    assert.deepEqual(read.content, [{ type: 'text', text: 'hello' }]);
    await assert.rejects(
      byName(fs, 'write_file').execute({ path: join(dir, 'b.txt'), content: 'x' }, ctxFor('write_file')),
      {
        name: 'PermissionDeniedError',
        message: 'permission denied: write on "write_file": permission denied by default',
      },
    );
    await assert.rejects(byName(fs, 'read_text_file').execute({ path: '/etc/hostname' }, ctxFor('read_text_file')), {
      name: 'ToolError',
      message: `Access denied - path outside allowed directories: /etc/hostname not in ${dir}`,
    });
    const writer = await connectServer(
      { command: process.execPath, args: [FILESYSTEM, dir], stderr: 'ignore' },
      {
        trustServerAnnotations: true,
        policy: { rules: [{ effect: 'allow', tool: 'write_file', capabilities: ['write'] }] },
      },
    );
    closers.push(() => writer.close());
    await byName(writer, 'write_file').execute({ path: join(dir, 'b.txt'), content: 'written' }, ctxFor('write_file'));
    assert.equal(await readFile(join(dir, 'b.txt'), 'utf8'), 'written');
  },
);

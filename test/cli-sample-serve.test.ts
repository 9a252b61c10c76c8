import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { OUT_DIR } from './support/cli-paths.js';
import { runProcess } from './support/run-process.js';
import { sampleBanner } from '../samples/serve-banner.js';

// `npm start` runs samples/serve.js: the file and shell samples over streamable HTTP, one port,
// two endpoints. Driven here as a real child process with a real SDK client.

const SERVE = join(OUT_DIR, 'samples', 'serve.js');

interface Started {
  readonly stdout: () => string;
  readonly exited: Promise<number | null>;
  readonly child: ReturnType<typeof spawn>;
}

async function startSamples(args: readonly string[]): Promise<Started & { files: string; shell: string }> {
  const child = spawn(process.execPath, [SERVE, ...args], {
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  void exited.then(() => clearTimeout(killer));
  for (let waited = 0; !stdout.includes('Connect a client:'); waited += 20) {
    if (waited > 15_000 || child.exitCode !== null) {
      child.kill('SIGKILL');
      assert.fail(`samples/serve printed no banner; stdout: ${stdout}; stderr: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const url = (name: string): string =>
    new RegExp(`^  ${name} +(http://127\\.0\\.0\\.1:\\d+/${name}/mcp)$`, 'm').exec(stdout)![1]!;
  return { child, exited, stdout: () => stdout, files: url('files'), shell: url('shell') };
}

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: 'cli-sample-serve-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

describe('samples/serve (npm start)', () => {
  it('serves the file and shell samples at two endpoints, answers other paths 404, and stops on SIGINT', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'cli-sample-serve-'));
    writeFileSync(join(folder, 'note.txt'), 'a note\n');
    const started = await startSamples([folder]);
    try {
      assert.match(started.stdout(), /^toolwright samples, served over streamable HTTP \(Ctrl-C stops\):\n/);
      assert.ok(started.stdout().includes(`file tools confined to ${folder}\n`), started.stdout());
      assert.ok(
        started.stdout().includes(`    npx mcp-inspector --cli ${started.files} --method tools/list\n`),
        started.stdout(),
      );

      // The banner's client code, run as it is printed (an ES module beside the repository's packages).
      const banner = started.stdout();
      assert.ok(
        banner.includes("import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';\n"),
      );
      assert.doesNotMatch(banner, /@modelcontextprotocol\/sdk/, 'the banner teaches the 2.x client');
      const inspector = (
        JSON.parse(readFileSync(join(OUT_DIR, '..', 'package.json'), 'utf8')) as {
          devDependencies: Record<string, string>;
        }
      ).devDependencies['@modelcontextprotocol/inspector'];
      assert.ok(
        banner.includes(`  MCP Inspector (${inspector}, a development dependency here)`),
        'the Inspector version named',
      );
      const header = '(@modelcontextprotocol/client 2.x, either protocol era):\n';
      const code = banner
        .slice(banner.indexOf(header) + header.length)
        .split('\n\n')[0]!
        .replace(/^ {4}/gm, '');
      const script = join(OUT_DIR, 'banner-client.mjs');
      writeFileSync(script, code);
      const ran = await runProcess(process.execPath, [script], { timeoutMs: 30_000 });
      rmSync(script);
      assert.deepEqual(
        { code: ran.code, out: ran.stdout },
        { code: 0, out: "[ 'read_file', 'write_file', 'list_directory' ]\n" },
      );

      const files = await connect(started.files);
      assert.deepEqual(
        (await files.listTools()).tools.map((tool) => tool.name),
        ['read_file', 'write_file', 'list_directory'],
      );
      const read = await files.callTool({ name: 'read_file', arguments: { path: 'note.txt' } });
      assert.deepEqual(read, { content: [{ type: 'text', text: 'a note\n' }] });
      await files.close();

      const shell = await connect(started.shell);
      assert.deepEqual(
        (await shell.listTools()).tools.map((tool) => tool.name),
        ['shell', 'write_file', 'read_file'],
      );
      await shell.close();

      const missing = await fetch(started.files.replace('/files/mcp', '/nothing'), { method: 'POST', body: '{}' });
      assert.equal(missing.status, 404);
      assert.deepEqual(await missing.json(), {
        jsonrpc: '2.0',
        error: { code: -32000, message: 'Not Found: the MCP endpoints are /files/mcp, /shell/mcp' },
        id: null,
      });
    } finally {
      started.child.kill('SIGINT');
    }
    assert.equal(await started.exited, 0);
    assert.equal(
      started.stdout(),
      sampleBanner([
        {
          name: 'files',
          url: started.files,
          tools: ['read_file', 'write_file', 'list_directory'],
          about: `file tools confined to ${folder}`,
        },
        {
          name: 'shell',
          url: started.shell,
          tools: ['shell', 'write_file', 'read_file'],
          about: 'a simulated shell; writes are asked through elicitation, /etc is read-only',
        },
      ]) + 'stopping...\n',
    );
    assert.ok(existsSync(join(folder, 'note.txt')), 'a folder it was given is never removed');
    rmSync(folder, { recursive: true, force: true });
  });

  it('works in a temporary folder holding hello.txt when given none, and removes it on exit', async () => {
    const started = await startSamples([]);
    const workspace = /file tools confined to (\S+)\n/.exec(started.stdout())![1]!;
    try {
      assert.equal(readFileSync(join(workspace, 'hello.txt'), 'utf8'), 'Hello from the toolwright file sample.\n');
      const files = await connect(started.files);
      const listed = await files.callTool({ name: 'list_directory', arguments: { path: '.' } });
      assert.deepEqual(
        (listed.structuredContent as { entries: Array<{ path: string }> }).entries.map((entry) => entry.path),
        ['hello.txt'],
      );
      await files.close();
    } finally {
      started.child.kill('SIGTERM');
    }
    assert.equal(await started.exited, 0);
    assert.equal(existsSync(workspace), false);
  });
});

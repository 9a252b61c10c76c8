import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { relative } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CLI_PATH, CONFORMANCE_SAMPLE, REPO_ROOT } from './support/cli-paths.js';
import { CONFORMANCE_TOOL_NAMES } from './support/conformance-tools.js';
import { serveOverHttp } from './support/http-serve.js';
import { runProcess } from './support/run-process.js';

// The compiled `toolwright` bin as a real child process: exit codes, one-line errors without
// stacks, and `serve` over stdio and HTTP driven by real SDK clients.

const SAMPLE = relative(REPO_ROOT, CONFORMANCE_SAMPLE);
const run = (args: readonly string[]) =>
  runProcess(process.execPath, [CLI_PATH, ...args], { timeoutMs: 20_000, cwd: REPO_ROOT });

describe('toolwright bin', () => {
  it('starts with a node shebang', () => {
    assert.equal(readFileSync(CLI_PATH, 'utf8').split('\n')[0], '#!/usr/bin/env node');
  });

  it('exits 2 with one line and no stack for a missing module', async () => {
    const outcome = await run(['list', 'missing/tools.js']);
    assert.deepEqual(
      { code: outcome.code, stdout: outcome.stdout, stderr: outcome.stderr },
      { code: 2, stdout: '', stderr: 'toolwright: cannot load module "missing/tools.js": file not found\n' },
    );
  });

  it('exits 1 for an error result and 0 for a good one', async () => {
    const failed = await run(['call', SAMPLE, 'test_error_handling']);
    assert.deepEqual(
      { code: failed.code, stdout: failed.stdout, stderr: failed.stderr },
      { code: 1, stdout: '', stderr: 'This tool intentionally returns an error for testing\n' },
    );
    const echoed = await run(['call', SAMPLE, 'echo', '{"text":"yo","count":3}']);
    assert.deepEqual(
      { code: echoed.code, stdout: echoed.stdout, stderr: echoed.stderr },
      { code: 0, stdout: 'yo yo yo\n', stderr: '' },
    );
  });

  it('serves over stdio to an SDK client, with --name and --version as the server info', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI_PATH, 'serve', SAMPLE, '--name', 'conf', '--version', '9.9.9'],
      cwd: REPO_ROOT,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const client = new Client({ name: 'cli-bin-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      assert.deepEqual(client.getServerVersion(), { name: 'conf', version: '9.9.9' });
      assert.deepEqual(
        (await client.listTools()).tools.map((tool) => tool.name),
        CONFORMANCE_TOOL_NAMES,
      );
      assert.deepEqual(await client.callTool({ name: 'echo', arguments: { text: 'hi' } }), {
        content: [{ type: 'text', text: 'hi' }],
      });
    } finally {
      await client.close();
    }
    assert.equal(stderr, 'toolwright: serving 35 tools, 4 resources, 5 prompts of conf 9.9.9 over stdio\n');
  });

  it('serves stateless HTTP with --stateless and stops with exit 0 on SIGTERM', async () => {
    const served = await serveOverHttp(CONFORMANCE_SAMPLE, ['--stateless']);
    try {
      assert.match(served.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      assert.equal(
        served.stderr(),
        `toolwright: serving 35 tools, 4 resources, 5 prompts of conformance 0.0.0 at ${served.url} (streamable HTTP, stateless); Ctrl-C stops\n`,
      );
      const client = new Client({ name: 'cli-bin-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(served.url)));
      assert.deepEqual(await client.callTool({ name: 'echo', arguments: { text: 'x', count: 2 } }), {
        content: [{ type: 'text', text: 'x x' }],
      });
      await client.close();
    } finally {
      assert.equal(await served.stop(), 0);
    }
  });

  it('exits 2 naming the address when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const outcome = await run(['serve', SAMPLE, '--http', `127.0.0.1:${port}`]);
      assert.equal(outcome.code, 2);
      assert.equal(outcome.stdout, '');
      assert.equal(
        outcome.stderr,
        `toolwright: cannot listen on 127.0.0.1:${port}: listen EADDRINUSE: address already in use 127.0.0.1:${port}\n`,
      );
    } finally {
      blocker.close();
    }
  });
});

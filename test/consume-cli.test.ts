import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { parseArgs, UsageError } from '../src/cli/args.js';
import { upstreamOfWord } from '../src/cli/commands/proxy.js';
import { CLI_PATH, OUT_DIR } from './support/cli-paths.js';
import { runProcess } from './support/run-process.js';
import { startProxyCli } from './support/proxy-cli.js';

const PLAIN_SERVER = join(OUT_DIR, 'test', 'support', 'consume-plain-server.js');
const META_SERVER = join(OUT_DIR, 'test', 'support', 'consume-meta-server.js');

test('proxy arguments: upstream words, --config, --http', () => {
  assert.deepEqual(parseArgs(['proxy', 'a=node s.js a', 'http://127.0.0.1:9/mcp', '--http', '0']), {
    kind: 'proxy',
    upstreams: ['a=node s.js a', 'http://127.0.0.1:9/mcp'],
    http: { host: '127.0.0.1', port: 0 },
    stateless: false,
  });
  assert.deepEqual(parseArgs(['proxy', '--config', 'p.json', '--name', 'gate']), {
    kind: 'proxy',
    upstreams: [],
    config: 'p.json',
    stateless: false,
    name: 'gate',
  });
  assert.throws(
    () => parseArgs(['proxy']),
    new UsageError(
      "proxy needs at least one upstream or --config; usage: toolwright proxy [NAME=]<url|'command args'>... [--config file.json] [--http [host:]port] [--stateless] [--ask] [--auth-issuer url [--auth-resource url] [--auth-scopes a,b]]",
    ),
  );
  assert.throws(() => parseArgs(['proxy', 'x', '--stateless']), new UsageError('--stateless only applies to --http'));
  assert.deepEqual(upstreamOfWord('files=node  server.js --root /tmp'), {
    name: 'files',
    prefix: 'files.',
    command: 'node',
    args: ['server.js', '--root', '/tmp'],
  });
  assert.deepEqual(upstreamOfWord('https://example.test/mcp'), { url: 'https://example.test/mcp' });
  assert.deepEqual(upstreamOfWord('web=http://127.0.0.1:3000/mcp'), {
    name: 'web',
    prefix: 'web.',
    url: 'http://127.0.0.1:3000/mcp',
  });
});

test(
  'toolwright proxy refuses two servers listing one name without prefixes, naming both',
  { timeout: 60_000 },
  async () => {
    const a = `${process.execPath} ${PLAIN_SERVER} a`;
    const b = `${process.execPath} ${PLAIN_SERVER} b`;
    const outcome = await runProcess(process.execPath, [CLI_PATH, 'proxy', a, b], { timeoutMs: 30_000 });
    assert.deepEqual(
      { code: outcome.code, stdout: outcome.stdout, stderr: outcome.stderr },
      {
        code: 2,
        stdout: '',
        stderr: `toolwright: proxy: tool "echo" is listed by both ${JSON.stringify(a)} and ${JSON.stringify(b)}; give one of them a prefix\n`,
      },
    );
  },
);

test(
  'toolwright proxy --http serves upstreams from words and a JSON config, prefixed',
  { timeout: 60_000 },
  async () => {
    const dir = await mkdtemp(join(tmpdir(), 'toolwright-proxy-'));
    const config = join(dir, 'proxy.json');
    await writeFile(
      config,
      JSON.stringify({
        servers: [{ name: 'c', prefix: 'c_', command: process.execPath, args: [PLAIN_SERVER, 'c'] }],
        maxLLMChars: 4,
      }),
    );
    const proxy = await startProxyCli([
      `a=${process.execPath} ${PLAIN_SERVER} a`,
      '--config',
      config,
      '--http',
      '127.0.0.1:0',
    ]);
    try {
      const url = proxy.url;
      assert.equal(proxy.stderr(), `toolwright: proxying 8 tools of 2 servers at ${url}; Ctrl-C stops\n`);
      const client = new Client({ name: 'cli-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      try {
        assert.deepEqual(
          (await client.listTools()).tools.map((t) => t.name),
          ['c_echo', 'c_crash', 'c_add_tool', 'c_ask', 'a.echo', 'a.crash', 'a.add_tool', 'a.ask'],
        );
        assert.deepEqual(await client.callTool({ name: 'a.echo', arguments: { text: 'hi' } }), {
          content: [{ type: 'text', text: 'a...' }],
        });
      } finally {
        await client.close();
      }
    } finally {
      assert.equal(await proxy.stop(), 0);
      await rm(dir, { recursive: true, force: true });
    }
  },
);

test('toolwright proxy over stdio', { timeout: 60_000 }, async () => {
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const client = new Client({ name: 'cli-stdio-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI_PATH, 'proxy', `a=${process.execPath} ${PLAIN_SERVER} a`, '--name', 'gate'],
      stderr: 'ignore',
    }),
  );
  try {
    assert.deepEqual(client.getServerVersion(), { name: 'gate', version: '0.0.0' });
    assert.deepEqual(
      (await client.listTools()).tools.map((t) => t.name),
      ['a.echo', 'a.crash', 'a.add_tool', 'a.ask'],
    );
    assert.deepEqual(await client.callTool({ name: 'a.echo', arguments: { text: 'over stdio' } }), {
      content: [{ type: 'text', text: 'a: over stdio' }],
    });
  } finally {
    await client.close();
  }
});

test(
  'toolwright proxy over stdio to a 2026-07-28 client: an upstream question comes as input_required, a changed tool list on the listen stream',
  { timeout: 60_000 },
  async () => {
    const { Client: ClientV2 } = await import('@modelcontextprotocol/client');
    const { StdioClientTransport: StdioV2 } = await import('@modelcontextprotocol/client/stdio');
    const changed: string[][] = [];
    const client = new ClientV2(
      { name: 'cli-modern-test', version: '1.0.0' },
      {
        capabilities: { elicitation: { form: {} } },
        versionNegotiation: { mode: { pin: '2026-07-28' } },
        listChanged: {
          tools: { debounceMs: 0, onChanged: (_error, tools) => void changed.push((tools ?? []).map((t) => t.name)) },
        },
      },
    );
    const asked: string[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(String(request.params.message));
      return { action: 'accept', content: { name: 'Ada' } };
    });
    await client.connect(
      new StdioV2({
        command: process.execPath,
        args: [CLI_PATH, 'proxy', `m=${process.execPath} ${META_SERVER}`],
        stderr: 'ignore',
      }),
    );
    try {
      assert.equal(client.getProtocolEra(), 'modern');
      assert.deepEqual((await client.callTool({ name: 'm.confirm', arguments: { greeting: 'hi' } })).content, [
        { type: 'text', text: 'hi {"action":"accept","content":{"name":"Ada"}}' },
      ]);
      assert.deepEqual(asked, ['Name?']);
      await client.callTool({ name: 'm.add_tool', arguments: {} });
      for (let i = 0; i < 500 && changed.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      assert.deepEqual(changed, [['m.traced', 'm.refused', 'm.confirm', 'm.add_tool', 'm.extra']]);
    } finally {
      await client.close();
    }
  },
);

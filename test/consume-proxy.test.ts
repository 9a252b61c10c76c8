import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import * as z from 'zod/v4';
import { FACTS_METHOD, RECORD_META_KEY } from '../src/mcp/server/index.js';
import { ElicitRequestSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { createProxy, type Proxy } from '../src/mcp/proxy/index.js';
import type { HttpHandle } from '../src/mcp/transports/index.js';
import { OUT_DIR } from './support/cli-paths.js';

const PLAIN_SERVER = join(OUT_DIR, 'test', 'support', 'consume-plain-server.js');
const upstream = (name: string, prefix?: string) => ({
  name,
  command: process.execPath,
  args: [PLAIN_SERVER, name],
  ...(prefix === undefined ? {} : { prefix }),
});

async function downstream(handle: HttpHandle): Promise<Client> {
  const client = new Client({ name: 'downstream', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => ({
    action: 'accept',
    content: { name: `Ada, asked ${JSON.stringify(request.params.message)}` },
  }));
  await client.connect(new StreamableHTTPClientTransport(new URL(handle.url)));
  return client;
}

const proxies: Array<{ proxy: Proxy; http?: HttpHandle; clients: Client[] }> = [];
after(async () => {
  for (const { proxy, http, clients } of proxies) {
    for (const client of clients) await client.close();
    await http?.close();
    await proxy.close();
  }
});

test('two upstreams listing the same names without prefixes is a startup error naming both', async () => {
  await assert.rejects(createProxy([upstream('a'), upstream('b')], { stderr: 'ignore' }), {
    message: 'proxy: tool "echo" is listed by both "a" and "b"; give one of them a prefix',
  });
});

test('bad upstream entries are refused with the problem named', async () => {
  await assert.rejects(createProxy([]), { name: 'TypeError', message: 'proxy: give at least one upstream server' });
  await assert.rejects(createProxy([{ command: 'x', url: 'http://127.0.0.1:1/mcp' }]), {
    name: 'TypeError',
    message: 'proxy: upstream 1: give exactly one of "command" and "url"',
  });
  await assert.rejects(createProxy([{ command: 'x', bearerToken: 't' }]), {
    name: 'TypeError',
    message: 'proxy: upstream 1: "bearerToken" only applies to a "url" upstream',
  });
  await assert.rejects(createProxy([{ url: 'http://127.0.0.1:1/mcp', bearerToken: '' }]), {
    name: 'TypeError',
    message: 'proxy: upstream 1: "bearerToken" must not be empty',
  });
  await assert.rejects(createProxy([{ command: 'x', port: 3 } as never]), {
    name: 'TypeError',
    message:
      'proxy: upstream 1: unknown key "port" (known keys: name, command, args, env, cwd, url, headers, bearerToken, prefix, permission, trustServerAnnotations)',
  });
});

test(
  'a proxy over HTTP aggregates prefixed upstreams, forwards calls, reports a crash as a tool error, reconnects, and forwards list_changed',
  { timeout: 60_000 },
  async () => {
    const proxy = await createProxy([upstream('a', 'a.'), upstream('b', 'b.')], { stderr: 'ignore' });
    const http = await proxy.serveHttp({ host: '127.0.0.1', port: 0 });
    const entry = { proxy, http, clients: [] as Client[] };
    proxies.push(entry);
    const client = await downstream(http);
    entry.clients.push(client);
    const listed = await client.listTools();
    assert.deepEqual(
      listed.tools.map((t) => t.name),
      ['a.echo', 'a.crash', 'a.add_tool', 'a.ask', 'b.echo', 'b.crash', 'b.add_tool', 'b.ask'],
    );
    assert.deepEqual(listed.tools[0], {
      name: 'a.echo',
      title: 'Echo',
      description: 'Echoes the text',
      inputSchema: {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: { text: { type: 'string' } },
        required: ['text'],
      },
      annotations: { readOnlyHint: true },
      execution: { taskSupport: 'forbidden' },
    });
    assert.deepEqual(await client.callTool({ name: 'b.echo', arguments: { text: 'hi' } }), {
      content: [{ type: 'text', text: 'b: hi' }],
    });
    assert.deepEqual(await client.callTool({ name: 'a.ask', arguments: {} }), {
      content: [{ type: 'text', text: '{"action":"accept","content":{"name":"Ada, asked \\"Name?\\""}}' }],
    });

    assert.deepEqual(await client.callTool({ name: 'a.crash', arguments: {} }), {
      content: [{ type: 'text', text: 'mcp server "a": tool "crash": Connection closed' }],
      isError: true,
    });
    assert.deepEqual(await client.callTool({ name: 'a.echo', arguments: { text: 'back' } }), {
      content: [{ type: 'text', text: 'a: back' }],
    });

    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changes += 1;
    });
    assert.deepEqual(await client.callTool({ name: 'b.add_tool', arguments: {} }), {
      content: [{ type: 'text', text: 'added' }],
    });
    for (let i = 0; i < 400 && changes === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(changes, 1);
    assert.deepEqual(
      (await client.listTools()).tools.map((t) => t.name),
      ['a.echo', 'a.crash', 'a.add_tool', 'a.ask', 'b.echo', 'b.crash', 'b.add_tool', 'b.ask', 'b.extra'],
    );
    assert.deepEqual(await client.callTool({ name: 'b.extra', arguments: {} }), {
      content: [{ type: 'text', text: 'extra ran' }],
    });
  },
);

test('a proxy applies the host policy and bounds on the way through when configured', { timeout: 60_000 }, async () => {
  const proxy = await createProxy([{ ...upstream('a'), trustServerAnnotations: true }], {
    stderr: 'ignore',
    policy: {},
    maxLLMChars: 6,
  });
  const http = await proxy.serveHttp({ host: '127.0.0.1', port: 0 });
  const entry = { proxy, http, clients: [] as Client[] };
  proxies.push(entry);
  const client = await downstream(http);
  entry.clients.push(client);
  const echoed = await client.callTool({ name: 'echo', arguments: { text: 'hello' } });
  assert.deepEqual(echoed.content, [{ type: 'text', text: 'a: ...' }]);
  // The denial's permissions record crosses with the failure, as a success's would.
  assert.deepEqual(await client.callTool({ name: 'add_tool', arguments: {} }), {
    content: [{ type: 'text', text: 'permission denied: unclassified on "add_tool": permission denied by default' }],
    isError: true,
    _meta: {
      [RECORD_META_KEY]: {
        ns: 'toolwright:permissions',
        data: JSON.stringify({
          decisions: [],
          grants: [{ subjects: ['add_tool'], capabilities: ['unclassified'], granted: [] }],
        }),
      },
    },
  });
});

test(
  "the proxy passes a toolwright upstream's definitions and facts answers through unchanged",
  { timeout: 60_000 },
  async () => {
    const shell = { name: 'shell', command: process.execPath, args: [join(OUT_DIR, 'samples', 'shell', 'main.js')] };
    const proxy = await createProxy([shell], { stderr: 'ignore' });
    const http = await proxy.serveHttp({ host: '127.0.0.1', port: 0 });
    const entry = { proxy, http, clients: [] as Client[] };
    proxies.push(entry);
    const viaProxy = await downstream(http);
    entry.clients.push(viaProxy);
    const direct = new Client({ name: 'direct', version: '1.0.0' });
    await direct.connect(new StdioClientTransport({ command: shell.command, args: shell.args, stderr: 'ignore' }));
    entry.clients.push(direct);
    const raw = async (client: Client, method: string, params: Record<string, unknown>) =>
      JSON.stringify(await client.request({ method, params } as never, z.looseObject({})));
    assert.equal(await raw(viaProxy, 'tools/list', {}), await raw(direct, 'tools/list', {}));
    const calls = {
      calls: [
        { name: 'shell', arguments: { command: 'cat notes.txt > copy.txt' } },
        { name: 'read_file', arguments: { path: 'a.txt' } },
        { name: 'nope', arguments: {} },
      ],
    };
    const answers = await raw(direct, FACTS_METHOD, calls);
    assert.equal(await raw(viaProxy, FACTS_METHOD, calls), answers);
    assert.equal(
      answers,
      JSON.stringify({
        results: [
          {
            facts: {
              calls: [
                { tool: 'read', args: { path: '/home/user/notes.txt' } },
                { tool: 'write', args: { path: '/home/user/copy.txt' } },
              ],
            },
            replay: 'unknown',
          },
          { replay: 'unknown' },
          { error: 'unknown tool "nope"', replay: 'unknown' },
        ],
      }),
    );
  },
);

test(
  'a list_changed that makes two servers share a name is reported; the proxy keeps the tools it had',
  { timeout: 60_000 },
  async () => {
    const errors: string[] = [];
    const proxy = await createProxy(
      [upstream('a', 'a.'), { name: 'b', command: process.execPath, args: [PLAIN_SERVER, 'b', 'a.echo'] }],
      { stderr: 'ignore', onError: (err) => errors.push(err.message) },
    );
    const http = await proxy.serveHttp({ host: '127.0.0.1', port: 0 });
    const entry = { proxy, http, clients: [] as Client[] };
    proxies.push(entry);
    const client = await downstream(http);
    entry.clients.push(client);
    const before = ['a.echo', 'a.crash', 'a.add_tool', 'a.ask', 'echo', 'crash', 'add_tool', 'ask'];
    assert.deepEqual(
      (await client.listTools()).tools.map((t) => t.name),
      before,
    );
    await client.callTool({ name: 'add_tool', arguments: {} });
    for (let i = 0; i < 400 && errors.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.deepEqual(errors, ['proxy: tool "a.echo" is listed by both "a" and "b"; give one of them a prefix']);
    assert.deepEqual(
      (await client.listTools()).tools.map((t) => t.name),
      before,
    );
    assert.deepEqual(await client.callTool({ name: 'a.echo', arguments: { text: 'still a' } }), {
      content: [{ type: 'text', text: 'a: still a' }],
    });
  },
);

test(
  'with both bounds the proxy projects and cuts to maxLLMChars code points first, then the served maxOutputChars applies',
  { timeout: 60_000 },
  async () => {
    const proxy = await createProxy([upstream('a')], { stderr: 'ignore', maxLLMChars: 10, maxOutputChars: 6 });
    const http = await proxy.serveHttp({ host: '127.0.0.1', port: 0 });
    const entry = { proxy, http, clients: [] as Client[] };
    proxies.push(entry);
    const client = await downstream(http);
    entry.clients.push(client);
    assert.deepEqual((await client.callTool({ name: 'echo', arguments: { text: 'hello world' } })).content, [
      { type: 'text', text: 'a: hel\n…[truncated: showing 6 of 10 characters]' },
    ]);
    assert.deepEqual((await client.callTool({ name: 'echo', arguments: { text: '😀' } })).content, [
      { type: 'text', text: 'a: 😀' },
    ]);
    assert.deepEqual((await client.callTool({ name: 'echo', arguments: { text: '😀😀' } })).content, [
      { type: 'text', text: 'a: 😀\n…[truncated: showing 5 of 7 characters]' },
    ]);
  },
);

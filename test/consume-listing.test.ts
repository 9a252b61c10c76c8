import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import * as z from 'zod/v4';
import { connectServer, connectTools, MAX_LIST_PAGES } from '../src/mcp/client/index.js';
import { serveHttp } from '../src/mcp/transports/index.js';
import { createCallContext } from '../src/contract/index.js';
import { connectCounted } from './support/consume-servers.js';

const ListTools = z.object({ method: z.literal('tools/list'), params: z.unknown().optional() });

/** A low-level SDK server whose tools/list answers the pages `pageOf(cursor)` gives. */
function pagedServer(pageOf: (cursor: string | undefined) => { tools: unknown[]; nextCursor?: string }): Server {
  const server = new Server({ name: 'paged', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(
    ListTools,
    (request) => pageOf((request.params as { cursor?: string } | undefined)?.cursor) as never,
  );
  return server;
}

const tool = (name: unknown) => ({ name, inputSchema: { type: 'object' } });

test('listing follows every page, in order', async () => {
  const pages: Record<string, { tools: unknown[]; nextCursor?: string }> = {
    start: { tools: [tool('a'), tool('b')], nextCursor: 'p2' },
    p2: { tools: [], nextCursor: 'p3' },
    p3: { tools: [tool('c')] },
  };
  const upstream = await connectCounted(pagedServer((cursor) => pages[cursor ?? 'start']!));
  try {
    assert.deepEqual(
      (await connectTools(upstream.client)).map((t) => t.name),
      ['a', 'b', 'c'],
    );
    assert.deepEqual(
      upstream.sent.filter((m) => m.method === 'tools/list').map((m) => m.params),
      [{}, { cursor: 'p2' }, { cursor: 'p3' }],
    );
  } finally {
    await upstream.close();
  }
});

test('a blank name, a repeated cursor, a duplicate name and a prefix that breaks the name rule are errors naming the server', async () => {
  const cases: Array<
    [
      (cursor: string | undefined) => { tools: unknown[]; nextCursor?: string },
      Parameters<typeof connectTools>[1],
      string,
    ]
  > = [
    [() => ({ tools: [tool('ok'), tool('  ')] }), {}, 'mcp server "paged": tools/list: tool 1 has a blank name'],
    [() => ({ tools: [tool(7)] }), {}, 'mcp server "paged": tools/list: tool 0 has a blank name'],
    [
      () => ({ tools: [tool('a')], nextCursor: 'same' }),
      {},
      'mcp server "paged": tools/list: the cursor "same" came twice',
    ],
    [() => ({ tools: [tool('a'), tool('a')] }), {}, 'mcp server "paged": tool "a" is listed twice'],
    [
      () => ({ tools: [tool('a')] }),
      { prefix: 'bad prefix ' },
      'mcp server "paged": tool "bad prefix a": the name must be 1 to 128 characters of A-Za-z0-9, "_", "-" and "."',
    ],
  ];
  for (const [pageOf, options, message] of cases) {
    const upstream = await connectCounted(pagedServer(pageOf));
    try {
      await assert.rejects(connectTools(upstream.client, options), { message });
    } finally {
      await upstream.close();
    }
  }
  assert.equal(MAX_LIST_PAGES, 1000);
});

test('connectTools refuses something that is not a client', async () => {
  await assert.rejects(connectTools({} as never), {
    name: 'TypeError',
    message: 'connectTools: expected a connected MCP client with listTools and callTool, got an object',
  });
});

test(
  'connectServer over HTTP connects again after the server restarted: the failed call names server and tool',
  { timeout: 60_000 },
  async () => {
    const tools = [
      { name: 'ping', description: 'Answers pong', annotations: { readOnly: true }, execute: async () => 'pong' },
    ];
    let http = await serveHttp({ name: 'restarting', version: '1.0.0' }, tools, { host: '127.0.0.1', port: 0 });
    const port = http.port;
    const connection = await connectServer({ url: http.url }, { permission: 'read' });
    try {
      const ctx = createCallContext({ call: { id: '1', tool: 'ping', args: {} } });
      assert.deepEqual(((await connection.tools[0]!.execute({}, ctx)) as { content: unknown }).content, [
        { type: 'text', text: 'pong' },
      ]);
      await http.close();
      http = await serveHttp({ name: 'restarting', version: '1.0.0' }, tools, { host: '127.0.0.1', port });
      await assert.rejects(connection.tools[0]!.execute({}, ctx), (err: Error) =>
        err.message.startsWith('mcp server "restarting": tool "ping": '),
      );
      assert.deepEqual(((await connection.tools[0]!.execute({}, ctx)) as { content: unknown }).content, [
        { type: 'text', text: 'pong' },
      ]);
    } finally {
      await connection.close();
      await http.close();
    }
  },
);

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import * as z from 'zod/v4';
import { connectTools, MAX_LIST_PAGES } from '../src/mcp/client/index.js';
import { connectCounted } from './support/consume-servers.js';

const ListTools = z.object({ method: z.literal('tools/list'), params: z.unknown().optional() });

/** A low-level SDK server whose tools/list answers the pages `pageOf(cursor)` gives. */
function pagedServer(pageOf: (cursor: string | undefined) => { tools: unknown[]; nextCursor?: string }): Server {
  const server = new Server({ name: 'paged', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListTools, (request) => pageOf((request.params as { cursor?: string } | undefined)?.cursor) as never);
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
    assert.deepEqual((await connectTools(upstream.client)).map((t) => t.name), ['a', 'b', 'c']);
    assert.deepEqual(upstream.sent.filter((m) => m.method === 'tools/list').map((m) => m.params), [{}, { cursor: 'p2' }, { cursor: 'p3' }]);
  } finally {
    await upstream.close();
  }
});

test('a blank name, a repeated cursor, a duplicate name and a prefix that breaks the name rule are errors naming the server', async () => {
  const cases: Array<[(cursor: string | undefined) => { tools: unknown[]; nextCursor?: string }, Parameters<typeof connectTools>[1], string]> = [
    [() => ({ tools: [tool('ok'), tool('  ')] }), {}, 'mcp server "paged": tools/list: tool 1 has a blank name'],
    [() => ({ tools: [tool(7)] }), {}, 'mcp server "paged": tools/list: tool 0 has a blank name'],
    [() => ({ tools: [tool('a')], nextCursor: 'same' }), {}, 'mcp server "paged": tools/list: the cursor "same" came twice'],
    [() => ({ tools: [tool('a'), tool('a')] }), {}, 'mcp server "paged": tool "a" is listed twice'],
    [() => ({ tools: [tool('a')] }), { prefix: 'bad prefix ' }, 'mcp server "paged": tool "bad prefix a": the name must be 1 to 128 characters of A-Za-z0-9, "_", "-" and "."'],
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
  await assert.rejects(connectTools({} as never), { name: 'TypeError', message: 'connectTools: expected a connected MCP client with listTools and callTool, got an object' });
});

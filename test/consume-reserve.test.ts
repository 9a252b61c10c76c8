import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import * as z from 'zod/v4';
import { createServer, FACTS_METHOD } from '../src/mcp/server/index.js';
import { connectTools } from '../src/mcp/client/index.js';
import { connectCounted, type CountedClient } from './support/consume-servers.js';
import { decorated, FACTS_CALLS, FACTS_ANSWERS } from './support/consume-decorated.js';
import { createPolicy } from '../src/runtime/index.js';
import { OUT_DIR } from './support/cli-paths.js';

const PLAIN_SERVER = join(OUT_DIR, 'test', 'support', 'consume-plain-server.js');
const Raw = z.looseObject({});

/** The tools/list answer exactly as it crossed the wire (no SDK parsing of the tools). */
async function rawListing(client: Client): Promise<string> {
  return JSON.stringify(await client.request({ method: 'tools/list', params: {} }, Raw));
}

async function rawFacts(client: Client, calls: unknown[]): Promise<string> {
  return JSON.stringify(await client.request({ method: FACTS_METHOD, params: { calls } } as never, Raw));
}

const opened: CountedClient[] = [];
after(async () => {
  for (const c of opened.reverse()) await c.close();
});

test('round trip: decorate, serve, consume, serve, consume gives identical definitions and facts answers', async () => {
  const level1 = await connectCounted(createServer({ name: 'origin', version: '1.0.0' }, decorated()));
  opened.push(level1);
  const consumed1 = await connectTools(level1.client, { trustClaims: true, policy: null });
  const level2 = await connectCounted(createServer({ name: 'again', version: '1.0.0' }, consumed1));
  opened.push(level2);
  const consumed2 = await connectTools(level2.client, { trustClaims: true, policy: null });
  const level3 = await connectCounted(createServer({ name: 'third', version: '1.0.0' }, consumed2));
  opened.push(level3);
  const listing = await rawListing(level1.client);
  assert.equal(await rawListing(level2.client), listing);
  assert.equal(await rawListing(level3.client), listing);
  const facts = await rawFacts(level1.client, FACTS_CALLS);
  assert.equal(facts, JSON.stringify(FACTS_ANSWERS));
  const before = level1.sent.filter((m) => m.method === FACTS_METHOD).length;
  assert.equal(await rawFacts(level2.client, FACTS_CALLS), facts);
  assert.equal(
    level1.sent.filter((m) => m.method === FACTS_METHOD).length - before,
    1,
    'the level-2 server asked its upstream once for the whole batch',
  );
  assert.equal(await rawFacts(level3.client, FACTS_CALLS), facts);
});

test('a plain SDK McpServer (draft-07 schemas, no _meta, no facts capability) is consumed and served again unchanged', async () => {
  const client = new Client({ name: 'consume-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [PLAIN_SERVER, 'plain'], stderr: 'ignore' }),
  );
  const tools = await connectTools(client, { trustClaims: true, trustServerAnnotations: true, policy: null });
  try {
    assert.deepEqual(
      tools.map((t) => [t.name, t.title, t.parameters, t.annotations, t.sequential, t.facts, t.replay]),
      [
        [
          'echo',
          'Echo',
          {
            type: 'object',
            properties: { text: { type: 'string' } },
            required: ['text'],
            $schema: 'http://json-schema.org/draft-07/schema#',
          },
          { readOnly: true, destructive: true, idempotent: false, openWorld: true },
          undefined,
          undefined,
          undefined,
        ],
        ['crash', undefined, { type: 'object', properties: {} }, undefined, true, undefined, undefined],
        ['add_tool', undefined, { type: 'object', properties: {} }, undefined, true, undefined, undefined],
        ['ask', undefined, { type: 'object', properties: {} }, undefined, true, undefined, undefined],
      ],
    );
    // The consumed tools state their requirement (policy: null); the host that serves them again decides it.
    const again = await connectCounted(
      createServer({ name: 'again', version: '1.0.0' }, tools, {
        policy: createPolicy({ rules: [{ effect: 'allow' }] }),
      }),
    );
    try {
      assert.equal(await rawListing(again.client), await rawListing(client));
      assert.deepEqual(await again.client.callTool({ name: 'echo', arguments: { text: 'hi' } }), {
        content: [{ type: 'text', text: 'plain: hi' }],
        _meta: {
          'io.github.christopherdavenport.agenttool/record': {
            ns: 'toolwright:permissions',
            data: '{"decisions":[],"grants":[{"subjects":["echo"],"capabilities":["read"],"granted":["read"]}]}',
          },
        },
      });
      assert.deepEqual(await again.client.callTool({ name: 'echo', arguments: { text: 5 } }), {
        content: [
          {
            type: 'text',
            text: 'MCP error -32602: Input validation error: Invalid arguments for tool echo: Invalid input: expected string, received number at text',
          },
        ],
        isError: true,
        // A failed call keeps the record of the permission it was granted (the host's policy).
        _meta: {
          'io.github.christopherdavenport.agenttool/record': {
            ns: 'toolwright:permissions',
            data: '{"decisions":[],"grants":[{"subjects":["echo"],"capabilities":["read"],"granted":["read"]}]}',
          },
        },
      });
    } finally {
      await again.close();
    }
  } finally {
    await client.close();
  }
});

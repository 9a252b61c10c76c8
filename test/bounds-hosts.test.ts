import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createServer, type ServerOptions } from '../src/mcp/index.js';
import { Executor } from '../src/runtime/index.js';
import { type ContractTool } from '../src/index.js';

function writer(name: string, chars: number, maxOutputChars?: number): ContractTool {
  return {
    name,
    description: `writes ${chars} characters`,
    ...(maxOutputChars === undefined ? {} : { maxOutputChars }),
    execute: async () => 'x'.repeat(chars),
  };
}

async function callServed(tools: ContractTool[], options: ServerOptions, name: string): Promise<unknown> {
  const server = createServer({ name: 'bounds', version: '1.0.0' }, tools, options);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'bounds-test', version: '1.0.0' });
  await client.connect(clientSide);
  try {
    return await client.callTool({ name, arguments: {} });
  } finally {
    await client.close();
  }
}

test("a served tool's own @MaxOutput is applied without any wrapper, and the server default bounds the rest", async () => {
  const tools = [writer('own', 20, 5), writer('plain', 20)];
  assert.deepEqual(await callServed(tools, {}, 'own'), {
    content: [{ type: 'text', text: 'xxxxx\n…[truncated: showing 5 of 20 characters]' }],
  });
  assert.deepEqual(await callServed(tools, {}, 'plain'), { content: [{ type: 'text', text: 'x'.repeat(20) }] });
  assert.deepEqual(await callServed(tools, { maxOutputChars: 8 }, 'plain'), {
    content: [{ type: 'text', text: 'xxxxxxxx\n…[truncated: showing 8 of 20 characters]' }],
  });
  assert.deepEqual(await callServed(tools, { maxOutputChars: 8 }, 'own'), {
    content: [{ type: 'text', text: 'xxxxx\n…[truncated: showing 5 of 20 characters]' }],
  });
  assert.throws(() => createServer({ name: 'b', version: '1' }, tools, { maxOutputChars: 0 }), {
    message: 'createServer: "maxOutputChars" must be a positive integer or Infinity, got 0',
  });
});

test("the executor applies a tool's own bound and its default, once per tool", async () => {
  const executor = new Executor({ maxOutputChars: 4 });
  const outcomes = await executor.run([
    { id: 'a', tool: writer('own', 10, 2), args: {} },
    { id: 'b', tool: writer('plain', 10), args: {} },
  ]);
  assert.deepEqual(
    outcomes.map((o) => (o.ok ? o.result : o.error.message)),
    [
      { content: [{ type: 'text', text: 'xx\n…[truncated: showing 2 of 10 characters]' }] },
      { content: [{ type: 'text', text: 'xxxx\n…[truncated: showing 4 of 10 characters]' }] },
    ],
  );
  assert.throws(() => new Executor({ maxOutputChars: 1.5 }), {
    message: 'Executor: "maxOutputChars" must be a positive integer or Infinity, got 1.5',
  });
});

test('a result is bounded once, by the host it runs on: no second marker appears', async () => {
  const outcomes = await new Executor({ maxOutputChars: 10 }).run([{ id: 'a', tool: writer('plain', 30), args: {} }]);
  assert.deepEqual(outcomes[0]!.ok ? outcomes[0]!.result : undefined, {
    content: [{ type: 'text', text: 'xxxxxxxxxx\n…[truncated: showing 10 of 30 characters]' }],
  });
});

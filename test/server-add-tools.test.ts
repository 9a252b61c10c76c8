import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InMemoryTransport, McpServer, Server } from '@modelcontextprotocol/server';
import type { ContractTool } from '../src/contract/index.js';
import { FACTS_CAPABILITY, addTools, servedSetOf } from '../src/mcp/server/index.js';
import { connect, notificationsOf } from './support/server-harness.js';

function tool(name: string, execute: ContractTool['execute'] = async () => `${name} ran`): ContractTool {
  return { name, description: `the ${name} tool`, execute };
}

test('addTools on a fresh Server registers the capabilities it needs, merged with the server own', async () => {
  const server = new Server(
    { name: 'mine', version: '1.0.0' },
    { capabilities: { experimental: { 'example/own': {} } } },
  );
  addTools(server, [tool('one')], { transport: 'memory' });
  const { client, close } = await connect(server);
  try {
    assert.deepEqual(client.getServerCapabilities(), {
      experimental: { 'example/own': {}, [FACTS_CAPABILITY]: {} },
      tools: { listChanged: true },
      logging: {},
    });
    assert.deepEqual(
      (await client.listTools()).tools.map((listed) => listed.name),
      ['one'],
    );
    assert.deepEqual(await client.callTool({ name: 'one' }), { content: [{ type: 'text', text: 'one ran' }] });
  } finally {
    await close();
  }
});

test('addTools on a connected Server needs the tools capability; without logging nothing is logged', async () => {
  const chatty = tool('chatty', async (_args, ctx) => {
    ctx.log('error', 'unheard');
    return 'quiet';
  });
  const bare = new Server({ name: 'bare', version: '1.0.0' }, { capabilities: {} });
  const [, bareTransport] = InMemoryTransport.createLinkedPair();
  await bare.connect(bareTransport);
  try {
    assert.throws(() => addTools(bare, [chatty]), {
      message:
        'addTools: the server is already connected without the "tools" capability; call addTools before connect, or construct the Server with capabilities: { tools: {} }',
    });
  } finally {
    await bare.close();
  }
  const withTools = new Server({ name: 'mine', version: '1.0.0' }, { capabilities: { tools: {} } });
  const connected = await connect(withTools);
  try {
    addTools(withTools, [chatty]);
    assert.deepEqual(await connected.client.callTool({ name: 'chatty' }), {
      content: [{ type: 'text', text: 'quiet' }],
    });
    assert.deepEqual(notificationsOf(connected.wire, 'notifications/message'), []);
  } finally {
    await connected.close();
  }
});

test('addTools called again adds and replaces (the last of a name wins), with no options; it refuses anything that is not a Server', async () => {
  const server = new Server({ name: 'mine', version: '1.0.0' }, { capabilities: {} });
  addTools(server, [tool('one'), tool('two')], { transport: 'memory' });
  assert.throws(() => addTools(server, [tool('three')], { transport: 'memory' }), {
    name: 'TypeError',
    message:
      'addTools: this server already serves toolwright tools, prepared with the options of the first call; call addTools(server, tools) without options to add or replace tools',
  });
  addTools(server, [tool('three'), tool('one', async () => 'the new one')]);
  assert.throws(() => addTools(server, [tool('bad name')]), {
    name: 'SetChangeError',
    code: 'set-change-refused',
    message: 'addTools: tool "bad name": the name must be 1 to 128 characters of A-Za-z0-9, "_", "-" and "."',
  });
  const { client, close } = await connect(server);
  try {
    assert.deepEqual(
      (await client.listTools()).tools.map((listed) => listed.name),
      ['one', 'two', 'three'],
    );
    assert.deepEqual(await client.callTool({ name: 'one' }), { content: [{ type: 'text', text: 'the new one' }] });
    servedSetOf(server)!.removeTools(['two']);
    await assert.rejects(client.callTool({ name: 'two' }), {
      code: -32602,
      message: 'MCP error -32602: Unknown tool: two',
    });
  } finally {
    await close();
  }
  assert.equal(servedSetOf({}), undefined);
  assert.throws(() => addTools({} as Server, [tool('one')]), {
    message:
      'addTools: expected a low-level Server from @modelcontextprotocol/server (for an McpServer, pass mcpServer.server)',
  });
  assert.throws(() => addTools(new Server({ name: 'x', version: '1' }), [tool('dup'), tool('dup')]), {
    message: 'addTools: tool "dup" is listed twice; tool names must be unique',
  });
});

test('addTools serves next to an McpServer prompt through mcpServer.server', async () => {
  const mcp = new McpServer({ name: 'mixed', version: '1.0.0' });
  mcp.registerPrompt('greet', { description: 'a greeting' }, () => ({
    messages: [{ role: 'user', content: { type: 'text', text: 'hello' } }],
  }));
  addTools(mcp.server, [tool('one')]);
  const { client, close } = await connect(mcp.server);
  try {
    assert.deepEqual(
      (await client.listPrompts()).prompts.map((prompt) => prompt.name),
      ['greet'],
    );
    assert.deepEqual(await client.callTool({ name: 'one' }), { content: [{ type: 'text', text: 'one ran' }] });
  } finally {
    await close();
  }
});

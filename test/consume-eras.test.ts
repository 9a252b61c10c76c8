import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { createCallContext, type ElicitAnswer, type Elicitation, type ToolOutput } from '../src/contract/index.js';
import { connectServer, connectTools, type McpClientLike } from '../src/mcp/client/index.js';
import { OUT_DIR } from './support/cli-paths.js';

const MODERN_SERVER = join(OUT_DIR, 'test', 'support', 'consume-modern-server.js');
const PLAIN_SERVER = join(OUT_DIR, 'test', 'support', 'consume-plain-server.js');
const content = (output: ToolOutput) => (JSON.parse(JSON.stringify(output)) as { content: unknown }).content;

function elicitor(questions: Elicitation[]): (q: Elicitation) => Promise<ElicitAnswer> {
  return async (question) => {
    questions.push(question);
    return { action: 'accept', content: { name: 'Ada' } };
  };
}

async function v2Client(args: string[]): Promise<ClientV2> {
  const client = new ClientV2(
    { name: 'consume-v2', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: 'auto' } },
  );
  await client.connect(new StdioV2({ command: process.execPath, args, stderr: 'ignore' }));
  return client;
}

async function v1Client(args: string[]): Promise<ClientV1> {
  const client = new ClientV1(
    { name: 'consume-v1', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } } },
  );
  await client.connect(new StdioV1({ command: process.execPath, args, stderr: 'ignore' }));
  return client;
}

test(
  "2026 era: the 2.x client fulfils input_required through the calling context's elicitor",
  { timeout: 60_000 },
  async () => {
    const client = await v2Client([MODERN_SERVER]);
    try {
      assert.equal(client.getProtocolEra(), 'modern');
      const tools = await connectTools(client as unknown as McpClientLike, { permission: 'read' });
      assert.deepEqual(
        tools.map((t) => t.name),
        ['confirm'],
      );
      const questions: Elicitation[] = [];
      const output = await tools[0]!.execute(
        { greeting: 'hello' },
        createCallContext({ call: { id: '1', tool: 'confirm', args: {} }, elicit: elicitor(questions) }),
      );
      assert.deepEqual(content(output), [{ type: 'text', text: 'hello {"action":"accept","content":{"name":"Ada"}}' }]);
      assert.deepEqual(questions, [
        { message: 'Name?', schema: { type: 'object', properties: { name: { type: 'string' } } } },
      ]);
    } finally {
      await client.close();
    }
  },
);

test(
  '2025 era: the same server pushes elicitation/create to a 1.x client, which goes to the calling context',
  { timeout: 60_000 },
  async () => {
    const client = await v1Client([MODERN_SERVER]);
    try {
      const tools = await connectTools(client, { permission: 'read' });
      const questions: Elicitation[] = [];
      const output = await tools[0]!.execute(
        { greeting: 'hi' },
        createCallContext({ call: { id: '1', tool: 'confirm', args: {} }, elicit: elicitor(questions) }),
      );
      assert.deepEqual(content(output), [{ type: 'text', text: 'hi {"action":"accept","content":{"name":"Ada"}}' }]);
      assert.deepEqual(questions, [
        { message: 'Name?', schema: { type: 'object', properties: { name: { type: 'string' } } } },
      ]);
    } finally {
      await client.close();
    }
  },
);

test(
  'the 2.x client against a 2025-era plain SDK server: listing, calls, elicitation, errors',
  { timeout: 60_000 },
  async () => {
    const client = await v2Client([PLAIN_SERVER, 'plain']);
    try {
      const tools = await connectTools(client as unknown as McpClientLike, { permission: 'read' });
      assert.deepEqual(
        tools.map((t) => [t.name, t.parameters]),
        [
          [
            'echo',
            {
              type: 'object',
              properties: { text: { type: 'string' } },
              required: ['text'],
              $schema: 'http://json-schema.org/draft-07/schema#',
            },
          ],
          ['crash', { type: 'object', properties: {} }],
          ['add_tool', { type: 'object', properties: {} }],
          ['ask', { type: 'object', properties: {} }],
        ],
      );
      const ctx = (elicit?: (q: Elicitation) => Promise<ElicitAnswer>) =>
        createCallContext({ call: { id: '1', tool: 'x', args: {} }, ...(elicit ? { elicit } : {}) });
      assert.deepEqual(content(await tools[0]!.execute({ text: 'v2' }, ctx())), [{ type: 'text', text: 'plain: v2' }]);
      const questions: Elicitation[] = [];
      assert.deepEqual(content(await tools[3]!.execute({}, ctx(elicitor(questions)))), [
        { type: 'text', text: '{"action":"accept","content":{"name":"Ada"}}' },
      ]);
      assert.equal(questions.length, 1);
      await assert.rejects(tools[1]!.execute({}, ctx()), (err: Error) =>
        err.message.startsWith('mcp server "plain": tool "crash": '),
      );
    } finally {
      await client.close();
    }
  },
);

test(
  'connectServer owns a 2026-era connection; the host elicitor answers input_required',
  { timeout: 60_000 },
  async () => {
    const connection = await connectServer(
      { command: process.execPath, args: [MODERN_SERVER], stderr: 'ignore' },
      {
        trustServerAnnotations: true,
        elicit: async (question, about) => ({
          action: 'accept',
          content: { name: `${about.server}/${about.tool} ${question.message}` },
        }),
      },
    );
    try {
      assert.equal(connection.server, 'modern');
      const output = await connection.tools[0]!.execute(
        { greeting: 'hey' },
        createCallContext({ call: { id: '1', tool: 'confirm', args: {} } }),
      );
      assert.deepEqual(content(output), [
        { type: 'text', text: 'hey {"action":"accept","content":{"name":"modern/confirm Name?"}}' },
      ]);
    } finally {
      await connection.close();
    }
  },
);

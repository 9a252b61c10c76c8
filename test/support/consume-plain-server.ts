// A plain SDK 1.x `McpServer` over stdio (no toolwright): zod schemas (listed as the SDK emits
// them), no `_meta`, no facts capability. Run as `node consume-plain-server.js [name] [added]`.
// Tools: echo {text}; slow_echo {text} (reports progress first); crash (the process exits
// mid-call); add_tool (registers the tool `added`, default "extra", so the SDK sends
// tools/list_changed); ask (elicits).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import * as z from 'zod/v4';

const name = process.argv[2] ?? 'plain';
const added = process.argv[3] ?? 'extra';
const server = new McpServer({ name, version: '1.0.0' });
server.registerTool(
  'echo',
  {
    title: 'Echo',
    description: 'Echoes the text',
    inputSchema: { text: z.string() },
    annotations: { readOnlyHint: true },
  },
  async ({ text }) => ({
    content: [{ type: 'text', text: `${name}: ${text}` }],
  }),
);
server.registerTool('crash', { description: 'Exits the process mid-call' }, async () => {
  setImmediate(() => process.exit(3));
  return new Promise<never>(() => {});
});
server.registerTool('add_tool', { description: `Registers the tool ${JSON.stringify(added)}` }, async () => {
  server.registerTool(added, { description: 'Added later' }, async () => ({
    content: [{ type: 'text', text: 'extra ran' }],
  }));
  return { content: [{ type: 'text', text: 'added' }] };
});
server.registerTool('ask', { description: 'Asks the user for a name' }, async () => {
  const answer = await server.server.elicitInput({
    message: 'Name?',
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
  });
  return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
});
await server.connect(new StdioServerTransport());

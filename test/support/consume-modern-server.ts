// A 2.x SDK `McpServer` over stdio that speaks both protocol eras: in the 2026-07-28 era its
// `confirm` tool asks through `input_required`; for a 2025-era client the SDK's shim pushes the
// same question as `elicitation/create`. `serveStdio` picks the era per connection. Run as `node
// consume-modern-server.js`.
import { McpServer, inputRequired } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod/v4';

serveStdio(() => {
  const server = new McpServer({ name: 'modern', version: '1.0.0' });
  server.registerTool(
    'confirm',
    {
      description: 'Asks for a name, then says it',
      inputSchema: z.object({ greeting: z.string() }),
      annotations: { readOnlyHint: true },
    },
    async ({ greeting }, ctx) => {
      const answer = ctx.mcpReq.inputResponses?.name;
      if (answer === undefined) {
        return inputRequired({
          inputRequests: {
            name: inputRequired.elicit({
              message: 'Name?',
              requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
            }),
          },
        });
      }
      return { content: [{ type: 'text', text: `${greeting} ${JSON.stringify(answer)}` }] };
    },
  );
  return server;
});

/**
 * The benchmark's SDK 1.x baseline: the same `echo` tool as toolwright-echo-server.ts, written
 * by hand on `@modelcontextprotocol/sdk` 1.x's `McpServer.registerTool` with a zod schema, served
 * over stdio; with the argument `http`, over streamable HTTP on 127.0.0.1 (a session per
 * client, plain `node:http`), printing `url <url>` on stderr.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { reportCpuOnSignal } from './cpu-report.js';
import { serveSdk1Http } from './sdk-http.js';

reportCpuOnSignal();

function echoServer(): McpServer {
  const server = new McpServer({ name: 'sdk-echo', version: '1.0.0' });
  server.registerTool(
    'echo',
    {
      description: 'Echoes the text back, repeated count times (1 to 5).',
      inputSchema: {
        text: z.string().max(10_000).describe('The text to echo back'),
        count: z.number().int().min(1).max(5).optional().describe('How many times to repeat it (default 1)'),
      },
      annotations: { readOnlyHint: true, idempotentHint: true },
    },
    async ({ text, count }) => ({
      content: [{ type: 'text', text: Array.from({ length: count ?? 1 }, () => text).join(' ') }],
    }),
  );

  return server;
}

if (process.argv[2] === 'http') {
  serveSdk1Http(echoServer);
} else {
  echoServer()
    .connect(new StdioServerTransport())
    .catch((error: unknown) => {
      process.stderr.write(`sdk-echo: ${String(error)}\n`);
      process.exit(1);
    });
}

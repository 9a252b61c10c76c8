/**
 * The benchmark's SDK 2.x baseline: the same `echo` tool written by hand on
 * `@modelcontextprotocol/server`'s `McpServer.registerTool` with a zod schema. `node
 * sdk2-echo-server.js` serves stdio; with the argument `http` it serves streamable HTTP on
 * 127.0.0.1 (the SDK's `createMcpHandler`, whose 2025-era leg is stateless, behind a plain
 * `node:http` bridge) and prints `url <url>` on stderr.
 */
import { McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod';
import { reportCpuOnSignal } from './cpu-report.js';
import { serveSdk2Http } from './sdk-http.js';

reportCpuOnSignal();

function echoServer(): McpServer {
  const server = new McpServer({ name: 'sdk2-echo', version: '1.0.0' });
  server.registerTool(
    'echo',
    {
      description: 'Echoes the text back, repeated count times (1 to 5).',
      inputSchema: z.object({
        text: z.string().max(10_000).describe('The text to echo back'),
        count: z.number().int().min(1).max(5).optional().describe('How many times to repeat it (default 1)'),
      }),
      annotations: { readOnlyHint: true, idempotentHint: true },
    },
    async ({ text, count }) => ({
      content: [{ type: 'text', text: Array.from({ length: count ?? 1 }, () => text).join(' ') }],
    }),
  );
  return server;
}

if (process.argv[2] === 'http') {
  serveSdk2Http(echoServer);
} else {
  echoServer()
    .connect(new StdioServerTransport())
    .catch((error: unknown) => {
      process.stderr.write(`sdk2-echo: ${String(error)}\n`);
      process.exit(1);
    });
}

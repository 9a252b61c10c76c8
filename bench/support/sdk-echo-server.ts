/**
 * The benchmark's SDK 1.x baseline: the same `echo` tool as toolwright-echo-server.ts, written
 * by hand on `@modelcontextprotocol/sdk` 1.x's `McpServer.registerTool` with a zod schema, served
 * over stdio; with the argument `http`, over streamable HTTP on 127.0.0.1 (a session per
 * client, plain `node:http`), printing `url <url>` on stderr.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { reportCpuOnSignal } from './cpu-report.js';

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
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const body = text === '' ? undefined : (JSON.parse(text) as unknown);
      const id = req.headers['mcp-session-id'];
      let transport = typeof id === 'string' ? sessions.get(id) : undefined;
      const serve = async (): Promise<void> => {
        if (transport === undefined) {
          const fresh = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (sid) => void sessions.set(sid, fresh) });
          transport = fresh;
          await echoServer().connect(fresh);
        }
        await transport.handleRequest(req, res, body);
      };
      serve().catch(() => res.destroy());
    });
  });
  http.listen(0, '127.0.0.1', () => process.stderr.write(`url http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp\n`));
} else {
  echoServer().connect(new StdioServerTransport()).catch((error: unknown) => {
    process.stderr.write(`sdk-echo: ${String(error)}\n`);
    process.exit(1);
  });
}

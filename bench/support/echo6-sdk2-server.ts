/**
 * The edge bench's SDK 2.x side: the 6-property echo written by hand on
 * `@modelcontextprotocol/server`'s `McpServer.registerTool` with a zod schema per tool (see
 * `echo6-args.ts`). Serves stdio; with the argument `http`, streamable HTTP on 127.0.0.1 (the
 * SDK's `createMcpHandler`, whose 2025-era leg is stateless, behind a plain `node:http` bridge),
 * printing `url <url>` on stderr. Reports CPU time and peak RSS on SIGUSR2.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod';
import { sendWebResponse, toWebRequest } from '../../src/mcp/transports/http/web-bridge.js';
import { DESCRIPTION, echo6, serverArgs, toolName } from './echo6-args.js';
import { reportCpuOnSignal } from './cpu-report.js';

reportCpuOnSignal();
const { transport, toolCount } = serverArgs();

function echoServer(): McpServer {
  const server = new McpServer({ name: 'sdk2-echo6', version: '1.0.0' });
  for (let index = 0; index < toolCount; index++) {
    server.registerTool(
      toolName(index),
      {
        description: DESCRIPTION,
        inputSchema: z.object({
          text: z.string().max(10_000).describe('The text to echo back'),
          count: z.number().int().min(1).max(5).optional().describe('How many times to repeat it (default 1)'),
          separator: z.string().max(10).optional().describe('What goes between the copies (default one space)'),
          prefix: z.string().max(100).optional().describe('What goes before the copies'),
          suffix: z.string().max(100).optional().describe('What goes after the copies'),
          upper: z.boolean().optional().describe('Upper-case the answer'),
        }),
        annotations: { readOnlyHint: true, idempotentHint: true },
      },
      async (input) => ({ content: [{ type: 'text', text: echo6(input) }] }),
    );
  }
  return server;
}

if (transport === 'http') {
  const handler = createMcpHandler(() => echoServer());
  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const parsedBody = text === '' ? undefined : (JSON.parse(text) as unknown);
      handler.fetch(toWebRequest(req), parsedBody === undefined ? {} : { parsedBody }).then((response) => sendWebResponse(response, res), () => res.destroy());
    });
  });
  http.listen(0, '127.0.0.1', () => process.stderr.write(`url http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp\n`));
} else {
  echoServer().connect(new StdioServerTransport()).catch((error: unknown) => {
    process.stderr.write(`sdk2-echo6: ${String(error)}\n`);
    process.exit(1);
  });
}

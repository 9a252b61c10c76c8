/**
 * The edge bench's SDK 2.x side: the 6-property echo written by hand on
 * `@modelcontextprotocol/server`'s `McpServer.registerTool` with a zod schema per tool (see
 * `echo6-args.ts`). Serves stdio; with the argument `http`, streamable HTTP on 127.0.0.1 with a
 * session per 2025-era client; with `http-stateless`, the SDK's `createMcpHandler` (a server per
 * request: stateless for 2025-era clients, and the 2026-07-28 era); see `sdk-http.ts`. Over HTTP
 * it also serves `ask`, which asks the client to confirm (`inputRequired` in the 2026-07-28 era).
 * Prints `url <url>` on stderr once listening. Reports CPU time and peak RSS on SIGUSR2.
 */
import { acceptedContent, inputRequired, McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod';
import { ASK_TOOL, DESCRIPTION, echo6, serverArgs, toolName } from './echo6-args.js';
import { echo6Shape } from './echo6-zod.js';
import { serveSdk2Http, serveSdk2SessionsHttp } from './sdk-http.js';
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
        inputSchema: z.object(echo6Shape()),
        annotations: { readOnlyHint: true, idempotentHint: true },
      },
      async (input) => ({ content: [{ type: 'text', text: echo6(input) }] }),
    );
  }
  if (transport !== 'stdio') {
    const answer = z.object({ ok: z.boolean() });
    server.registerTool(
      ASK_TOOL.name,
      { description: ASK_TOOL.description, inputSchema: z.object({}) },
      (_input, ctx) => {
        const confirmed = acceptedContent(ctx.mcpReq.inputResponses, 'confirm', answer);
        if (confirmed === undefined)
          return inputRequired({
            inputRequests: { confirm: inputRequired.elicit({ message: ASK_TOOL.question, requestedSchema: answer }) },
          });
        return { content: [{ type: 'text', text: String(confirmed.ok) }] };
      },
    );
  }
  return server;
}

if (transport === 'http') {
  serveSdk2SessionsHttp(echoServer);
} else if (transport === 'http-stateless') {
  serveSdk2Http(echoServer);
} else {
  echoServer()
    .connect(new StdioServerTransport())
    .catch((error: unknown) => {
      process.stderr.write(`sdk2-echo6: ${String(error)}\n`);
      process.exit(1);
    });
}

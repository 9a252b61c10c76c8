/**
 * The edge bench's SDK 1.x side: the 6-property echo written by hand on
 * `@modelcontextprotocol/sdk` 1.x's `McpServer.registerTool` with a zod shape per tool (see
 * `echo6-args.ts`). Serves stdio; with the argument `http`, streamable HTTP on 127.0.0.1 (a
 * session per client, plain `node:http`), with `http-stateless` a server per request (see
 * `sdk-http.ts`), printing `url <url>` on stderr. Reports CPU time and
 * peak RSS on SIGUSR2.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { DESCRIPTION, echo6, serverArgs, toolName } from './echo6-args.js';
import { echo6Shape } from './echo6-zod.js';
import { serveSdk1Http, serveSdk1StatelessHttp } from './sdk-http.js';
import { reportCpuOnSignal } from './cpu-report.js';

reportCpuOnSignal();
const { transport, toolCount } = serverArgs();

function echoServer(): McpServer {
  const server = new McpServer({ name: 'sdk1-echo6', version: '1.0.0' });
  for (let index = 0; index < toolCount; index++) {
    server.registerTool(
      toolName(index),
      {
        description: DESCRIPTION,
        inputSchema: echo6Shape(),
        annotations: { readOnlyHint: true, idempotentHint: true },
      },
      async (input) => ({ content: [{ type: 'text', text: echo6(input) }] }),
    );
  }
  return server;
}

if (transport === 'http') {
  serveSdk1Http(echoServer);
} else if (transport === 'http-stateless') {
  serveSdk1StatelessHttp(echoServer);
} else {
  echoServer()
    .connect(new StdioServerTransport())
    .catch((error: unknown) => {
      process.stderr.write(`sdk1-echo6: ${String(error)}\n`);
      process.exit(1);
    });
}

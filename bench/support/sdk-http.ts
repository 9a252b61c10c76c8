/**
 * How the bench's hand-written SDK servers serve streamable HTTP on 127.0.0.1 (each prints
 * `url <url>` on stderr once listening): SDK 2.x through its `createMcpHandler` (stateless for
 * 2025-era clients) behind a plain `node:http` bridge, SDK 1.x with a
 * `StreamableHTTPServerTransport` and a server per session. Only bench servers use these.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHandler, type McpServer as McpServer2 } from '@modelcontextprotocol/server';
import type { McpServer as McpServer1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { sendWebResponse, toWebRequest } from '../../src/mcp/transports/http/web-bridge.js';

/** Reads a request's whole body as JSON (`undefined` when empty), then calls `use` with it. */
function withBody(req: IncomingMessage, use: (body: unknown) => void): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const text = Buffer.concat(chunks).toString('utf8');
    use(text === '' ? undefined : (JSON.parse(text) as unknown));
  });
}

function listen(server: ReturnType<typeof createServer>): void {
  server.listen(0, '127.0.0.1', () =>
    process.stderr.write(`url http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp\n`),
  );
}

/** Serves SDK 2.x servers made by `makeServer` (one per request) over streamable HTTP. */
export function serveSdk2Http(makeServer: () => McpServer2): void {
  const handler = createMcpHandler(makeServer);
  listen(
    createServer((req, res) => {
      withBody(req, (parsedBody) => {
        handler.fetch(toWebRequest(req), parsedBody === undefined ? {} : { parsedBody }).then(
          (response) => sendWebResponse(response, res),
          () => res.destroy(),
        );
      });
    }),
  );
}

/** Serves SDK 1.x servers made by `makeServer` (one per session) over streamable HTTP. */
export function serveSdk1Http(makeServer: () => McpServer1): void {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  listen(
    createServer((req, res) => {
      withBody(req, (body) => {
        const id = req.headers['mcp-session-id'];
        let session = typeof id === 'string' ? sessions.get(id) : undefined;
        const serve = async (): Promise<void> => {
          if (session === undefined) {
            const fresh = new StreamableHTTPServerTransport({
              sessionIdGenerator: () => randomUUID(),
              onsessioninitialized: (sid) => void sessions.set(sid, fresh),
            });
            session = fresh;
            await makeServer().connect(fresh);
          }
          await session.handleRequest(req, res, body);
        };
        serve().catch(() => res.destroy());
      });
    }),
  );
}

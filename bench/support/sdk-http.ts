/**
 * How the bench's hand-written SDK servers serve streamable HTTP on 127.0.0.1 (each prints
 * `url <url>` on stderr once listening), as the SDKs' own docs show:
 *
 * - SDK 2.x with sessions: a `WebStandardStreamableHTTPServerTransport` and a server per session,
 *   behind a plain `node:http` bridge (`web-bridge.ts`);
 * - SDK 2.x without: its `createMcpHandler` (a server per request; stateless for 2025-era
 *   clients, and the 2026-07-28 era);
 * - SDK 1.x with sessions: a `StreamableHTTPServerTransport` and a server per session;
 * - SDK 1.x without: a transport (`sessionIdGenerator: undefined`) and a server per request.
 *
 * Only bench servers use these.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createMcpHandler,
  WebStandardStreamableHTTPServerTransport,
  type McpServer as McpServer2,
} from '@modelcontextprotocol/server';
import type { McpServer as McpServer1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { sendWebResponse, toWebRequest } from './web-bridge.js';

/** Reads a request's whole body as JSON (`undefined` when empty), then calls `use` with it. */
function withBody(req: IncomingMessage, use: (body: unknown) => void): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const text = Buffer.concat(chunks).toString('utf8');
    use(text === '' ? undefined : (JSON.parse(text) as unknown));
  });
}

function listen(serve: (req: IncomingMessage, res: ServerResponse, body: unknown) => Promise<void>): void {
  const server = createServer((req, res) =>
    withBody(req, (body) => void serve(req, res, body).catch(() => res.destroy())),
  );
  server.keepAliveTimeout = 65_000;
  server.listen(0, '127.0.0.1', () =>
    process.stderr.write(`url http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp\n`),
  );
}

/** Serves SDK 2.x servers made by `makeServer` (one per request) through `createMcpHandler`. */
export function serveSdk2Http(makeServer: () => McpServer2): void {
  const handler = createMcpHandler(makeServer);
  listen(async (req, res, parsedBody) =>
    sendWebResponse(await handler.fetch(toWebRequest(req), parsedBody === undefined ? {} : { parsedBody }), res),
  );
}

/** Serves SDK 2.x servers made by `makeServer` (one per session) with a web-standard transport each. */
export function serveSdk2SessionsHttp(makeServer: () => McpServer2): void {
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  listen(async (req, res, parsedBody) => {
    const id = req.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? sessions.get(id) : undefined;
    if (transport === undefined) {
      const fresh = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => void sessions.set(sid, fresh),
      });
      transport = fresh;
      await makeServer().connect(fresh);
    }
    const options = parsedBody === undefined ? {} : { parsedBody };
    await sendWebResponse(await transport.handleRequest(toWebRequest(req), options), res);
  });
}

/** Serves SDK 1.x servers made by `makeServer` (one per session) over streamable HTTP. */
export function serveSdk1Http(makeServer: () => McpServer1): void {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  listen(async (req, res, body) => {
    const id = req.headers['mcp-session-id'];
    let session = typeof id === 'string' ? sessions.get(id) : undefined;
    if (session === undefined) {
      const fresh = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => void sessions.set(sid, fresh),
      });
      session = fresh;
      await makeServer().connect(fresh);
    }
    await session.handleRequest(req, res, body);
  });
}

/** Serves SDK 1.x servers made by `makeServer` (one per request, no session) over streamable HTTP. */
export function serveSdk1StatelessHttp(makeServer: () => McpServer1): void {
  listen(async (req, res, body) => {
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const server = makeServer();
    res.on('close', () => void server.close());
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  });
}

/**
 * The edge bench's raw floor (issue 28): the 6-property echo answered by hand-written JSON-RPC with
 * no SDK, no validation, no sessions and no Host check: what the transport itself costs. Over
 * stdio (the default) it reads newline-delimited JSON-RPC from stdin and writes one line per
 * answer; with the argument `http` it is plain `node:http` on 127.0.0.1 answering every POSTed
 * request with a JSON body (`Content-Type: application/json`, no SSE), a notification with 202 and
 * any other method with 405, and prints `url <url>` on stderr. It answers `initialize` (echoing
 * the client's protocol version), `tools/list`, `tools/call` and `ping`, enough for both SDK
 * clients of the 2025-11-25 era. Reports CPU time and peak RSS on SIGUSR2 (see `cpu-report.ts`).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DESCRIPTION, echo6, echo6Schema, serverArgs, toolName, type Echo6Input } from './echo6-args.js';
import { reportCpuOnSignal } from './cpu-report.js';

reportCpuOnSignal();
const { transport, toolCount } = serverArgs();

const tools = Array.from({ length: toolCount }, (_, index) => ({
  name: toolName(index),
  description: DESCRIPTION,
  inputSchema: echo6Schema(),
  annotations: { readOnlyHint: true, idempotentHint: true },
}));

interface Message {
  readonly id?: string | number;
  readonly method?: string;
  readonly params?: { readonly protocolVersion?: string; readonly arguments?: Echo6Input };
}

/** The answer to one message, or `undefined` for a notification (or a response). */
function answer(message: Message): object | undefined {
  if (message.id === undefined || message.method === undefined) return undefined;
  switch (message.method) {
    case 'initialize':
      return {
        jsonrpc: '2.0',
        id: message.id,
        result: {
          protocolVersion: message.params?.protocolVersion ?? '2025-11-25',
          capabilities: { tools: {} },
          serverInfo: { name: 'raw-echo6', version: '1.0.0' },
        },
      };
    case 'tools/list':
      return { jsonrpc: '2.0', id: message.id, result: { tools } };
    case 'tools/call':
      return {
        jsonrpc: '2.0',
        id: message.id,
        result: { content: [{ type: 'text', text: echo6(message.params!.arguments!) }] },
      };
    case 'ping':
      return { jsonrpc: '2.0', id: message.id, result: {} };
    default:
      return { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } };
  }
}

if (transport === 'stdio') {
  let pending = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk: string) => {
    pending += chunk;
    let out = '';
    for (let newline = pending.indexOf('\n'); newline >= 0; newline = pending.indexOf('\n')) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      if (line.trim() === '') continue;
      const reply = answer(JSON.parse(line) as Message);
      if (reply !== undefined) out += `${JSON.stringify(reply)}\n`;
    }
    if (out !== '') process.stdout.write(out);
  });
  process.stdin.on('end', () => process.exit(0));
} else {
  const server = createServer((req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405, { Allow: 'POST' }).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Message | Message[];
      const replies = (Array.isArray(body) ? body : [body]).map(answer).filter((reply) => reply !== undefined);
      if (replies.length === 0) {
        res.writeHead(202).end();
        return;
      }
      const text = JSON.stringify(Array.isArray(body) ? replies : replies[0]);
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) }).end(text);
    });
  });
  server.keepAliveTimeout = 65_000;
  server.listen(0, '127.0.0.1', () =>
    process.stderr.write(`url http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp\n`),
  );
}

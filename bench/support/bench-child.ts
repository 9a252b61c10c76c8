/**
 * The edge bench's server children and the clients that drive them: a server script started as
 * `node [flags] <script> <transport> <toolCount>` (see `echo6-args.ts`), its CPU and memory read
 * from its SIGUSR2 reports (see `cpu-report.ts`), driven by real SDK clients (1.x, or 2.x pinned
 * to 2026-07-28) over stdio or streamable HTTP. Every wait is bounded by `WAIT_MS`.
 */
import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport } from '@modelcontextprotocol/client';
import { usageOfLine, type UsageReport } from './cpu-report.js';

/** How long any one wait of the bench may take. */
export const WAIT_MS = 30_000;

/** A server the bench runs: its label and script. */
export interface Contender {
  readonly label: string;
  readonly script: string;
}

/** The transport a child serves (see `ServerArgs`). */
export type ChildTransport = 'stdio' | 'http' | 'http-stateless';

/** Which client line drives a child over HTTP: SDK 1.x (2025-11-25) or SDK 2.x pinned to 2026-07-28. */
export type ClientEra = '2025' | '2026';

/** One tool call as the bench makes it, whichever client line. */
export type CallTool = (name: string, args: Record<string, unknown>) => Promise<{ content?: Array<{ text?: string }> }>;

/** A running server child. */
export interface Child {
  readonly contender: Contender;
  readonly pid: number;
  /** The endpoint, for HTTP children. */
  readonly url: string | undefined;
  usage(): Promise<UsageReport>;
  stop(): Promise<void>;
}

/** A connected client of a child. */
export interface Session {
  readonly callTool: CallTool;
  readonly listTools: () => Promise<{ tools: unknown[] }>;
  close(): Promise<void>;
}

/** Sorts a child's stderr lines: CPU reports into `cpuLines`, its URL to `onUrl`, the rest shown. */
function collectStderr(
  stream: { on(event: 'data', listener: (chunk: Buffer) => void): unknown } | null | undefined,
  label: string,
  cpuLines: string[],
  onUrl: (url: string) => void = () => undefined,
): void {
  let pending = '';
  stream?.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    for (let newline = pending.indexOf('\n'); newline >= 0; newline = pending.indexOf('\n')) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      if (line.startsWith('cpu ')) cpuLines.push(line);
      else if (line.startsWith('url ')) onUrl(line.slice(4).trim());
      else if (line.trim() !== '' && !line.startsWith('toolwright:')) process.stderr.write(`[${label}] ${line}\n`);
    }
  });
}

function usageReader(label: string, pid: number, cpuLines: string[]): () => Promise<UsageReport> {
  return async () => {
    const before = cpuLines.length;
    process.kill(pid, 'SIGUSR2');
    const deadline = Date.now() + WAIT_MS;
    while (cpuLines.length === before) {
      if (Date.now() > deadline) throw new Error(`${label}: no CPU report within ${WAIT_MS} ms`);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    return usageOfLine(cpuLines[cpuLines.length - 1]!);
  };
}

/**
 * Starts `contender` over stdio with `toolCount` tools and connects an SDK 1.x client to it: the
 * child and its one session (closing the session ends the child).
 */
export async function startStdio(
  contender: Contender,
  toolCount = 1,
  nodeFlags: readonly string[] = [],
): Promise<{ child: Child; session: Session }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...nodeFlags, contender.script, 'stdio', String(toolCount)],
    stderr: 'pipe',
  });
  const cpuLines: string[] = [];
  collectStderr(transport.stderr, contender.label, cpuLines);
  const client = new Client({ name: 'edge-bench', version: '1.0.0' });
  await client.connect(transport);
  const pid = transport.pid!;
  const session: Session = {
    callTool: (name, args) => client.callTool({ name, arguments: args }) as ReturnType<CallTool>,
    listTools: () => client.listTools(),
    close: () => client.close(),
  };
  return {
    child: {
      contender,
      pid,
      url: undefined,
      usage: usageReader(contender.label, pid, cpuLines),
      stop: () => client.close(),
    },
    session,
  };
}

/** Starts `contender` serving `transport` over HTTP on 127.0.0.1; resolves once it printed its URL. */
export async function startHttp(
  contender: Contender,
  transport: Exclude<ChildTransport, 'stdio'>,
  nodeFlags: readonly string[] = [],
): Promise<Child> {
  const child = spawn(process.execPath, [...nodeFlags, contender.script, transport, '1'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const cpuLines: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${contender.label}: no URL within ${WAIT_MS} ms`)), WAIT_MS);
    collectStderr(child.stderr, contender.label, cpuLines, (line) => {
      clearTimeout(timer);
      resolve(line);
    });
    child.once('exit', () => reject(new Error(`${contender.label}: exited before printing its URL`)));
  });
  return {
    contender,
    pid: child.pid!,
    url,
    usage: usageReader(contender.label, child.pid!, cpuLines),
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** The capabilities the bench's 2.x client declares (it answers `ask`'s question with yes). */
const V2_CAPABILITIES = { elicitation: { form: {} } };

/** Connects a client of `era`'s line to the HTTP child at `url`. */
export async function connectHttp(url: string, era: ClientEra): Promise<Session> {
  if (era === '2025') {
    const client = new Client({ name: 'edge-bench', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    return {
      callTool: (name, args) => client.callTool({ name, arguments: args }) as ReturnType<CallTool>,
      listTools: () => client.listTools(),
      close: () => client.close(),
    };
  }
  const client = new V2Client(
    { name: 'edge-bench', version: '1.0.0' },
    { capabilities: V2_CAPABILITIES, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { ok: true } }) as never);
  await client.connect(new V2HttpTransport(new URL(url)));
  return {
    callTool: (name, args) => client.callTool({ name, arguments: args }) as ReturnType<CallTool>,
    listTools: () => client.listTools() as Promise<{ tools: unknown[] }>,
    close: () => client.close(),
  };
}

/** The `_meta` envelope of a raw 2026-07-28 request that offers form elicitation. */
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': V2_CAPABILITIES,
  'io.modelcontextprotocol/clientInfo': { name: 'edge-bench', version: '1.0.0' },
};

/** The JSON-RPC messages of an HTTP answer: its JSON body, or each SSE event's data. */
async function messagesOf(response: Response): Promise<unknown[]> {
  const text = await response.text();
  if (response.headers.get('content-type')?.startsWith('text/event-stream') === true)
    return text
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)) as unknown);
  return text === '' ? [] : [JSON.parse(text) as unknown];
}

const POST_HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };

/**
 * Opens one 2025-11-25 session on the HTTP child at `url` by hand (`initialize`, `initialized`,
 * one echo6 call) and leaves it idle; resolves with its id. No client object and no GET stream
 * stay behind, so that a server's memory per session is all the bench sees.
 */
export async function openIdleSession(url: string, echoArgs: Record<string, unknown>): Promise<string> {
  const init = await fetch(url, {
    method: 'POST',
    headers: POST_HEADERS,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'edge-bench', version: '1.0.0' } },
    }),
  });
  const id = init.headers.get('mcp-session-id');
  await messagesOf(init);
  if (id === null) throw new Error(`${url}: initialize answered ${init.status} without a session id`);
  const headers = { ...POST_HEADERS, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' };
  await messagesOf(
    await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    }),
  );
  const call = await messagesOf(
    await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'echo6', arguments: echoArgs },
      }),
    }),
  );
  if (!JSON.stringify(call).includes('"result"'))
    throw new Error(`${url}: the session's call got ${JSON.stringify(call)}`);
  return id;
}

/**
 * Makes one raw 2026-07-28 `tools/call` of `ask` on the HTTP child at `url` and checks that it was
 * answered `input_required` (the call is then parked by toolwright, or forgotten by the SDK).
 */
export async function leaveCallWaiting(url: string, id: number): Promise<void> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...POST_HEADERS, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'ask' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'ask', arguments: {}, _meta: MODERN_META },
    }),
  });
  const messages = await messagesOf(response);
  if (!JSON.stringify(messages).includes('input_required'))
    throw new Error(`${url}: ask was answered ${response.status} ${JSON.stringify(messages)}`);
}

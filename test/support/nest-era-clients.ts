import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1StdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2StdioTransport } from '@modelcontextprotocol/client/stdio';
import { REPO_ROOT } from './cli-paths.js';

/** The clients every Nest era test drives: the SDK 1.x client, and the 2.x client in each era. */
export type EraClientKind = 'sdk 1.x (2025-11-25)' | 'sdk 2.x (2025-11-25)' | 'sdk 2.x (2026-07-28)';
export const ERA_CLIENT_KINDS: readonly EraClientKind[] = [
  'sdk 1.x (2025-11-25)',
  'sdk 2.x (2025-11-25)',
  'sdk 2.x (2026-07-28)',
];

/** One connected client, whichever SDK line and era it is. */
export interface EraClient {
  readonly kind: EraClientKind;
  listToolNames(): Promise<string[]>;
  /** A `tools/call`, its result without what only one era stamps on it (see `plainResult`). */
  call(name: string, args?: Record<string, unknown>): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/** Where a client connects: an HTTP endpoint (with headers on every request), or a child process over stdio. */
export type EraTarget =
  | { readonly url: URL; readonly headers?: Record<string, string> }
  | { readonly command: string; readonly args: readonly string[] };

/** What the client answers to an elicitation: accept, with `{ answer }` for a form. */
export type ElicitAnswerer = (message: string) => string;

/** A result without the server identity 2.x stamps on 2026-07-28 results and without its `resultType`. */
export function plainResult(result: unknown): Record<string, unknown> {
  const { _meta, resultType: _type, ...rest } = result as { _meta?: Record<string, unknown>; resultType?: unknown };
  if (_meta === undefined) return rest;
  const { 'io.modelcontextprotocol/serverInfo': _info, ...meta } = _meta;
  return Object.keys(meta).length === 0 ? rest : { ...rest, _meta: meta };
}

/** A connected SDK client of one line, with its elicitations answered. */
export type ConnectedEraClient =
  | { readonly line: 1; readonly client: V1Client }
  | { readonly line: 2; readonly client: V2Client; readonly era: '2025-11-25' | '2026-07-28' };

/**
 * Connects the raw SDK client of `kind` to `target` (the 2.x client pinned to 2026-07-28 for that
 * kind), offering form elicitation and answering each with `accept` and `{ answer: answer(message) }`.
 */
export async function connectRawEraClient(
  kind: EraClientKind,
  target: EraTarget,
  answer: ElicitAnswerer = () => 'yes',
): Promise<ConnectedEraClient> {
  const info = { name: 'nest-era-test', version: '1.0.0' };
  const capabilities = { elicitation: { form: {} } };
  const reply = (params: { message?: unknown }) => ({
    action: 'accept' as const,
    content: { answer: answer(String(params.message)) },
  });
  if (kind === 'sdk 1.x (2025-11-25)') {
    const client = new V1Client(info, { capabilities });
    client.setRequestHandler(ElicitRequestSchema, async (request) => reply(request.params));
    await client.connect(
      'url' in target
        ? new V1HttpTransport(target.url, { requestInit: { headers: target.headers ?? {} } })
        : new V1StdioTransport({ command: target.command, args: [...target.args], cwd: REPO_ROOT, stderr: 'ignore' }),
    );
    return { line: 1, client };
  }
  const era = kind === 'sdk 2.x (2026-07-28)' ? '2026-07-28' : '2025-11-25';
  const client = new V2Client(info, {
    capabilities,
    ...(era === '2026-07-28' ? { versionNegotiation: { mode: { pin: era } } } : {}),
  });
  client.setRequestHandler(
    'elicitation/create',
    async (request) => reply(request.params as { message?: unknown }) as never,
  );
  await client.connect(
    'url' in target
      ? new V2HttpTransport(target.url, { requestInit: { headers: target.headers ?? {} } })
      : new V2StdioTransport({ command: target.command, args: [...target.args], cwd: REPO_ROOT, stderr: 'ignore' }),
  );
  return { line: 2, client, era };
}

/** Connects a client of `kind` to `target`; elicitations are answered by `answer` (default: `yes`). */
export async function connectEraClient(
  kind: EraClientKind,
  target: EraTarget,
  answer: ElicitAnswerer = () => 'yes',
): Promise<EraClient> {
  const connected = await connectRawEraClient(kind, target, answer);
  if (connected.line === 1) {
    const client = connected.client;
    return {
      kind,
      listToolNames: async () => (await client.listTools()).tools.map((tool) => tool.name),
      call: async (name, args = {}) =>
        plainResult(await client.callTool({ name, arguments: args }, undefined, { timeout: 30_000 })),
      close: () => client.close(),
    };
  }
  const client = connected.client;
  return {
    kind,
    listToolNames: async () => (await client.listTools()).tools.map((tool) => tool.name),
    call: async (name, args = {}) =>
      plainResult(await client.callTool({ name, arguments: args }, { timeout: 30_000 } as never)),
    close: () => client.close(),
  };
}

import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport } from '@modelcontextprotocol/client';

/** How a test client answers the `confirm` tool's question. */
export const CONFIRM_ANSWER = { action: 'accept', content: { ok: true } } as const;

/** A connected client of either SDK line: call a tool, close. */
export interface ClusterClient {
  /** What the client's transport reported through `onerror`, in order (a broken stream, ...). */
  readonly transportErrors: readonly string[];
  call(name: string, args?: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Any request (`prompts/get`, `resources/read`, ...), its result as the server sent it. */
  request(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

const ANY_RESULT = {
  '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) },
  parse: (value: unknown) => value,
  safeParse: (value: unknown) => ({ success: true, data: value }),
};

/** Options of the client builders: a bearer token to send (`Authorization: Bearer <token>`). */
export interface ClientOptions {
  readonly token?: string;
  /** The client's own time limit for one call; default 30 s. */
  readonly timeoutMs?: number;
}

function requestInit(options: ClientOptions): { requestInit?: RequestInit } {
  return options.token === undefined ? {} : { requestInit: { headers: { authorization: `Bearer ${options.token}` } } };
}

/**
 * A `@modelcontextprotocol/client` (SDK 2.x) client pinned to 2026-07-28 over HTTP at `url`:
 * stateless requests, each balanced on its own; it answers elicitations with `CONFIRM_ANSWER`
 * and retries `input_required` results itself.
 */
export function modernClient(url: string, options: ClientOptions = {}): Promise<ClusterClient> {
  return v2Client(url, options, 'cluster-v2', { versionNegotiation: { mode: { pin: '2026-07-28' } } });
}

/** A `@modelcontextprotocol/client` (SDK 2.x) client in the 2025-11-25 era (its default negotiation): one session. */
export function legacyV2Client(url: string, options: ClientOptions = {}): Promise<ClusterClient> {
  return v2Client(url, options, 'cluster-v2-2025', {});
}

/**
 * An SDK 2.x client named `name` with `negotiation` over HTTP at `url`, answering elicitations with
 * `CONFIRM_ANSWER`.
 */
async function v2Client(
  url: string,
  options: ClientOptions,
  name: string,
  negotiation: object,
): Promise<ClusterClient> {
  const client = new V2Client(
    { name, version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, ...negotiation },
  );
  client.setRequestHandler('elicitation/create', async () => CONFIRM_ANSWER as never);
  const transportErrors: string[] = [];
  const transport = new V2HttpTransport(new URL(url), requestInit(options));
  await client.connect(transport);
  watchErrors(transport, transportErrors);
  return {
    transportErrors,
    call: async (toolName, args = {}) =>
      (await client.callTool({ name: toolName, arguments: args }, {
        timeout: options.timeoutMs ?? 30_000,
      } as never)) as Record<string, unknown>,
    request: async (method, params) =>
      (await client.request(
        { method, params } as never,
        ANY_RESULT as never,
        {
          timeout: options.timeoutMs ?? 30_000,
        } as never,
      )) as Record<string, unknown>,
    close: () => client.close(),
  };
}

/** A `@modelcontextprotocol/sdk` 1.x client (the 2025-11-25 era) over HTTP at `url`: one session. */
export async function v1Client(url: string, options: ClientOptions = {}): Promise<ClusterClient> {
  const client = new V1Client(
    { name: 'cluster-v1', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } } },
  );
  const transportErrors: string[] = [];
  const transport = new V1HttpTransport(new URL(url), requestInit(options));
  await client.connect(transport);
  watchErrors(transport, transportErrors);
  return {
    transportErrors,
    call: async (name, args = {}) =>
      (await client.callTool({ name, arguments: args }, undefined, { timeout: options.timeoutMs ?? 30_000 })) as Record<
        string,
        unknown
      >,
    request: async (method, params) =>
      (await client.request({ method, params } as never, ANY_RESULT as never, {
        timeout: options.timeoutMs ?? 30_000,
      })) as Record<string, unknown>,
    close: () => client.close(),
  };
}

/** Adds every error `transport` reports to `errors`, keeping the handler the client installed. */
function watchErrors(transport: { onerror?: ((error: Error) => void) | undefined }, errors: string[]): void {
  const previous = transport.onerror;
  transport.onerror = (error: Error) => {
    errors.push(error.message);
    previous?.(error);
  };
}

/**
 * What a raw 2026-07-28 `tools/call` got back: its result (without the server info the SDK stamps)
 * or its JSON-RPC error, and every message of the answer.
 */
export interface RawCall {
  readonly result?: Record<string, unknown>;
  readonly error?: unknown;
  readonly messages: readonly unknown[];
}

/**
 * POSTs one 2026-07-28-era `tools/call` of `name` to `url` with the revision's headers and the
 * `_meta` envelope `meta` (see `envelope`), `params` merged in (a `requestState`, `inputResponses`),
 * and with `Authorization: Bearer <token>` when given; reads the whole answer (JSON or SSE).
 */
export async function modernCall(
  url: string,
  name: string,
  params: Record<string, unknown>,
  meta: Record<string, unknown>,
  options: { readonly token?: string; readonly signal?: AbortSignal } = {},
): Promise<RawCall> {
  const body = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: {}, ...params, _meta: meta } };
  const headers: Record<string, string> = {
    accept: 'application/json, text/event-stream',
    'content-type': 'application/json',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': 'tools/call',
    'mcp-name': name,
  };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  const res = await fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
    ...(options.signal !== undefined ? { signal: options.signal } : {}),
  });
  const type = res.headers.get('content-type') ?? '';
  const text = await res.text();
  if (!type.startsWith('text/event-stream') && !type.startsWith('application/json'))
    throw new Error(`HTTP ${res.status} ${type}: ${text.slice(0, 200)}`);
  const messages = type.startsWith('text/event-stream')
    ? text
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => JSON.parse(l.slice(6)) as unknown)
    : [JSON.parse(text) as unknown];
  const response = messages.find((m) => typeof m === 'object' && m !== null && 'id' in m) as
    { result?: Record<string, unknown>; error?: unknown } | undefined;
  if (response?.result !== undefined) {
    const { _meta, ...rest } = response.result as { _meta?: Record<string, unknown> };
    const { 'io.modelcontextprotocol/serverInfo': _info, ...meta } = _meta ?? {};
    return { result: Object.keys(meta).length === 0 ? rest : { ...rest, _meta: meta }, messages };
  }
  return { error: response?.error, messages };
}

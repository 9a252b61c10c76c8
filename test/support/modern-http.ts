/**
 * Raw 2026-07-28 requests over HTTP, for exact wire checks: a POST whose params carry the
 * per-request `_meta` envelope (protocol version, client capabilities, client info) and the
 * headers the revision requires (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`).
 */

/** The revision these helpers speak. */
export const MODERN = '2026-07-28';

/** The `_meta` envelope of a 2026-07-28 request, with `capabilities` and, when given, a log level. */
export function envelope(capabilities: Record<string, unknown>, logLevel?: string): Record<string, unknown> {
  const meta: Record<string, unknown> = {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    'io.modelcontextprotocol/clientInfo': { name: 'raw-modern', version: '1.0.0' },
  };
  if (logLevel !== undefined) meta['io.modelcontextprotocol/logLevel'] = logLevel;
  return meta;
}

/** What a raw POST got back: status, content type, and the JSON-RPC messages (one JSON body or each SSE event). */
export interface RawAnswer {
  readonly status: number;
  readonly type: string | null;
  readonly messages: unknown[];
}

/**
 * POSTs one JSON-RPC request `{id, method, params}` (params get `meta` as `_meta`) with the
 * revision's headers (plus `extraHeaders`, e.g. `authorization`), and reads the whole answer.
 * `signal` aborts the request (a hang-up).
 */
export async function modernPost(
  url: string,
  request: { readonly id: number | string; readonly method: string; readonly params?: Record<string, unknown> },
  meta: Record<string, unknown>,
  signal?: AbortSignal,
  extraHeaders: Readonly<Record<string, string>> = {},
): Promise<RawAnswer> {
  const params = {
    ...request.params,
    _meta: { ...(request.params?._meta as Record<string, unknown> | undefined), ...meta },
  };
  const headers: Record<string, string> = {
    accept: 'application/json, text/event-stream',
    'content-type': 'application/json',
    'mcp-protocol-version': MODERN,
    'mcp-method': request.method,
  };
  if (typeof request.params?.name === 'string') headers['mcp-name'] = request.params.name;
  Object.assign(headers, extraHeaders);
  const res = await fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id: request.id, method: request.method, params }),
    ...(signal === undefined ? {} : { signal }),
  });
  const type = res.headers.get('content-type');
  const text = await res.text();
  const messages = type?.startsWith('text/event-stream')
    ? text
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => JSON.parse(line.slice(6)) as unknown)
    : text === ''
      ? []
      : [JSON.parse(text) as unknown];
  return { status: res.status, type, messages };
}

/** The `result` of the one response among `messages` (throws when there is none). */
export function resultOf(answer: RawAnswer): Record<string, unknown> {
  const response = answer.messages.find(
    (m) => typeof m === 'object' && m !== null && 'id' in m && ('result' in m || 'error' in m),
  ) as { result?: Record<string, unknown>; error?: unknown } | undefined;
  if (response?.result === undefined) throw new Error(`no result in ${JSON.stringify(answer)}`);
  return response.result;
}

/** A result without the server identity the SDK stamps on every 2026-07-28 result. */
export function withoutServerInfo(result: Record<string, unknown>): Record<string, unknown> {
  const { _meta, ...rest } = result as { _meta?: Record<string, unknown> };
  if (_meta === undefined) return rest;
  const { 'io.modelcontextprotocol/serverInfo': _info, ...meta } = _meta;
  return Object.keys(meta).length === 0 ? rest : { ...rest, _meta: meta };
}

/** The client capabilities that declare the 2026-07-28 tasks extension. */
export const TASKS_CAPABILITY = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

/** One JSON-RPC answer of `modernRequest`: the result (without its `_meta`) or the error, and the HTTP status. */
export interface ModernAnswer {
  readonly result?: Record<string, unknown>;
  readonly error?: Record<string, unknown>;
  readonly status: number;
}

/**
 * Sends one raw 2026-07-28 request to `url` declaring `capabilities` (the tasks extension by
 * default), with `Mcp-Name` set to a `taskId` param and `extraHeaders` (e.g. `authorization`),
 * and answers its first message: the result without `_meta` (the SDK's server identity), or the
 * error.
 */
export async function modernRequest(
  url: string,
  method: string,
  params: Record<string, unknown>,
  capabilities: Record<string, unknown> = TASKS_CAPABILITY,
  extraHeaders: Readonly<Record<string, string>> = {},
): Promise<ModernAnswer> {
  const headers: Record<string, string> = {
    ...(typeof params.taskId === 'string' ? { 'mcp-name': params.taskId } : {}),
    ...extraHeaders,
  };
  const answer = await modernPost(url, { id: 1, method, params }, envelope(capabilities), undefined, headers);
  const message = answer.messages[0] as { result?: Record<string, unknown>; error?: Record<string, unknown> };
  if (message.result !== undefined) {
    const { _meta: _info, ...rest } = message.result;
    return { result: rest, status: answer.status };
  }
  return { error: message.error!, status: answer.status };
}

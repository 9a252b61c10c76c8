/** Options an SDK request takes (both SDK lines read these names). */
export interface ClientRequestOptions {
  /** Aborts the request (the client sends `notifications/cancelled`). */
  signal?: AbortSignal;
  /** Fails the request after this many milliseconds. */
  timeout?: number;
  /** Receives the request's progress notifications. */
  onprogress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

/**
 * A connected MCP client, typed by the few members the consumer uses, so both the `Client` of
 * `@modelcontextprotocol/client` (2.x, which speaks both protocol eras: 2025-11-25 sessions and
 * the 2026-07-28 era with `input_required`) and the 2025-era `Client` of
 * `@modelcontextprotocol/sdk` (1.x) fit, without toolwright importing either. Only `listTools`
 * and `callTool` are required. The two lines differ in `callTool` (2.x takes the options second,
 * 1.x a result schema) and in handler registration (2.x by method name, 1.x by a schema naming
 * the method); a 2.x client is told apart by its `getProtocolEra` method.
 */
export interface McpClientLike {
  /** One page of `tools/list`. */
  listTools(
    params?: { cursor?: string },
    options?: ClientRequestOptions,
  ): Promise<{ tools: unknown[]; nextCursor?: string }>;
  /** `tools/call` (the 2.x client takes request options second, the 1.x client third). */
  callTool(params: { name: string; arguments?: Record<string, unknown> }, ...rest: never[]): Promise<unknown>;
  /** Sends any request (here: `execution/facts`). */
  request?(
    request: { method: string; params?: Record<string, unknown> },
    resultSchema: never,
    options?: ClientRequestOptions,
  ): Promise<unknown>;
  /** What the server declared at `initialize` (or `server/discover`). */
  getServerCapabilities?(): { experimental?: Record<string, unknown>; tools?: { listChanged?: boolean } } | undefined;
  /** The server's name and version. */
  getServerVersion?(): { name?: string } | undefined;
  /** What this client declared (whether it answers elicitation). */
  getClientCapabilities?(): { elicitation?: unknown } | undefined;
  /** Registers a notification handler (by method name on 2.x, by schema on 1.x). */
  setNotificationHandler?(...args: never[]): void;
  /** Registers a request handler (by method name on 2.x, by schema on 1.x). */
  setRequestHandler?(...args: never[]): void;
  /** The negotiated protocol era (2.x clients only; its presence marks a 2.x client). */
  getProtocolEra?(): string | undefined;
}

/** True for a client of the 2.x line (`@modelcontextprotocol/client`). */
export function isV2Client(client: McpClientLike): boolean {
  return typeof client.getProtocolEra === 'function';
}

/** Calls a tool with request options on either SDK line. */
export function callToolOn(
  client: McpClientLike,
  params: { name: string; arguments: Record<string, unknown>; _meta?: Record<string, unknown> },
  options: ClientRequestOptions,
): Promise<unknown> {
  const call = client.callTool as unknown as (...args: unknown[]) => Promise<unknown>;
  return isV2Client(client) ? call.call(client, params, options) : call.call(client, params, undefined, options);
}

/**
 * A result schema both SDK lines accept that keeps any answer as it came: a Standard Schema
 * (what 2.x reads) whose `validate` returns the value, and the zod-3-shaped `safeParse` 1.x
 * falls back to for a schema without zod 4's internals. The consumer checks shapes itself.
 */
const ANY_RESULT = {
  '~standard': { version: 1, vendor: 'toolwright', validate: (value: unknown) => ({ value }) },
  safeParse: (data: unknown) => ({ success: true, data }),
};

/**
 * The schema a 1.x `Client` takes to register a handler for `method`: it reads the method from
 * the zod-3 shape `shape.method._def.value` and parses with `safeParse` (which keeps the message;
 * the 1.x client still validates elicitation requests and answers itself).
 */
function v1MethodSchema(method: string): object {
  return { shape: { method: { _def: { value: method } } }, safeParse: (data: unknown) => ({ success: true, data }) };
}

/**
 * Sends a request of a method the SDKs do not know (`execution/facts`), or a known one whose
 * answer must stay as it crossed the wire, on either line. Throws a `TypeError` when the client
 * has no `request` method.
 */
export function requestOn(
  client: McpClientLike,
  method: string,
  params: Record<string, unknown>,
  options: ClientRequestOptions,
): Promise<unknown> {
  if (typeof client.request !== 'function')
    throw new TypeError(`the MCP client has no "request" method, so "${method}" cannot be sent`);
  const request = client.request as unknown as (...args: unknown[]) => Promise<unknown>;
  return request.call(client, { method, params }, ANY_RESULT, options);
}

/** Registers `handler` for `method` on either line (2.x by method name, 1.x by a method schema). */
function register(
  client: McpClientLike,
  kind: 'setNotificationHandler' | 'setRequestHandler',
  method: string,
  handler: (message: { params?: unknown }) => unknown,
): boolean {
  const set = client[kind];
  if (typeof set !== 'function') return false;
  (set as unknown as (...args: unknown[]) => void).call(
    client,
    isV2Client(client) ? method : v1MethodSchema(method),
    handler,
  );
  return true;
}

/** An elicitation request's params as the server sent them. */
export type ElicitParams = Record<string, unknown>;

/**
 * Answers the server's `elicitation/create` requests with `answer` (in the 2026 era the 2.x
 * client turns `input_required` questions into the same handler calls). Returns false when the
 * client cannot take the handler: it has no `setRequestHandler`, or it declared no elicitation
 * capability (the SDKs refuse the handler then; the server will not ask such a client).
 */
export function onElicitation(
  client: McpClientLike,
  answer: (params: ElicitParams) => Promise<Record<string, unknown>>,
): boolean {
  try {
    return register(client, 'setRequestHandler', 'elicitation/create', async (request) =>
      answer((request?.params ?? {}) as ElicitParams),
    );
  } catch {
    return false;
  }
}

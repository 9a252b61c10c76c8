import { Server, type JSONRPCMessage, type JSONRPCRequest, type RequestId } from '@modelcontextprotocol/server';
import { isJsonObject } from '../../contract/index.js';
import { LazyAbort } from '../../runtime/internal.js';

/**
 * The members of an SDK `Server` a `tools/call` answered without `Protocol._onrequest` uses: its
 * request handler map and its in-flight requests' abort controllers (both private to the SDK,
 * read by shape: the cancel handler and the close hook of the SDK find the controller there and
 * abort it as for any request), the fallback handler toolwright's servers answer `tools/call`
 * with, the public `request` and `notification`, and `onerror`.
 */
interface ToolCallServer {
  readonly _requestHandlers: Map<unknown, unknown>;
  readonly _requestHandlerAbortControllers: Map<RequestId, { abort(reason?: unknown): void }>;
  readonly transport: { readonly sessionId?: string } | undefined;
  fallbackRequestHandler(request: JSONRPCRequest, ctx: object): Promise<Record<string, unknown>>;
  request(request: object, schemaOrOptions?: object, options?: object): Promise<unknown>;
  notification(notification: object, options?: object): Promise<void>;
  onerror?: (error: Error) => void;
}

/** The 2026-07-28 envelope keys of `_meta` all start with this; the SDK lifts them out of a request. */
const ENVELOPE_PREFIX = 'io.modelcontextprotocol/';
/** The SDK's own `_onrequest` and `buildContext`: a server whose own replace them keeps the SDK's path. */
const SDK_ON_REQUEST = (Server.prototype as unknown as { _onrequest: unknown })._onrequest;
const SDK_BUILD_CONTEXT = (Server.prototype as unknown as { buildContext: unknown }).buildContext;

/** Answers one request, or says it is not one it answers (`false`: the caller hands it to `_onrequest`). */
export type ToolCallAnswerer = (request: JSONRPCRequest) => boolean;

/**
 * Answers the 2025-era `tools/call` requests of `protocol`, a toolwright server (its tools answered
 * by its `fallbackRequestHandler`) connected to a transport whose messages are already checked,
 * exactly as the SDK's `Protocol._onrequest` would, without its general machinery: the same
 * context members toolwright's handler reads (`sessionId`, `mcpReq.id`, `method`, `_meta`,
 * `signal`, `send` and `notify`, which send through the server's public `request` and
 * `notification` related to the request; no `http`), the handler called in a microtask of its
 * own, the answer sent with `send` as `{ result, jsonrpc, id }` or as the JSON-RPC error the SDK
 * makes of a throw (`-32002` sent as `-32602`, `-32603 Internal error` for a throw without a
 * code), nothing sent once the request was cancelled or the connection closed (its abort
 * controller is kept where the SDK keeps its requests', so `notifications/cancelled` and the
 * close abort it with the SDK's own reasons), and a failed send reported to `onerror` as
 * `Failed to send response: <error>`. The request's signal (`ctx.mcpReq.signal`) is made only when
 * someone reads it (a `LazyAbort`): Node makes every `AbortSignal` with a hidden class of its own,
 * which the collector keeps until a full collection, so a call that never looks at its signal
 * should not make one; a signal first read after the abort is already aborted, with its reason.
 *
 * It takes only a `tools/call` whose `_meta` carries no 2026-07-28 envelope key and whose params
 * carry no input-round retry (`inputResponses`, `requestState`), while no handler of its own is
 * registered for `tools/call` (the fallback answers it). Returns `undefined`, so every request
 * goes through `_onrequest`, when `protocol` is not shaped so (another SDK version, a server whose
 * `_onrequest` or `buildContext` is its own, or one without a fallback handler). Bind it only to
 * a connection that serves the 2025 era (the stdio era gate's 2025 branch).
 */
export function toolCallAnswererOf(
  protocol: object,
  send: (message: JSONRPCMessage) => Promise<void>,
): ToolCallAnswerer | undefined {
  const server = protocol as Partial<ToolCallServer> & { _onrequest?: unknown; buildContext?: unknown };
  if (
    server._onrequest !== SDK_ON_REQUEST ||
    server.buildContext !== SDK_BUILD_CONTEXT ||
    !(server._requestHandlers instanceof Map) ||
    !(server._requestHandlerAbortControllers instanceof Map) ||
    typeof server.fallbackRequestHandler !== 'function' ||
    typeof server.request !== 'function' ||
    typeof server.notification !== 'function'
  )
    return undefined;
  const target = server as ToolCallServer;
  return (request) => {
    if (request.method !== 'tools/call' || target._requestHandlers.has('tools/call') || !plainParams(request.params))
      return false;
    answer(target, request, send);
    return true;
  };
}

/** True for params the SDK hands to a 2025-era handler as they are: no envelope key in `_meta`, no retry. */
function plainParams(params: unknown): boolean {
  if (params === undefined) return true;
  if (!isJsonObject(params) || 'inputResponses' in params || 'requestState' in params) return false;
  const meta = params._meta;
  if (meta === undefined) return true;
  if (!isJsonObject(meta)) return false;
  for (const key in meta) if (key.startsWith(ENVELOPE_PREFIX)) return false;
  return true;
}

/**
 * Answers one request taken by `toolCallAnswererOf`: the handler runs in a microtask of its own,
 * then its result or the error response of its throw is sent unless the request was aborted; a
 * failed send goes to `onerror`, and the request's abort controller is forgotten at the end. One
 * async function, so a call costs one promise of its own instead of a chain of four.
 */
function answer(server: ToolCallServer, request: JSONRPCRequest, send: (message: JSONRPCMessage) => Promise<void>) {
  const id = request.id;
  const controller = new LazyAbort();
  server._requestHandlerAbortControllers.set(id, controller);
  const ctx = {
    sessionId: server.transport?.sessionId,
    mcpReq: new DirectRequest(server, request, controller),
    http: undefined,
  };
  void answerInTurn(server, request, ctx, id, controller, send);
}

async function answerInTurn(
  server: ToolCallServer,
  request: JSONRPCRequest,
  ctx: object,
  id: RequestId,
  controller: LazyAbort,
  send: (message: JSONRPCMessage) => Promise<void>,
): Promise<void> {
  // The handler runs in a microtask of its own, as under the SDK's `_onrequest`.
  await Promise.resolve();
  let message: JSONRPCMessage;
  try {
    const result = await server.fallbackRequestHandler(request, ctx);
    message = { result, jsonrpc: '2.0', id } as unknown as JSONRPCMessage;
  } catch (error) {
    message = errorResponseOf(id, error);
  }
  try {
    if (!controller.aborted) await send(message);
  } catch (error) {
    server.onerror?.(new Error(`Failed to send response: ${String(error)}`));
  } finally {
    const controllers = server._requestHandlerAbortControllers;
    if (controllers.get(id) === controller) controllers.delete(id);
  }
}

/**
 * The `mcpReq` of a direct tool call's context: the request's id, method and `_meta`, its
 * signal (made on first read, see `LazyAbort`), and `send` and `notify` related to the request. A
 * class, so that every request's shares one hidden class and one `signal` getter.
 */
class DirectRequest {
  readonly id: RequestId;
  readonly method: string;
  readonly _meta: unknown;

  constructor(
    private readonly server: ToolCallServer,
    request: JSONRPCRequest,
    private readonly controller: LazyAbort,
  ) {
    this.id = request.id;
    this.method = request.method;
    this._meta = (request.params as { _meta?: unknown } | undefined)?._meta;
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** As the SDK's: a result schema first is passed on, else the spec method's own result is checked. */
  send(outbound: object, schemaOrOptions?: object, options?: object): Promise<unknown> {
    return isStandardSchema(schemaOrOptions)
      ? this.server.request(outbound, schemaOrOptions, this.related(options))
      : this.server.request(outbound, this.related(schemaOrOptions));
  }

  notify(notification: object, options?: object): Promise<void> {
    return this.server.notification(notification, this.related(options));
  }

  private related(options: unknown): object {
    return { ...(options as object | undefined), relatedRequestId: this.id };
  }
}

/** The error response the SDK sends for a handler's throw (its code, `-32002` as `-32602`; its message and data). */
function errorResponseOf(id: RequestId, error: unknown): JSONRPCMessage {
  const thrown = (typeof error === 'object' && error !== null ? error : {}) as {
    code?: unknown;
    message?: unknown;
    data?: unknown;
  };
  const code = Number.isSafeInteger(thrown.code) ? (thrown.code as number) : -32603;
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code: code === -32002 ? -32602 : code,
      message: thrown.message ?? 'Internal error',
      ...(thrown.data !== undefined && { data: thrown.data }),
    },
  } as JSONRPCMessage;
}

function isStandardSchema(value: unknown): value is object {
  return typeof value === 'object' && value !== null && '~standard' in value;
}

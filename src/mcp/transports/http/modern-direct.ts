import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PerRequestHTTPServerTransport,
  PROTOCOL_VERSION_META_KEY,
  SdkError,
  SdkErrorCode,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type MessageClassification,
  type RequestId,
  type Server,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import type { PostBody } from './post-body.js';
import { isJsonRpcRequest } from '../jsonrpc-shape.js';
import { connectsAsTheSdk, DirectDispatch } from '../direct-dispatch.js';

/** The one 2026-07-28-era revision toolwright serves on its own (the SDK's first modern one). */
const MODERN_REVISION = '2026-07-28';

/** The body field the `Mcp-Name` header mirrors, by method (the SDK's table, SEP-2243). */
const NAME_HEADER_SOURCE: Readonly<Record<string, string>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

/** A 2026-07-28 request toolwright answers without the SDK's HTTP entry: the message and its classification. */
export interface DirectRoute {
  readonly message: JSONRPCRequest;
  readonly classification: MessageClassification;
}

const headerOf = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return typeof value === 'string' ? value.replace(/^[\t ]+|[\t ]+$/g, '') : undefined;
};

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The route of a POST that toolwright may answer itself (see `serveModernDirectly`), or
 * `undefined` for every other, which the SDK's handler answers (with its own error texts). What
 * passes here is what `classifyInboundRequest` routes modern as a request claiming `2026-07-28`,
 * read from the body without its message-shape checks that fail for every request (is it a
 * response?): one JSON-RPC request by the SDK's schema (`isJsonRpcRequest`), not `initialize`,
 * whose `params._meta` claims `2026-07-28` and holds the envelope's required keys
 * (`PROTOCOL_VERSION_META_KEY`, `CLIENT_CAPABILITIES_META_KEY`) and no malformed `progressToken`,
 * sent with an `MCP-Protocol-Version` header naming the same revision and an `Mcp-Method` header
 * naming the same method. The envelope's own keys are checked by the SDK's request dispatch
 * against the same schema the classification uses: a request it refuses there is served again
 * by the SDK's handler (see `serveModernDirectly`). Not `subscriptions/listen` or
 * `server/discover` (the SDK serves those); and where the method has an `Mcp-Name` source, the
 * header is the body's value itself (a Base64-encoded or disagreeing one, or one without a body
 * value, is the SDK's to judge): the conservative side of the SDK's
 * `validateStandardRequestHeaders`.
 */
export function directRouteOf(req: IncomingMessage, body: PostBody): DirectRoute | undefined {
  const message = body.value;
  if (!isPlainObject(message) || 'result' in message || 'error' in message) return undefined;
  const { method, params } = message;
  if (typeof method !== 'string' || method === 'initialize') return undefined;
  if (method === 'subscriptions/listen' || method === 'server/discover') return undefined;
  const meta = isPlainObject(params) ? params._meta : undefined;
  if (!isPlainObject(meta) || meta[PROTOCOL_VERSION_META_KEY] !== MODERN_REVISION) return undefined;
  if (!(CLIENT_CAPABILITIES_META_KEY in meta)) return undefined;
  const progressToken = meta.progressToken;
  if (progressToken !== undefined && typeof progressToken !== 'string' && !Number.isInteger(progressToken))
    return undefined;
  if (headerOf(req, 'mcp-protocol-version') !== MODERN_REVISION || headerOf(req, 'mcp-method') !== method)
    return undefined;
  const mcpNameHeader = headerOf(req, 'mcp-name');
  const field = Object.hasOwn(NAME_HEADER_SOURCE, method) ? NAME_HEADER_SOURCE[method] : undefined;
  if (field !== undefined) {
    const value = (params as Record<string, unknown>)[field];
    if (typeof value === 'string' ? mcpNameHeader !== value : mcpNameHeader !== undefined) return undefined;
    if (mcpNameHeader?.startsWith('=?') === true) return undefined;
  }
  if (!isJsonRpcRequest(message)) return undefined;
  return { message, classification: { era: 'modern', revision: MODERN_REVISION } };
}

/** What `DirectTransport` resolves `handleMessage` with once it wrote the answer itself. */
const WRITTEN = Object.freeze({ written: true }) as unknown as Response;

/**
 * What `DirectTransport` resolves `handleMessage` with when the SDK refused the request before
 * any handler ran (an error sent while the message was being dispatched): nothing was written,
 * and the request is the SDK's handler's to answer.
 */
const REFUSED_IN_DISPATCH = Object.freeze({ refused: true }) as unknown as Response;

/** The private members of the SDK's `PerRequestHTTPServerTransport` the direct transport reads. */
interface PerRequestInternals {
  _closed: boolean;
  _terminalDelivered: boolean;
  _requestId: RequestId | undefined;
  _sse: unknown;
  _responseMode: string;
  _dispatchWindowOpen: boolean;
  settleResponse(response: Response): void;
}

/** Whether this SDK's per-request transport has the members `DirectTransport` relies on. */
function hasKnownInternals(transport: object): boolean {
  const internals = transport as Partial<PerRequestInternals>;
  return (
    '_closed' in transport &&
    '_terminalDelivered' in transport &&
    '_sse' in transport &&
    '_responseMode' in transport &&
    '_dispatchWindowOpen' in transport &&
    typeof internals.settleResponse === 'function'
  );
}

/**
 * The SDK's per-request transport (a connected server binds to the request's revision through
 * it), with two paths of its own: the result of the request, when nothing was streamed before
 * it, is written straight to the `node:http` response as one JSON body (`200`,
 * `application/json`, its `Content-Length`) instead of a web `Response`; `handleMessage` then
 * resolves with `WRITTEN`, and the transport closes (closing its server) once the SDK has let go
 * of the request, rather than in the same turn. An error the SDK sends while it is still
 * dispatching the message (before any handler ran) is not sent: `handleMessage` resolves with
 * `REFUSED_IN_DISPATCH`. Other errors, event streams and everything else are the SDK's own. On
 * an SDK whose transport lacks the members it reads, it is the SDK's transport unchanged.
 */
class DirectTransport extends PerRequestHTTPServerTransport {
  private readonly writesDirectly: boolean;

  constructor(
    classification: MessageClassification,
    private readonly res: ServerResponse,
  ) {
    super({ classification });
    this.writesDirectly = hasKnownInternals(this);
  }

  override async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const internals = this as unknown as PerRequestInternals;
    const result = message as { id?: RequestId; result?: unknown };
    if (
      this.writesDirectly &&
      internals._dispatchWindowOpen &&
      !internals._closed &&
      !internals._terminalDelivered &&
      'error' in message
    ) {
      // Refused by the SDK's dispatch before any handler ran (an envelope its schema rejects, a
      // method the revision lacks): the SDK's handler answers the request with its own status.
      internals._terminalDelivered = true;
      internals.settleResponse(REFUSED_IN_DISPATCH);
      this.closeQuietly();
      return;
    }
    if (
      !this.writesDirectly ||
      internals._closed ||
      internals._terminalDelivered ||
      internals._sse !== undefined ||
      internals._responseMode !== 'auto' ||
      !('result' in result) ||
      result.id === undefined ||
      result.id !== internals._requestId
    )
      return super.send(message, options);
    internals._terminalDelivered = true;
    const res = this.res;
    if (!res.headersSent && !res.destroyed) {
      const text = JSON.stringify(message);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    }
    internals.settleResponse(WRITTEN);
    // Once the SDK has let go of the answered request (its abort controller dropped), so closing
    // aborts nothing; the SDK's "Connection closed" error made on the way is never seen by anyone
    // (nothing waits on this connection any more), so it is made without a stack.
    this.closeQuietly();
  }

  /** Closes once the SDK let go of the request, making its unseen "Connection closed" error without a stack. */
  private closeQuietly(): void {
    setImmediate(() => {
      const limit = Error.stackTraceLimit;
      Error.stackTraceLimit = 0;
      try {
        void this.close();
      } finally {
        Error.stackTraceLimit = limit;
      }
    });
  }
}

/** How `serveModernDirectly` answers a request whose answer is not written yet. */
export type WebAnswer = (response: Response) => Promise<void>;

/**
 * Serves one 2026-07-28 request (`route`, see `directRouteOf`) on `server` (fresh, never
 * connected, built for the modern era) the way the SDK's `createMcpHandler` does after its
 * checks, without a web `Request`: the server serves the revision (`server/discover` included,
 * as the SDK's entry makes it), learns the client's info and capabilities from the envelope, is
 * connected to a per-request transport (`DirectTransport`; the message goes straight to the
 * server's request dispatch, see `DirectDispatch`, as the classification checked its shape), and
 * is handed the message with the
 * `node:http` request (handlers see it as `ctx.http.req`, as on the 2025-era legs) and `authInfo`.
 * A client hanging up closes the transport, which closes the server and aborts the call. A JSON
 * result is written directly; any other answer (an event stream, an error) is a web `Response`
 * given to `answer`. Resolves `refused`, having written nothing, when the SDK's dispatch refused
 * the request before any handler ran (the caller hands it to the SDK's handler, which answers it
 * with its own status and text), else `served`. Rejects only for what the SDK's entry answers
 * 500; closed before an answer, it writes 499 with no body, as the SDK's entry does (nothing when
 * the client left first).
 */
export async function serveModernDirectly(
  server: Server,
  route: DirectRoute,
  req: IncomingMessage,
  res: ServerResponse,
  authInfo: unknown,
  answer: WebAnswer,
): Promise<'served' | 'refused'> {
  const internals = server as unknown as {
    _supportedProtocolVersions: string[];
    _ondiscover(): unknown;
    _clientCapabilities: unknown;
    _clientVersion: unknown;
  };
  if (!internals._supportedProtocolVersions.includes(MODERN_REVISION)) {
    internals._supportedProtocolVersions = [...internals._supportedProtocolVersions, MODERN_REVISION];
    server.setRequestHandler('server/discover', () => internals._ondiscover() as never);
  }
  const meta = (route.message.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
  if (meta?.[CLIENT_CAPABILITIES_META_KEY] !== undefined)
    internals._clientCapabilities = meta[CLIENT_CAPABILITIES_META_KEY];
  if (meta?.[CLIENT_INFO_META_KEY] !== undefined) internals._clientVersion = meta[CLIENT_INFO_META_KEY];
  const transport = new DirectTransport(route.classification, res);
  res.once('close', () => {
    if (!res.writableFinished) void transport.close();
  });
  await server.connect(transport);
  // The classification already checked the message against the SDK's JSON-RPC schema.
  if (connectsAsTheSdk(server)) {
    const dispatch = new DirectDispatch();
    const wrapper = transport.onmessage;
    dispatch.bind(server, wrapper);
    if (dispatch.active(wrapper)) transport.onmessage = (message, extra) => dispatch.deliver(message, extra, wrapper);
  }
  let response: Response;
  try {
    response = await transport.handleMessage(route.message, {
      request: req as unknown as Request,
      ...(authInfo === undefined ? {} : { authInfo: authInfo as never }),
    });
  } catch (error) {
    if (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed) {
      // Closed before an answer (the endpoint closing it): the SDK's entry answers 499, no body.
      if (!res.headersSent && !res.destroyed) res.writeHead(499).end();
      return 'served';
    }
    await server.close().catch(() => undefined);
    throw error;
  }
  if (response === REFUSED_IN_DISPATCH) return 'refused';
  if (response !== WRITTEN) await answer(response);
  return 'served';
}

/** Whether `server`, a probe of the factory, has the SDK members `serveModernDirectly` relies on. */
export function servesModernDirectly(server: object): boolean {
  const internals = server as { _supportedProtocolVersions?: unknown; _ondiscover?: unknown };
  return (
    Array.isArray(internals._supportedProtocolVersions) &&
    typeof internals._ondiscover === 'function' &&
    '_clientCapabilities' in server &&
    '_clientVersion' in server
  );
}

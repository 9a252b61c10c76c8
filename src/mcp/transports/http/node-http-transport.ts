import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  isInitializeRequest,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type RequestId,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import { JsonRpcCode, requestIdKey } from '../jsonrpc-error.js';
import { messageKind, toJsonRpcMessage } from '../jsonrpc-shape.js';
import { DirectDispatch } from '../direct-dispatch.js';
import { maxMessageBytesOf, serialiseOutgoing } from '../outgoing.js';
import { sendJsonError } from './json-response.js';

/** The most messages one POST may carry (the SDK's own limit). */
export const MAX_BATCH_SIZE = 100;

/** How often an open event stream gets a `: keepalive` comment (the SDK's own interval). */
export const SSE_KEEP_ALIVE_MS = 15_000;

/**
 * How long a POST's answer may wait as a JSON body: a call that has sent nothing and is not done
 * after this long gets its event stream's headers (and keep-alives) at once, so that no proxy or
 * client gives up on a response that has not started.
 */
export const JSON_ANSWER_WINDOW_MS = 100;

/** The reason sent with the cancellation a hang-up injects. */
export const CLIENT_GONE_REASON = 'client disconnected';

const SSE_HEADERS = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache, no-transform',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
} as const;

/**
 * The verified token's info the auth gate (or another middleware) left on the request
 * (`req.auth`), which the transports hand to the server's handlers as `ctx.http.authInfo`;
 * `undefined` when the request was not authenticated.
 */
export function authInfoOf(req: IncomingMessage): unknown {
  return (req as IncomingMessage & { auth?: unknown }).auth;
}

/** Options of `NodeHttpServerTransport`. */
export interface NodeHttpServerTransportOptions {
  /** Makes a session id at `initialize`; `undefined` serves without sessions (one POST per transport). */
  readonly sessionIdGenerator: (() => string) | undefined;
  /** Called with the new session id once an `initialize` POST was accepted. */
  readonly onsessioninitialized?: (sessionId: string) => void;
  /** Called when the client ends the session with DELETE (before the transport closes). */
  readonly onsessionclosed?: (sessionId: string | undefined) => void;
  /** The largest message sent, in bytes (see `serialiseOutgoing`); default `DEFAULT_MAX_MESSAGE_BYTES`. */
  readonly maxMessageBytes?: number;
  /** Receives one line when a response had to be replaced or a message dropped. */
  readonly log?: (message: string) => void;
  /**
   * Without sessions only: the transport may serve one POST after another (its owner hands it
   * the next only once `quiet`, see `createStatelessLeg`), instead of refusing a second request.
   * Default `false`.
   */
  readonly reusable?: boolean;
}

/** The answer of one POST that carried requests: where it goes, and what is still owed. */
interface Exchange {
  readonly res: ServerResponse;
  /** The requests not yet answered (nor cancelled), by `requestIdKey`. */
  readonly pending: Map<string, RequestId>;
  /**
   * `json`: nothing written yet (answers kept for one JSON body); `sse`: an event stream; `done`:
   * ended, or abandoned by the client (its requests stay mapped, so that what the server still
   * sends for them is dropped, until their responses come).
   */
  mode: 'json' | 'sse' | 'done';
  /** The answers kept while `json`, as JSON text. */
  readonly answers: string[];
  timer: NodeJS.Timeout | undefined;
}

/**
 * The MCP streamable HTTP server transport (spec 2025-11-25) on `node:http`'s own request and
 * response, for the 2025-era legs of `createHttpHandler`: what the SDK's
 * `WebStandardStreamableHTTPServerTransport` does, with its status codes and messages, without a
 * web `Request`, `Response` or stream per request, without a zod parse per message, and with each
 * message serialised once. Its `handle` takes a request whose `Accept`, `Content-Type`, size and
 * JSON the handler has already checked (see `readPostBody`), and answers:
 *
 * - POST: more than `MAX_BATCH_SIZE` messages -> 400 `-32600`; a message that is not JSON-RPC (by
 *   the SDK's schema, see `toJsonRpcMessage`) -> 400 `-32700 Parse error: Invalid JSON-RPC
 *   message`; a second `initialize` -> 400 `-32600 Invalid Request: Server already initialized`,
 *   one batched with others -> 400 `-32600 Invalid Request: Only one initialization request is
 *   allowed`; with sessions, before `initialize` -> 400 `Bad Request: Server not initialized`,
 *   without `Mcp-Session-Id` -> 400, another id -> 404 `-32001 Session not found`; an unsupported
 *   `MCP-Protocol-Version` -> 400 `Bad Request: Unsupported protocol version: <v> (supported
 *   versions: ...)`; notifications and responses only -> 202. Requests are answered on the POST's
 *   own response: as one JSON body (`application/json`; an array for several requests) when
 *   nothing else was sent for them and they are all answered within `JSON_ANSWER_WINDOW_MS`, else
 *   as an event stream (`text/event-stream`, events `event: message`, a keep-alive comment every
 *   `SSE_KEEP_ALIVE_MS`) that ends once every request is answered or cancelled. The spec lets a
 *   server answer either way; both SDK clients read both.
 * - GET: the session's one standalone event stream (406 without `text/event-stream` in `Accept`,
 *   409 when one is open), for messages related to no request.
 * - DELETE: ends the session (`onsessionclosed`, 200, then the transport closes).
 *
 * A client that hangs up before its POST is answered gets `notifications/cancelled` (reason
 * `client disconnected`) injected for each request still open, which aborts their calls. Every
 * request is answered once: a response that cannot be serialised or is over `maxMessageBytes` is
 * replaced by one that says why; a request or notification that cannot be sent is not sent (the
 * send rejects with the reason); see `serialiseOutgoing`. After `close()` every request is
 * answered 404 `-32001 Session not found` and the open streams end.
 */
export class NodeHttpServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: { authInfo?: unknown }) => void;
  sessionId: string | undefined;

  private readonly sessionIdGenerator: (() => string) | undefined;
  private readonly onsessioninitialized: ((sessionId: string) => void) | undefined;
  private readonly onsessionclosed: ((sessionId: string | undefined) => void) | undefined;
  private readonly maxMessageBytes: number;
  private readonly log: (message: string) => void;
  private readonly reusable: boolean;
  private readonly direct = new DirectDispatch();
  private supportedProtocolVersions: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS;
  private started = false;
  private initialized = false;
  private handled = false;
  private closed = false;
  /** The exchange of each open request, by `requestIdKey`. */
  private readonly exchanges = new Map<string, Exchange>();
  private standalone: { readonly res: ServerResponse; readonly timer: NodeJS.Timeout } | undefined;

  constructor(options: NodeHttpServerTransportOptions) {
    this.sessionIdGenerator = options.sessionIdGenerator;
    this.onsessioninitialized = options.onsessioninitialized;
    this.onsessionclosed = options.onsessionclosed;
    this.maxMessageBytes = maxMessageBytesOf(options.maxMessageBytes, 'createHttpHandler');
    this.log = options.log ?? (() => undefined);
    this.reusable = options.reusable === true && options.sessionIdGenerator === undefined;
  }

  /** True while no request handed to the transport is still owed an answer (and it is open). */
  get quiet(): boolean {
    return !this.closed && this.exchanges.size === 0 && this.standalone === undefined;
  }

  async start(): Promise<void> {
    if (this.started) throw new Error('Transport already started');
    this.started = true;
  }

  /** Called by the SDK's `connect` with the versions the server speaks. */
  setSupportedProtocolVersions(versions: readonly string[]): void {
    this.supportedProtocolVersions = versions;
  }

  /**
   * Delivers messages straight to `protocol` (see `DirectDispatch`): every message this transport
   * delivers has been checked against the SDK's JSON-RPC schema. Call it right after
   * `protocol.connect(this)`.
   */
  dispatchDirectlyTo(protocol: object): void {
    this.direct.bind(protocol, this.onmessage);
  }

  /**
   * Serves one request: `body` is the parsed POST body (`undefined` for GET and DELETE), `authInfo`
   * what the auth gate verified (handed to the server's handlers as `ctx.http.authInfo`).
   * Resolves once the request was handed on (a POST's requests are answered later, as they
   * finish); never rejects for anything the client sent.
   */
  async handle(req: IncomingMessage, res: ServerResponse, body: unknown, authInfo?: unknown): Promise<void> {
    if (this.closed) return sendJsonError(res, 404, JsonRpcCode.SessionNotFound, 'Session not found');
    if (this.sessionIdGenerator === undefined && this.handled && !this.reusable)
      throw new Error('Stateless transport cannot be reused across requests. Create a new transport per request.');
    this.handled = true;
    if (req.method === 'POST') return this.handlePost(req, res, body, authInfo);
    if (req.method === 'GET') return this.handleGet(req, res);
    if (req.method === 'DELETE') return this.handleDelete(req, res);
    res.writeHead(405, { Allow: 'GET, POST, DELETE', 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null }));
  }

  private handlePost(req: IncomingMessage, res: ServerResponse, body: unknown, authInfo: unknown): void {
    const raw = Array.isArray(body) ? body : [body];
    if (raw.length > MAX_BATCH_SIZE)
      return sendJsonError(
        res,
        400,
        JsonRpcCode.InvalidRequest,
        `Invalid Request: Batch must not exceed ${MAX_BATCH_SIZE} messages`,
      );
    const messages: JSONRPCMessage[] = [];
    for (const value of raw) {
      const message = toJsonRpcMessage(value);
      if (message === undefined)
        return sendJsonError(res, 400, JsonRpcCode.ParseError, 'Parse error: Invalid JSON-RPC message');
      messages.push(message);
    }
    const initializing = messages.some(
      (message) => (message as { method?: unknown }).method === 'initialize' && isInitializeRequest(message),
    );
    if (initializing) {
      if (this.initialized && this.sessionId !== undefined)
        return sendJsonError(res, 400, JsonRpcCode.InvalidRequest, 'Invalid Request: Server already initialized');
      if (messages.length > 1)
        return sendJsonError(
          res,
          400,
          JsonRpcCode.InvalidRequest,
          'Invalid Request: Only one initialization request is allowed',
        );
      this.sessionId = this.sessionIdGenerator?.();
      this.initialized = true;
      if (this.sessionId !== undefined) this.onsessioninitialized?.(this.sessionId);
    } else if (this.refusedSessionOrVersion(req, res)) {
      return;
    }
    if (this.closed) return sendJsonError(res, 404, JsonRpcCode.SessionNotFound, 'Session not found');
    // The request reaches the handlers as `ctx.http.req` (its headers carry trace context, see
    // `traceRequest`), the verified token as `ctx.http.authInfo`.
    const extra = authInfo === undefined ? { request: req } : { request: req, authInfo };
    const requests = messages.filter((message) => messageKind(message) === 'request');
    if (requests.length === 0) {
      for (const message of messages) this.deliver(message, extra);
      res.writeHead(202).end();
      return;
    }
    const exchange: Exchange = { res, pending: new Map(), mode: 'json', answers: [], timer: undefined };
    for (const request of requests) {
      const id = (request as { id: RequestId }).id;
      const key = requestIdKey(id);
      exchange.pending.set(key, id);
      this.exchanges.set(key, exchange);
    }
    res.once('close', () => this.hungUp(exchange));
    for (const message of messages) {
      this.deliver(message, extra);
      if (exchange.mode === 'done') break;
    }
    if (exchange.mode === 'json') {
      exchange.timer = setTimeout(() => this.toStream(exchange), JSON_ANSWER_WINDOW_MS);
      exchange.timer.unref();
    }
  }

  private handleGet(req: IncomingMessage, res: ServerResponse): void {
    if (!(req.headers.accept ?? '').includes('text/event-stream'))
      return sendJsonError(res, 406, JsonRpcCode.ServerError, 'Not Acceptable: Client must accept text/event-stream');
    if (this.refusedSessionOrVersion(req, res)) return;
    if (this.standalone !== undefined)
      return sendJsonError(res, 409, JsonRpcCode.ServerError, 'Conflict: Only one SSE stream is allowed per session');
    res.writeHead(200, this.streamHeaders());
    res.flushHeaders();
    const timer = keepAlive(res);
    const standalone = { res, timer };
    this.standalone = standalone;
    res.once('close', () => {
      clearInterval(timer);
      if (this.standalone === standalone) this.standalone = undefined;
    });
  }

  private handleDelete(req: IncomingMessage, res: ServerResponse): void {
    if (this.refusedSessionOrVersion(req, res)) return;
    try {
      this.onsessionclosed?.(this.sessionId);
      res.writeHead(200).end();
    } finally {
      void this.close();
    }
  }

  /** With sessions, answers a request of no (or another) session; answers an unsupported protocol version. */
  private refusedSessionOrVersion(req: IncomingMessage, res: ServerResponse): boolean {
    if (this.sessionIdGenerator !== undefined) {
      if (!this.initialized) {
        sendJsonError(res, 400, JsonRpcCode.ServerError, 'Bad Request: Server not initialized');
        return true;
      }
      const given = req.headers['mcp-session-id'];
      if (given === undefined || given === '') {
        sendJsonError(res, 400, JsonRpcCode.ServerError, 'Bad Request: Mcp-Session-Id header is required');
        return true;
      }
      if (given !== this.sessionId) {
        sendJsonError(res, 404, JsonRpcCode.SessionNotFound, 'Session not found');
        return true;
      }
    }
    const version = req.headers['mcp-protocol-version'];
    if (typeof version === 'string' && !this.supportedProtocolVersions.includes(version)) {
      sendJsonError(
        res,
        400,
        JsonRpcCode.ServerError,
        `Bad Request: Unsupported protocol version: ${version} (supported versions: ${this.supportedProtocolVersions.join(', ')})`,
      );
      return true;
    }
    return false;
  }

  private deliver(message: JSONRPCMessage, extra: object | undefined): void {
    try {
      this.direct.deliver(message, extra, this.onmessage);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
    if ((message as { method?: unknown }).method === 'notifications/cancelled' && !('id' in message)) {
      const requestId = (message as { params?: { requestId?: unknown } }).params?.requestId;
      if (typeof requestId === 'string' || typeof requestId === 'number') this.cancelled(requestId);
    }
  }

  /**
   * Sends one message: a response (or a message related to a request, `relatedRequestId`) on the
   * answer of the POST that carried that request, anything else on the standalone GET stream
   * (dropped when there is none). Rejects for a response to no open request.
   */
  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const kind = messageKind(message);
    const outgoing = serialiseOutgoing(message, this.maxMessageBytes);
    if (outgoing.kind === 'drop') {
      this.log(outgoing.why);
      throw new Error(outgoing.why);
    }
    const requestId = kind === 'response' ? (message as { id?: RequestId }).id : options?.relatedRequestId;
    if (outgoing.replaced !== undefined) this.log(`request ${JSON.stringify(requestId)}: ${outgoing.replaced}`);
    if (requestId === undefined) {
      if (kind === 'response')
        throw new Error('Cannot send a response on a standalone SSE stream unless resuming a previous client request');
      if (this.standalone !== undefined) writeEvent(this.standalone.res, outgoing.json);
      return;
    }
    const key = requestIdKey(requestId);
    const exchange = this.exchanges.get(key);
    if (exchange === undefined) throw new Error(`No connection established for request ID: ${String(requestId)}`);
    if (exchange.mode === 'done') {
      // The client left: nothing more goes out for this request; its response frees the mapping.
      if (kind === 'response') {
        this.exchanges.delete(key);
        exchange.pending.delete(key);
      }
      return;
    }
    if (kind !== 'response') {
      if (exchange.mode === 'json') this.toStream(exchange);
      if (exchange.mode === 'sse') writeEvent(exchange.res, outgoing.json);
      return;
    }
    this.exchanges.delete(key);
    exchange.pending.delete(key);
    if (exchange.mode === 'json') exchange.answers.push(outgoing.json);
    else if (exchange.mode === 'sse') writeEvent(exchange.res, outgoing.json);
    if (exchange.pending.size === 0) this.finish(exchange);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const exchange of new Set(this.exchanges.values())) this.finish(exchange);
    this.exchanges.clear();
    if (this.standalone !== undefined) {
      clearInterval(this.standalone.timer);
      this.standalone.res.end();
      this.standalone = undefined;
    }
    this.onclose?.();
  }

  /** The client cancelled `id` (after the server saw the cancellation): its answer is owed no more. */
  private cancelled(id: RequestId): void {
    const key = requestIdKey(id);
    const exchange = this.exchanges.get(key);
    if (exchange === undefined || exchange.mode === 'done') return;
    this.exchanges.delete(key);
    exchange.pending.delete(key);
    if (exchange.pending.size === 0) this.finish(exchange);
  }

  /** The POST's connection closed: if its answer was not finished, cancel what is still open. */
  private hungUp(exchange: Exchange): void {
    clearTimeout(exchange.timer);
    if (exchange.mode === 'done') return;
    exchange.mode = 'done';
    const open = [...exchange.pending.values()];
    for (const id of open) {
      if (!this.closed)
        this.deliver(
          {
            jsonrpc: '2.0',
            method: 'notifications/cancelled',
            params: { requestId: id, reason: CLIENT_GONE_REASON },
          },
          undefined,
        );
    }
  }

  /** Turns an exchange whose answer has not started into an event stream, writing the answers kept. */
  private toStream(exchange: Exchange): void {
    if (exchange.mode !== 'json') return;
    clearTimeout(exchange.timer);
    exchange.mode = 'sse';
    const res = exchange.res;
    if (res.destroyed) return;
    res.writeHead(200, this.streamHeaders());
    res.flushHeaders();
    for (const answer of exchange.answers) writeEvent(res, answer);
    exchange.answers.length = 0;
    exchange.timer = keepAlive(res);
  }

  /** Ends an exchange: its JSON body (or, with no answer at all, an empty stream), or the end of its stream. */
  private finish(exchange: Exchange): void {
    const mode = exchange.mode;
    // clearTimeout ends a keep-alive interval too.
    clearTimeout(exchange.timer);
    exchange.mode = 'done';
    for (const key of exchange.pending.keys()) this.exchanges.delete(key);
    exchange.pending.clear();
    const res = exchange.res;
    if (res.destroyed || res.writableEnded) return;
    if (mode === 'json' && exchange.answers.length > 0) {
      const text = exchange.answers.length === 1 ? exchange.answers[0]! : `[${exchange.answers.join(',')}]`;
      const headers: Record<string, string | number> = {
        'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(text),
      };
      if (this.sessionId !== undefined) headers['mcp-session-id'] = this.sessionId;
      res.writeHead(200, headers);
      res.end(text);
      return;
    }
    if (mode === 'json') res.writeHead(200, this.streamHeaders());
    res.end();
  }

  private streamHeaders(): Record<string, string> {
    return this.sessionId === undefined ? { ...SSE_HEADERS } : { ...SSE_HEADERS, 'mcp-session-id': this.sessionId };
  }
}

/** Writes one message as an SSE event. */
function writeEvent(res: ServerResponse, json: string): void {
  if (!res.destroyed && !res.writableEnded) res.write(`event: message\ndata: ${json}\n\n`);
}

/** Sends a keep-alive comment on an open event stream every `SSE_KEEP_ALIVE_MS`, until it ends. */
function keepAlive(res: ServerResponse): NodeJS.Timeout {
  const timer = setInterval(() => {
    if (res.destroyed || res.writableEnded) clearInterval(timer);
    else res.write(': keepalive\n\n');
  }, SSE_KEEP_ALIVE_MS);
  timer.unref();
  return timer;
}

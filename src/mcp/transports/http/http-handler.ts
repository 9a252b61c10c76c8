import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  isInitializeRequest,
  isJsonContentType,
  type RequestId,
  type Server,
  type ServerEventBus,
} from '@modelcontextprotocol/server';
import { asError } from '../../../util/describe.js';
import { createAuthGate, type AuthOptions } from '../../auth/index.js';
import { isPositiveInteger, MAX_TIMEOUT_MS } from '../../../util/limits.js';
import { standInForBadResponse, toJsonRpcMessage } from '../jsonrpc-shape.js';
import { JsonRpcCode } from '../jsonrpc-error.js';
import type { ServerFactory } from '../server-factory.js';
import { createHostOriginGuard } from './host-origin-guard.js';
import { InFlightCalls, type PostGroup } from './in-flight-calls.js';
import { createModernLeg, isModernBody } from './modern-leg.js';
import { sendJsonError } from './json-response.js';
import { maxMessageBytesOf } from '../outgoing.js';
import { readBody } from './read-body.js';
import { TrackedHttpTransport } from './tracked-transport.js';
import { authOf, sendWebResponse, toWebRequest } from './web-bridge.js';

/** Default largest request body, in bytes (4 MiB, as the SDK's own default). */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
/** Default time a session may stay without any open HTTP request before it is closed (30 min). */
export const DEFAULT_SESSION_IDLE_MS = 30 * 60 * 1000;

/**
 * Default largest number of sessions open at once (1,000; an idle session costs about 40 KB).
 * A new session past it is refused with 503 (see `HttpHandlerOptions.maxSessions`).
 */
export const DEFAULT_MAX_SESSIONS = 1000;

/** Why a session ended. */
export type SessionCloseReason = 'deleted' | 'idle' | 'closed';

/** Options of `createHttpHandler` (and of `listenHttp` / `serveHttp`). Every member is optional. */
export interface HttpHandlerOptions {
  /**
   * The endpoint path. Set, requests for any other path get 404; unset (the default here),
   * every request handed to the handler is for the endpoint (mount it where you like).
   */
  readonly path?: string;
  /** Serve without sessions: a fresh server per POST. See `createHttpHandler`. Default `false`. */
  readonly stateless?: boolean;
  /** Extra accepted `Host` values (see `HostOriginGuardOptions.allowedHosts`). Loopback is always accepted. */
  readonly allowedHosts?: readonly string[];
  /** Extra accepted `Origin` values (see `HostOriginGuardOptions.allowedOrigins`). */
  readonly allowedOrigins?: readonly string[];
  /** Largest request body in bytes; a larger one gets 413. Default 4 MiB. */
  readonly maxBodyBytes?: number;
  /**
   * A session with no open HTTP request for this long is closed (its calls aborted). Default 30
   * min; `Infinity` = never.
   */
  readonly sessionIdleMs?: number;
  /**
   * The most sessions open at once (a positive integer, or `Infinity` for no cap). Default
   * `DEFAULT_MAX_SESSIONS` (1,000). An `initialize` that would open one more is answered 503
   * `-32000 Service Unavailable: too many open sessions (<n>); end one with DELETE or retry later`
   * with `Retry-After: 1`, and no session is made. Ignored when stateless.
   */
  readonly maxSessions?: number;
  /**
   * The largest message sent, in bytes (a positive integer or `Infinity`). Default
   * `DEFAULT_MAX_MESSAGE_BYTES` (8 MiB). A response over it (or one that cannot be serialised at
   * all) is replaced by an `isError` result saying why (see `serialiseOutgoing`).
   */
  readonly maxMessageBytes?: number;
  /** Called when a session is created (after its `initialize` was accepted). */
  readonly onSessionOpened?: (sessionId: string) => void;
  /** Called once when a session ends: `deleted` by the client, `idle` expiry, or `closed` by the server. */
  readonly onSessionClosed?: (sessionId: string, reason: SessionCloseReason) => void;
  /**
   * Makes the endpoint an OAuth 2.1 resource server: every request needs a bearer token (see
   * `createAuthGate`). Default none.
   */
  readonly auth?: AuthOptions;
  /** Receives unexpected failures (a throwing factory, a crash while handling). Default: one stderr line. */
  readonly onError?: (error: Error) => void;
  /**
   * Where changes are announced to 2026-07-28 clients' `subscriptions/listen` streams: publish
   * `{ kind: 'tools_list_changed' }` on it and every open stream that asked for tool changes gets
   * `notifications/tools/list_changed` (2025-era sessions are told by their server's own
   * `sendToolListChanged`). Default: a bus of the SDK's own that nothing publishes to.
   */
  readonly changeEvents?: ServerEventBus;
}

/** A `node:http` request listener serving MCP, with a way to close every session it holds. */
export interface McpHttpHandler {
  (req: IncomingMessage, res: ServerResponse): void;
  /** Refuses new requests (503), closes every session's server (aborting in-flight calls) and resolves when done. */
  close(): Promise<void>;
  /** How many sessions are open (always 0 when stateless). */
  readonly sessionCount: number;
}

const SESSION_HEADER = 'mcp-session-id';

/** The refusal of a session past `maxSessions`. */
export function tooManySessionsMessage(maxSessions: number): string {
  return `Service Unavailable: too many open sessions (${maxSessions}); end one with DELETE or retry later`;
}

/** A fresh session id: 256 random bits, base64url (43 characters, all within 0x21-0x7E). */
export function newSessionId(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Builds a `(req, res)` listener that serves MCP streamable HTTP (spec 2025-11-25) on plain
 * `node:http` (or any framework passing node's request and response; a body already parsed
 * into `req.body`, as `express.json()` leaves it, is used as is), with the SDK's
 * `StreamableHTTPServerTransport` doing the protocol work. Every error it answers is a JSON-RPC
 * error body, never HTML or a stack. In order:
 *
 * 1. `Host` and `Origin` are checked (`createHostOriginGuard`) -> 403. With `auth`, the auth gate
 *    then serves the protected resource metadata and refuses requests without a valid token
 *    (401/403/400, OAuth JSON bodies; see `createAuthGate`); after the body is read, a
 *    `tools/call` the token lacks the tool's scopes for -> 403 `insufficient_scope`; and a
 *    session is bound to the principal that created it (another principal's request -> 404).
 * 2. With `path` set, another path -> 404 `Not Found: the MCP endpoint is <path>`.
 * 3. A method other than GET, POST, DELETE (stateless: POST only) -> 405 `Method not allowed.`.
 * 4. POST: `Accept` must list `application/json` and `text/event-stream` -> 406; `Content-Type`
 *    must be `application/json` -> 415; a body over `maxBodyBytes` -> 413; bad JSON -> 400
 *    `-32700 Parse error: Invalid JSON`.
 * 5. Stateful (default): a request without `Mcp-Session-Id` is accepted only if it is an
 *    `initialize` POST, which creates a session (a fresh server from `factory`, a
 *    `newSessionId()` id) -> otherwise 400 `Bad Request: Mcp-Session-Id header is required`; an
 *    unknown or ended id -> 404 `-32001 Session not found`; DELETE ends the session. The SDK then
 *    checks `MCP-Protocol-Version` (400 when unsupported) and the rest. A session with no open
 *    request for `sessionIdleMs` is closed.
 * 6. Stateless (`stateless: true`): each POST gets a fresh server and transport
 *    (`sessionIdGenerator: undefined`), answered as an SSE stream so that logging and progress
 *    notifications of the call reach the client within that response. What it cannot do:
 *    server-to-client requests (elicitation, sampling: the client's answer would arrive at a
 *    different, fresh server), per-session state (every request is its own session),
 *    notifications outside a request's own response (no GET stream), and cancellation by
 *    `notifications/cancelled` (it arrives on another POST); a client hanging up still aborts.
 *
 * Beyond the SDK: once every request of a POST is answered or cancelled, its SSE stream is
 * closed (the SDK keeps it open after a cancel), and a client hanging up mid-call aborts the
 * calls of that POST (see `InFlightCalls`). Unexpected failures give 500 `-32603 Internal error`.
 */
export function createHttpHandler(factory: ServerFactory, options: HttpHandlerOptions = {}): McpHttpHandler {
  const guard = createHostOriginGuard(options);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!isPositiveInteger(maxBodyBytes)) {
    throw new RangeError(`maxBodyBytes must be a positive integer number of bytes, got ${String(maxBodyBytes)}`);
  }
  const sessionIdleMs = options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;
  if (!(sessionIdleMs > 0)) {
    throw new RangeError(`sessionIdleMs must be a positive number of milliseconds, got ${String(sessionIdleMs)}`);
  }
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  if (!(isPositiveInteger(maxSessions) || maxSessions === Infinity)) {
    throw new RangeError(`maxSessions must be a positive integer or Infinity, got ${String(maxSessions)}`);
  }
  const stateless = options.stateless ?? false;
  const allowedMethods = stateless ? ['POST'] : ['GET', 'POST', 'DELETE'];
  const onError =
    options.onError ?? ((error: Error) => void process.stderr.write(`toolwright: http: ${error.message}\n`));
  const maxMessageBytes = maxMessageBytesOf(options.maxMessageBytes, 'createHttpHandler');
  const transportOptions = { maxMessageBytes, log: (message: string) => onError(new Error(message)) };
  const auth = options.auth === undefined ? undefined : createAuthGate(options.auth, onError);
  const sessions = new Map<string, HttpSession>();
  /** Sessions being created (their `initialize` not yet answered): they count against the cap. */
  let opening = 0;
  const statelessServers = new Set<Server>();
  let closing = false;

  const sessionContext: SessionContext = {
    sessionIdleMs,
    transportOptions,
    register: (session) => {
      sessions.set(session.id, session);
      options.onSessionOpened?.(session.id);
    },
    unregister: (session, reason) => {
      if (sessions.get(session.id) !== session) return;
      sessions.delete(session.id);
      options.onSessionClosed?.(session.id, reason);
    },
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (closing)
      return sendJsonError(res, 503, JsonRpcCode.ServerError, 'Service Unavailable: the server is shutting down');
    const refusal = guard(req.headers.host, req.headers.origin);
    if (refusal !== undefined) return sendJsonError(res, 403, JsonRpcCode.ServerError, refusal);
    if (auth !== undefined && (await auth.admit(req, res))) return;
    if (options.path !== undefined && pathOf(req.url) !== options.path) {
      return sendJsonError(res, 404, JsonRpcCode.ServerError, `Not Found: the MCP endpoint is ${options.path}`);
    }
    const method = req.method ?? '';
    if (!allowedMethods.includes(method)) {
      return sendJsonError(res, 405, JsonRpcCode.ServerError, 'Method not allowed.', {
        Allow: allowedMethods.join(', '),
      });
    }

    let body: unknown;
    if (method === 'POST') {
      const accept = req.headers.accept ?? '';
      if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
        return sendJsonError(
          res,
          406,
          JsonRpcCode.ServerError,
          'Not Acceptable: Client must accept both application/json and text/event-stream',
        );
      }
      if (!isJsonContentType(req.headers['content-type'])) {
        return sendJsonError(
          res,
          415,
          JsonRpcCode.ServerError,
          'Unsupported Media Type: Content-Type must be application/json',
        );
      }
      const preParsed = (req as IncomingMessage & { body?: unknown }).body;
      if (preParsed !== undefined) {
        body = preParsed;
      } else {
        let read: Awaited<ReturnType<typeof readBody>>;
        try {
          read = await readBody(req, maxBodyBytes);
        } catch {
          // The client gave up mid-upload: there is nobody left to answer.
          res.destroy();
          return;
        }
        if (read.kind === 'too-large') {
          return sendJsonError(
            res,
            413,
            JsonRpcCode.ServerError,
            `Payload Too Large: Request body must not exceed ${maxBodyBytes} bytes`,
            {
              Connection: 'close',
            },
          );
        }
        try {
          body = JSON.parse(read.text);
        } catch {
          return sendJsonError(res, 400, JsonRpcCode.ParseError, 'Parse error: Invalid JSON');
        }
      }
    }

    if (auth?.refusesCalls(req, res, body) === true) return;
    if (method === 'POST' && isModernBody(req, body)) return modern.serve(req, res, body);
    if (stateless) return serveStateless(req, res, body);

    const sessionId = req.headers[SESSION_HEADER];
    if (typeof sessionId === 'string' && sessionId !== '') {
      const session = sessions.get(sessionId);
      // A session of another principal is answered as an unknown one: nothing tells it exists.
      if (session === undefined || auth?.refusesSession(session, req) === true)
        return sendJsonError(res, 404, JsonRpcCode.SessionNotFound, 'Session not found');
      return session.handle(req, res, withBadResponsesReplaced(body));
    }
    if (method !== 'POST' || !isInitializeBody(body)) {
      if (method === 'POST' && !isJsonRpcBody(body)) {
        return sendJsonError(res, 400, JsonRpcCode.ParseError, 'Parse error: Invalid JSON-RPC message');
      }
      return sendJsonError(res, 400, JsonRpcCode.ServerError, 'Bad Request: Mcp-Session-Id header is required');
    }
    if (sessions.size + opening >= maxSessions) {
      return sendJsonError(res, 503, JsonRpcCode.ServerError, tooManySessionsMessage(maxSessions), {
        'Retry-After': '1',
      });
    }
    opening++;
    let session: HttpSession;
    try {
      session = await HttpSession.create(factory, sessionContext);
      auth?.bindSession(session, req);
      await session.handle(req, res, body);
    } finally {
      opening--;
    }
    if (!session.registered) await session.server.close();
  };

  // The 2026-07-28 era: one server per request, no session (see createModernLeg).
  const modern = createModernLeg(factory, options.changeEvents);

  const serveStateless = async (req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> => {
    const server = factory();
    const transport = new TrackedHttpTransport({ ...transportOptions, sessionIdGenerator: undefined });
    statelessServers.add(server);
    // Closing the per-request server when its response ends (or the client hangs up) aborts
    // whatever is still running for it.
    res.on('close', () => {
      statelessServers.delete(server);
      void server.close().catch(() => undefined);
    });
    await server.connect(transport);
    if (hasClosed(res)) {
      // The client left while the server was being connected; 'close' has already fired.
      statelessServers.delete(server);
      await server.close();
      return;
    }
    await sendWebResponse(await transport.handleRequest(toWebRequest(req), { parsedBody: body, ...authOf(req) }), res);
  };

  const listener = ((req: IncomingMessage, res: ServerResponse): void => {
    res.once('close', () => closedResponses.add(res));
    handle(req, res).catch((error: unknown) => {
      onError(asError(error));
      if (!res.headersSent) sendJsonError(res, 500, JsonRpcCode.InternalError, 'Internal error');
      else res.destroy();
    });
  }) as McpHttpHandler;
  listener.close = async () => {
    closing = true;
    const open = [...sessions.values()];
    await Promise.all([
      modern.close(),
      ...open.map((session) => session.close('closed')),
      ...[...statelessServers].map((server) => server.close().catch(() => undefined)),
    ]);
  };
  Object.defineProperty(listener, 'sessionCount', { get: () => sessions.size });
  return listener;
}

/** What an `HttpSession` needs from its handler. */
interface SessionContext {
  readonly sessionIdleMs: number;
  readonly transportOptions: { readonly maxMessageBytes: number; readonly log: (message: string) => void };
  register(session: HttpSession): void;
  unregister(session: HttpSession, reason: SessionCloseReason): void;
}

/** One stateful session: its server, its transport, its open requests and its idle timer. */
class HttpSession {
  id = '';
  registered = false;
  private openRequests = 0;
  private idleTimer: NodeJS.Timeout | undefined;
  private closeReason: SessionCloseReason | undefined;
  /** Set once the transport closed: nothing may re-arm the idle timer or touch the calls after. */
  private over = false;
  private readonly calls: InFlightCalls;

  private constructor(
    readonly server: Server,
    private readonly transport: TrackedHttpTransport,
    private readonly context: SessionContext,
  ) {
    this.calls = new InFlightCalls(transport);
  }

  static async create(factory: ServerFactory, context: SessionContext): Promise<HttpSession> {
    const server = factory();
    let session!: HttpSession;
    const transport = new TrackedHttpTransport({
      ...context.transportOptions,
      sessionIdGenerator: newSessionId,
      onsessioninitialized: (id) => {
        session.id = id;
        session.registered = true;
        context.register(session);
      },
      onsessionclosed: () => {
        session.closeReason ??= 'deleted';
      },
    });
    session = new HttpSession(server, transport, context);
    // Set before connect: the SDK keeps it and calls it when the transport closes.
    transport.onclose = () => session.ended();
    await server.connect(transport);
    return session;
  }

  async handle(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    // A client that already left would never fire 'close' again: nothing to serve or count.
    if (hasClosed(res)) return;
    this.openRequests++;
    clearTimeout(this.idleTimer);
    const messages = Array.isArray(body) ? body : body === undefined ? [] : [body];
    const group: PostGroup = this.calls.open(requestIdsOf(messages));
    res.on('close', () => {
      this.openRequests--;
      // After DELETE (or any close) the session is over: a timer armed now would keep its
      // server and transport alive for sessionIdleMs (the leak of issue 7).
      if (this.over) return;
      if (!res.writableFinished) this.calls.hungUp(group);
      if (this.openRequests === 0) this.armIdleTimer();
    });
    const response = await this.transport.handleRequest(toWebRequest(req), { parsedBody: body, ...authOf(req) });
    for (const id of cancelledIdsOf(messages)) this.calls.cancelled(id);
    await sendWebResponse(response, res);
  }

  async close(reason: SessionCloseReason): Promise<void> {
    this.closeReason ??= reason;
    await this.server.close();
  }

  private armIdleTimer(): void {
    clearTimeout(this.idleTimer);
    if (this.over) return;
    if (!Number.isFinite(this.context.sessionIdleMs)) return;
    this.idleTimer = setTimeout(
      () => void this.close('idle').catch(() => undefined),
      Math.min(this.context.sessionIdleMs, MAX_TIMEOUT_MS),
    );
    this.idleTimer.unref();
  }

  private ended(): void {
    this.over = true;
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    if (this.registered) this.context.unregister(this, this.closeReason ?? 'closed');
  }
}

/** Responses whose connection has closed (finished or abandoned by the client). */
const closedResponses = new WeakSet<ServerResponse>();

function hasClosed(res: ServerResponse): boolean {
  return res.destroyed || closedResponses.has(res);
}

function pathOf(url: string | undefined): string {
  const raw = url ?? '/';
  const query = raw.indexOf('?');
  return query === -1 ? raw : raw.slice(0, query);
}

function isInitializeBody(body: unknown): boolean {
  return Array.isArray(body) ? body.some((m) => isInitializeRequest(m)) : isInitializeRequest(body);
}

/**
 * The body with every malformed response in it replaced by its stand-in error response (see
 * `standInForBadResponse`): the request it answers fails at once and the client gets 202, not
 * a 400 for a reply. Anything else is left as it is.
 */
function withBadResponsesReplaced(body: unknown): unknown {
  if (Array.isArray(body)) return body.map((message) => standInForBadResponse(message) ?? message);
  return standInForBadResponse(body) ?? body;
}

function isJsonRpcBody(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.every((m) => toJsonRpcMessage(m) !== undefined);
}

/** The ids of the requests (messages with a `method` and a string or number `id`) in a body. */
function requestIdsOf(messages: readonly unknown[]): RequestId[] {
  const ids: RequestId[] = [];
  for (const message of messages) {
    if (typeof message !== 'object' || message === null) continue;
    const { method, id } = message as { method?: unknown; id?: unknown };
    if (typeof method === 'string' && (typeof id === 'string' || typeof id === 'number')) ids.push(id);
  }
  return ids;
}

/** The request ids named by the `notifications/cancelled` messages in a body. */
function cancelledIdsOf(messages: readonly unknown[]): RequestId[] {
  const ids: RequestId[] = [];
  for (const message of messages) {
    if (typeof message !== 'object' || message === null) continue;
    const { method, id, params } = message as { method?: unknown; id?: unknown; params?: unknown };
    if (method !== 'notifications/cancelled' || id !== undefined || typeof params !== 'object' || params === null)
      continue;
    const requestId = (params as { requestId?: unknown }).requestId;
    if (typeof requestId === 'string' || typeof requestId === 'number') ids.push(requestId);
  }
  return ids;
}

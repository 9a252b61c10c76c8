import { checkOptionsObject, optionKeys } from '../../../util/options.js';
import { SessionMetrics } from './session-metrics.js';
import { HTTP_HANDLER } from '../../entry-options.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isInitializeRequest, isJsonContentType, type Server, type ServerEventBus } from '@modelcontextprotocol/server';
import { asError } from '../../../util/describe.js';
import { createAuthGate, type AuthOptions } from '../../auth/index.js';
import { isPositiveInteger } from '../../../util/limits.js';
import { standInForBadResponse, toJsonRpcMessage } from '../jsonrpc-shape.js';
import { JsonRpcCode } from '../jsonrpc-error.js';
import type { ServerFactory } from '../server-factory.js';
import { createHostOriginGuard } from './host-origin-guard.js';
import type { AuthInfoLike } from '../../auth/index.js';
import { NO_IDENTITY, namesNobody } from '../../auth/principal.js';
import { requestClient, type RequestClient } from '../../server/request-client.js';
import { addressKey, clientAddressOf, resolveForwarded, type ForwardedOptions } from './client-address.js';
import { resolveSessionLimits, SessionCounts, tooManySessionsMessage, type SessionLimits } from './session-limits.js';
import {
  closedResponses,
  hasClosed,
  HttpSession,
  type SessionCloseReason,
  type SessionContext,
} from './http-session.js';
import { createModernLeg, isModernBody } from './modern-leg.js';
import { sendJsonError } from './json-response.js';
import { maxMessageBytesOf } from '../outgoing.js';
import { readBody } from './read-body.js';
import { TrackedHttpTransport } from './tracked-transport.js';
import { authOf, sendWebResponse, toWebRequest } from './web-bridge.js';
import { invalidOption } from '../../../util/options.js';

/** Default largest request body, in bytes (4 MiB, as the SDK's own default). */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

export type { SessionCloseReason } from './http-session.js';
export {
  DEFAULT_MAX_SESSIONS,
  DEFAULT_MAX_SESSIONS_PER_ADDRESS,
  DEFAULT_MAX_SESSIONS_PER_PRINCIPAL,
  DEFAULT_SESSION_IDLE_MS,
  DEFAULT_UNUSED_SESSION_IDLE_MS,
  tooManySessionsMessage,
  type SessionLimit,
} from './session-limits.js';
export type { ForwardedHeader, ForwardedOptions } from './client-address.js';

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
   * A used session with no open HTTP request for this long is closed (its calls aborted). Default
   * 30 min; `Infinity` = never.
   */
  readonly sessionIdleMs?: number;
  /**
   * An unused session (no JSON-RPC request but `initialize` and no GET stream yet;
   * notifications do not count) is closed this long after its `initialize` was answered, with
   * reason `unused`. Default `DEFAULT_UNUSED_SESSION_IDLE_MS` (60 s), or `sessionIdleMs` when that
   * is shorter; never longer than `sessionIdleMs`; `Infinity` = only `sessionIdleMs` applies.
   */
  readonly unusedSessionIdleMs?: number;
  /**
   * The most sessions open at once (a positive integer, or `Infinity` for no cap). Default
   * `DEFAULT_MAX_SESSIONS` (1,000). An `initialize` that would open one more is answered 503
   * `-32000 Service Unavailable: too many open sessions on this server (maxSessions <n>); end one
   * with DELETE or retry later` with `Retry-After: 1`, and no session is made. Ignored when
   * stateless. The per-client limits below are checked first.
   */
  readonly maxSessions?: number;
  /**
   * The most sessions one verified principal (by issuer and subject, as sessions are bound) may
   * hold open at once (a positive integer or `Infinity`). Default
   * `DEFAULT_MAX_SESSIONS_PER_PRINCIPAL` (100). Past it: 503 `... too many open sessions for this
   * principal (maxSessionsPerPrincipal <n>) ...`, `Retry-After: 1`. Applies to requests that carry
   * a principal (`auth`, or an `AuthInfo` another middleware put on `req.auth`).
   */
  readonly maxSessionsPerPrincipal?: number;
  /**
   * The most sessions requests without a principal may hold open from one address (a positive
   * integer or `Infinity`). Default `DEFAULT_MAX_SESSIONS_PER_ADDRESS` (100). The address is the
   * direct peer's, or the one a trusted proxy forwarded (see `forwarded`); an IPv6 address counts
   * by its /64 prefix. Past it: 503 `... too many open sessions from <address>
   * (maxSessionsPerAddress <n>) ...`, `Retry-After: 1`. Behind a balancer without `forwarded`,
   * every client comes from the balancer's address and shares this limit.
   */
  readonly maxSessionsPerAddress?: number;
  /**
   * Which proxies in front of the server are believed about the client's address (see
   * `ForwardedOptions`; unknown keys are refused). Default none: the direct peer is the client,
   * whatever `X-Forwarded-For` or `Forwarded` it sends.
   */
  readonly forwarded?: ForwardedOptions;
  /**
   * The largest message sent, in bytes (a positive integer or `Infinity`). Default
   * `DEFAULT_MAX_MESSAGE_BYTES` (8 MiB). A response over it (or one that cannot be serialised at
   * all) is replaced by an `isError` result saying why (see `serialiseOutgoing`).
   */
  readonly maxMessageBytes?: number;
  /** Called when a session is created (after its `initialize` was accepted). */
  readonly onSessionOpened?: (sessionId: string) => void;
  /** Called once when a session ends: `deleted` by the client, `idle` or `unused` expiry, or `closed` by the server. */
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

export { newSessionId } from './http-session.js';

/** `createHttpHandler`'s option keys. */
const HTTP_HANDLER_KEYS = optionKeys<HttpHandlerOptions>()(...HTTP_HANDLER);

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
  checkOptionsObject('createHttpHandler', options, HTTP_HANDLER_KEYS);
  return httpHandlerOf(factory, options);
}

/**
 * `createHttpHandler` without the check of its option keys, for `listenHttp`, whose options are
 * the handler's and more (a server's, which `serveHttp` checked). Internal to the transports.
 */
export function httpHandlerOf(factory: ServerFactory, options: HttpHandlerOptions): McpHttpHandler {
  const guard = createHostOriginGuard(options);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!isPositiveInteger(maxBodyBytes))
    throw invalidOption('createHttpHandler', 'maxBodyBytes', 'a positive integer number of bytes', maxBodyBytes);
  const limits = resolveSessionLimits(options);
  const addressRule = resolveForwarded(options.forwarded);
  const stateless = options.stateless ?? false;
  const allowedMethods = stateless ? ['POST'] : ['GET', 'POST', 'DELETE'];
  const onError =
    options.onError ?? ((error: Error) => void process.stderr.write(`toolwright: http: ${error.message}\n`));
  const maxMessageBytes = maxMessageBytesOf(options.maxMessageBytes, 'createHttpHandler');
  const transportOptions = { maxMessageBytes, log: (message: string) => onError(new Error(message)) };
  const auth = options.auth === undefined ? undefined : createAuthGate(options.auth, onError);
  const sessions = new Map<string, HttpSession>();
  /** Sessions being created (their `initialize` not yet answered): they count against the caps. */
  let opening = 0;
  /** Sessions open or being created, by client (see `RequestClient`). */
  const perClient = new SessionCounts();
  const clientOf = (req: IncomingMessage): RequestClient =>
    requestClient(
      (req as IncomingMessage & { auth?: AuthInfoLike }).auth,
      addressKey(clientAddressOf(req, addressRule)),
    );
  const statelessServers = new Set<Server>();
  const sessionMetrics = new SessionMetrics();
  let closing = false;

  const sessionContext: SessionContext = {
    sessionIdleMs: limits.sessionIdleMs,
    unusedSessionIdleMs: limits.unusedSessionIdleMs,
    transportOptions,
    register: (session) => {
      sessions.set(session.id, session);
      sessionMetrics.opened(session);
      options.onSessionOpened?.(session.id);
    },
    unregister: (session, reason) => {
      if (sessions.get(session.id) !== session) return;
      sessions.delete(session.id);
      perClient.remove(session.client);
      sessionMetrics.closed(session);
      options.onSessionClosed?.(session.id, reason);
    },
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (closing)
      return sendJsonError(res, 503, JsonRpcCode.ServerError, 'Service Unavailable: the server is shutting down');
    const refusal = guard(req.headers.host, req.headers.origin);
    if (refusal !== undefined) return sendJsonError(res, 403, JsonRpcCode.ServerError, refusal);
    if (auth !== undefined && (await auth.admit(req, res))) return;
    // An AuthInfo another middleware made (toolwright's own edge refuses such tokens in admit).
    if (namesNobody((req as IncomingMessage & { auth?: AuthInfoLike }).auth))
      return sendJsonError(res, 401, JsonRpcCode.ServerError, `Unauthorized: ${NO_IDENTITY}`, {
        'WWW-Authenticate': 'Bearer error="invalid_token"',
      });
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
    const client = clientOf(req);
    const full = sessionRefusal(client, perClient.of(client.key), sessions.size + opening, limits);
    if (full !== undefined) return sendJsonError(res, 503, JsonRpcCode.ServerError, full, { 'Retry-After': '1' });
    opening++;
    perClient.add(client.key);
    let session: HttpSession | undefined;
    try {
      session = await HttpSession.create(factory, sessionContext, client.key);
      auth?.bindSession(session, req);
      await session.handle(req, res, body);
    } finally {
      opening--;
      // A registered session is counted until it ends (see unregister).
      if (session?.registered !== true) perClient.remove(client.key);
    }
    if (!session.registered) await session.server.close();
  };

  // The 2026-07-28 era: one server per request, no session (see createModernLeg).
  const modern = createModernLeg(factory, { clientOf, changeEvents: options.changeEvents });

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

/**
 * Why a new session of `client` is refused (the 503 message), or `undefined` when it may open:
 * its own limit (`maxSessionsPerPrincipal` or `maxSessionsPerAddress`) first, then the server's.
 */
function sessionRefusal(client: RequestClient, held: number, open: number, limits: SessionLimits): string | undefined {
  if (client.kind === 'principal' && held >= limits.maxSessionsPerPrincipal)
    return tooManySessionsMessage(limits.maxSessionsPerPrincipal, 'maxSessionsPerPrincipal');
  if (client.kind === 'address' && held >= limits.maxSessionsPerAddress)
    return tooManySessionsMessage(limits.maxSessionsPerAddress, 'maxSessionsPerAddress', client.address);
  if (open >= limits.maxSessions) return tooManySessionsMessage(limits.maxSessions, 'maxSessions');
  return undefined;
}

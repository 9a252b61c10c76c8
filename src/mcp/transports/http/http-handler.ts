import { checkOptionsObject, optionKeys } from '../../../util/options.js';
import { HTTP_HANDLER } from '../../entry-options.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServerEventBus } from '@modelcontextprotocol/server';
import { asError } from '../../../util/describe.js';
import { createAuthGate, type AuthGate, type AuthOptions } from '../../auth/index.js';
import { isPositiveInteger } from '../../../util/limits.js';
import { JsonRpcCode } from '../jsonrpc-error.js';
import type { ServerFactory } from '../server-factory.js';
import { createHostOriginGuard, type HostOriginGuard } from './host-origin-guard.js';
import type { AuthInfoLike } from '../../auth/index.js';
import { NO_IDENTITY, namesNobody } from '../../auth/principal.js';
import { requestClient, type RequestClient } from '../../server/request-client.js';
import { addressKey, clientAddressOf, resolveForwarded, type ForwardedOptions } from './client-address.js';
import { resolveSessionLimits } from './session-limits.js';
import { closedResponses, type SessionCloseReason } from './http-session.js';
import type { HttpLeg } from './http-leg.js';
import { createModernLeg, isModernBody } from './modern-leg.js';
import { sendJsonError } from './json-response.js';
import { maxMessageBytesOf } from '../outgoing.js';
import { PostBody, readPostBody } from './post-body.js';
import { createSessionLeg } from './session-leg.js';
import { createStatelessLeg } from './stateless-leg.js';
import { invalidOption } from '../../../util/options.js';
import { healthEndpointsOf, type HealthOptions } from './health.js';
import { PostsInFlight } from './drain.js';

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
  /**
   * Serve without sessions: a fresh server per POST (`serveHttp`'s may answer one POST after
   * another, see `createStatelessLeg`). See `createHttpHandler`. Default `false`.
   */
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
  /**
   * The liveness and readiness endpoints (see `HealthOptions`; default `/healthz` and `/readyz`),
   * answered before the `Host`/`Origin` check and auth, or `false` for none.
   */
  readonly health?: HealthOptions | false;
  /**
   * This process's node id in a cluster (1 to 64 of `A-Za-z0-9_-`): every session id starts
   * with `<nodeId>.`, so a balancer can send a session's requests to its process by the id alone,
   * with no table to lose (see docs/cluster.md). `serveHttp` sets it from `inputRounds.nodeId`.
   * Default none.
   */
  readonly nodeId?: string;
}

/** A `node:http` request listener serving MCP, with a way to close every session it holds. */
export interface McpHttpHandler {
  (req: IncomingMessage, res: ServerResponse): void;
  /** Refuses new requests (503), closes every session's server (aborting in-flight calls) and resolves when done. */
  close(): Promise<void>;
  /**
   * Starts a shutdown without refusing anything: readiness answers 503 `draining` from now on
   * (a balancer takes the process out of rotation), and this resolves once no request is being
   * answered (a `subscriptions/listen` stream does not count) or after `timeoutMs`. Call `close()`
   * next.
   */
  drain(timeoutMs: number): Promise<void>;
  /** How many sessions are open (always 0 when stateless). */
  readonly sessionCount: number;
}

export { newSessionId } from './http-session.js';

/** `createHttpHandler`'s option keys. */
const HTTP_HANDLER_KEYS = optionKeys<HttpHandlerOptions>()(...HTTP_HANDLER);

/**
 * Builds a `(req, res)` listener that serves MCP streamable HTTP (spec 2025-11-25) on plain
 * `node:http` (or any framework passing node's request and response; a body already parsed
 * into `req.body`, as `express.json()` leaves it, is used as is), with the SDK's
 * `StreamableHTTPServerTransport` doing the protocol work. Every error it answers is a JSON-RPC
 * error body, never HTML or a stack. Each request goes through these steps, in order:
 *
 * 1. While closing -> 503 `Service Unavailable: the server is shutting down`.
 * 2. `Host` and `Origin` are checked (`createHostOriginGuard`) -> 403.
 * 3. With `auth`, the auth gate serves the protected resource metadata and refuses requests
 *    without a valid token (401/403/400, OAuth JSON bodies; see `createAuthGate`); an `AuthInfo`
 *    another middleware put on `req.auth` that names nobody -> 401.
 * 4. With `path` set, another path -> 404 `Not Found: the MCP endpoint is <path>`; a method other
 *    than GET, POST, DELETE (stateless: POST only) -> 405 `Method not allowed.`.
 * 5. POST: the body is read and parsed once (see `readPostBody`): 406, 415, 413 or 400 `-32700
 *    Parse error: Invalid JSON`. With `auth`, a `tools/call` the token lacks the tool's scopes
 *    for -> 403 `insufficient_scope`.
 * 6. The request is handed to one leg: a 2026-07-28 POST to the per-request leg (see
 *    `createModernLeg`); with `stateless: true`, any other POST gets a fresh server and
 *    transport (see `createStatelessLeg`); else the session leg (see `createSessionLeg`).
 *
 * Stateful (default): a request without `Mcp-Session-Id` is accepted only if it is an
 * `initialize` POST, which creates a session (a fresh server from `factory`, a `newSessionId()`
 * id) -> otherwise 400 `Bad Request: Mcp-Session-Id header is required`; an unknown or ended id
 * -> 404 `-32001 Session not found`; with `auth`, a session is bound to the principal that
 * created it (another principal's request -> 404); DELETE ends the session. The SDK then checks
 * `MCP-Protocol-Version` (400 when unsupported) and the rest. A session with no open request for
 * `sessionIdleMs` is closed.
 *
 * Stateless (`stateless: true`): each POST gets a fresh server and transport; logging and
 * progress notifications of the call reach the client within that POST's response (an event
 * stream once anything but the result is sent). What it cannot do: server-to-client requests
 * (elicitation, sampling: the client's answer would arrive at a different, fresh server),
 * per-session state (every request is its own session), notifications outside a request's own
 * response (no GET stream), and cancellation by `notifications/cancelled` (it arrives on another
 * POST); a client hanging up still aborts.
 *
 * The 2025-era legs answer on `node:http` directly (see `NodeHttpServerTransport`): a POST whose
 * requests send nothing before their results, and are done within `JSON_ANSWER_WINDOW_MS`, gets
 * one `application/json` body; any other gets an event stream. Beyond the SDK: once every
 * request of a POST is answered or cancelled, its stream is closed (the SDK keeps it open after a
 * cancel), and a client hanging up mid-call aborts the calls of that POST. Unexpected failures
 * give 500 `-32603 Internal error`.
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
  const clientOf = (req: IncomingMessage): RequestClient =>
    requestClient(
      (req as IncomingMessage & { auth?: AuthInfoLike }).auth,
      addressKey(clientAddressOf(req, addressRule)),
    );
  const health = healthEndpointsOf(options.health);
  const posts = new PostsInFlight();
  if (
    options.nodeId !== undefined &&
    !(typeof options.nodeId === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(options.nodeId))
  )
    throw invalidOption(
      'createHttpHandler',
      'nodeId',
      '1 to 64 of A-Za-z0-9_-',
      options.nodeId,
      typeof options.nodeId === 'string' ? JSON.stringify(options.nodeId) : undefined,
    );
  const sessions = createSessionLeg(factory, {
    limits,
    nodeId: options.nodeId,
    transportOptions,
    clientOf,
    auth,
    onSessionOpened: options.onSessionOpened,
    onSessionClosed: options.onSessionClosed,
  });
  const legacy: HttpLeg = stateless ? createStatelessLeg(factory, transportOptions) : sessions;
  // The 2026-07-28 era: one server per request (none for a plain tools/call or tools/list), no
  // session (see createModernLeg).
  const modern = createModernLeg(factory, { clientOf, changeEvents: options.changeEvents, onError });
  let closing = false;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (closing)
      return sendJsonError(res, 503, JsonRpcCode.ServerError, 'Service Unavailable: the server is shutting down');
    if (refusedHostOrOrigin(guard, req, res)) return;
    if (await refusedAuth(auth, req, res)) return;
    if (refusedRoute(options.path, allowedMethods, req, res)) return;
    const body = req.method === 'POST' ? await readPostBody(req, res, maxBodyBytes) : PostBody.NONE;
    if (body === undefined) return;
    if (req.method === 'POST') posts.track(res, body);
    if (auth?.refusesCalls(req, res, body) === true) return;
    const leg = req.method === 'POST' && isModernBody(req, body) ? modern : legacy;
    await leg.serve(req, res, body);
  };

  const listener = ((req: IncomingMessage, res: ServerResponse): void => {
    if (health?.serve(req, res) === true) return;
    res.once('close', () => closedResponses.add(res));
    handle(req, res).catch((error: unknown) => {
      onError(asError(error));
      if (!res.headersSent) sendJsonError(res, 500, JsonRpcCode.InternalError, 'Internal error');
      else res.destroy();
    });
  }) as McpHttpHandler;
  listener.drain = async (timeoutMs: number) => {
    health?.drain();
    await posts.settled(timeoutMs);
  };
  listener.close = async () => {
    closing = true;
    health?.drain();
    await Promise.all([modern.close(), legacy.close()]);
  };
  Object.defineProperty(listener, 'sessionCount', { get: () => sessions.count });
  return listener;
}

/** Step 2: answers 403 and returns `true` when the `Host` or `Origin` header is refused. */
function refusedHostOrOrigin(guard: HostOriginGuard, req: IncomingMessage, res: ServerResponse): boolean {
  const refusal = guard(req.headers.host, req.headers.origin);
  if (refusal === undefined) return false;
  sendJsonError(res, 403, JsonRpcCode.ServerError, refusal);
  return true;
}

/**
 * Step 3: the auth gate's answer (when there is a gate), then a refusal of an `AuthInfo` another
 * middleware made that names nobody (toolwright's own gate refuses such tokens itself). Returns
 * `true` when the request was answered.
 */
async function refusedAuth(auth: AuthGate | undefined, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  if (auth !== undefined && (await auth.admit(req, res))) return true;
  if (!namesNobody((req as IncomingMessage & { auth?: AuthInfoLike }).auth)) return false;
  sendJsonError(res, 401, JsonRpcCode.ServerError, `Unauthorized: ${NO_IDENTITY}`, {
    'WWW-Authenticate': 'Bearer error="invalid_token"',
  });
  return true;
}

/** Step 4: answers 404 for another path (when `path` is set) or 405 for another method; `true` when it did. */
function refusedRoute(
  path: string | undefined,
  allowedMethods: readonly string[],
  req: IncomingMessage,
  res: ServerResponse,
): boolean {
  if (path !== undefined && pathOf(req.url) !== path) {
    sendJsonError(res, 404, JsonRpcCode.ServerError, `Not Found: the MCP endpoint is ${path}`);
    return true;
  }
  if (allowedMethods.includes(req.method ?? '')) return false;
  sendJsonError(res, 405, JsonRpcCode.ServerError, 'Method not allowed.', { Allow: allowedMethods.join(', ') });
  return true;
}

function pathOf(url: string | undefined): string {
  const raw = url ?? '/';
  const query = raw.indexOf('?');
  return query === -1 ? raw : raw.slice(0, query);
}

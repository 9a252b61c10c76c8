import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthGate } from '../../auth/index.js';
import type { RequestClient } from '../../server/request-client.js';
import { JsonRpcCode } from '../jsonrpc-error.js';
import type { ServerFactory } from '../server-factory.js';
import { HttpSession, type SessionCloseReason, type SessionContext } from './http-session.js';
import type { HttpLeg } from './http-leg.js';
import { authInfoOf } from './node-http-transport.js';
import { sendJsonError } from './json-response.js';
import type { PostBody } from './post-body.js';
import { SessionCounts, tooManySessionsMessage, type SessionLimits } from './session-limits.js';
import { SessionMetrics } from './session-metrics.js';

const SESSION_HEADER = 'mcp-session-id';

/** What the session leg needs from the handler. */
export interface SessionLegOptions {
  readonly limits: SessionLimits;
  /** Put in front of every session id (see `newSessionId`), when set. */
  readonly nodeId: string | undefined;
  readonly transportOptions: SessionContext['transportOptions'];
  /** Whom a request counts against (see `RequestClient`). */
  readonly clientOf: (req: IncomingMessage) => RequestClient;
  readonly auth: AuthGate | undefined;
  readonly onSessionOpened?: ((sessionId: string) => void) | undefined;
  readonly onSessionClosed?: ((sessionId: string, reason: SessionCloseReason) => void) | undefined;
}

/** The stateful 2025-era side of the HTTP handler. */
export interface SessionLeg extends HttpLeg {
  /** How many sessions are open. */
  readonly count: number;
}

/**
 * Serves 2025-era requests with sessions for `createHttpHandler` (after its Host/Origin, auth,
 * path, method, media type and body checks). A request with `Mcp-Session-Id` goes to its
 * session: an unknown or ended id, or a session of another principal (nothing tells it exists),
 * -> 404 `-32001 Session not found`. Without the header, only an `initialize` POST is accepted
 * (a body that is not JSON-RPC -> 400 `-32700 Parse error: Invalid JSON-RPC message`, anything
 * else -> 400 `Bad Request: Mcp-Session-Id header is required`); it makes a session (a fresh
 * server from `factory`), unless the caps say no: the client's own limit
 * (`maxSessionsPerPrincipal` or `maxSessionsPerAddress`) first, then `maxSessions` -> 503 with
 * `tooManySessionsMessage` and `Retry-After: 1`. A session being made counts against the caps
 * until it is registered or fails.
 */
export function createSessionLeg(factory: ServerFactory, options: SessionLegOptions): SessionLeg {
  const { limits, auth } = options;
  const sessions = new Map<string, HttpSession>();
  /** Sessions being created (their `initialize` not yet answered): they count against the caps. */
  let opening = 0;
  /** Sessions open or being created, by client (see `RequestClient`). */
  const perClient = new SessionCounts();
  /** The open-sessions gauge and session durations, when a meter provider is registered. */
  const metrics = new SessionMetrics();
  const context: SessionContext = {
    nodeId: options.nodeId,
    sessionIdleMs: limits.sessionIdleMs,
    unusedSessionIdleMs: limits.unusedSessionIdleMs,
    transportOptions: options.transportOptions,
    register: (session) => {
      sessions.set(session.id, session);
      metrics.opened(session);
      options.onSessionOpened?.(session.id);
    },
    unregister: (session, reason) => {
      if (sessions.get(session.id) !== session) return;
      sessions.delete(session.id);
      perClient.remove(session.client);
      metrics.closed(session);
      options.onSessionClosed?.(session.id, reason);
    },
  };

  const open = async (req: IncomingMessage, res: ServerResponse, body: PostBody): Promise<void> => {
    const client = options.clientOf(req);
    const full = sessionRefusal(client, perClient.of(client.key), sessions.size + opening, limits);
    if (full !== undefined) return sendJsonError(res, 503, JsonRpcCode.ServerError, full, { 'Retry-After': '1' });
    opening++;
    perClient.add(client.key);
    let session: HttpSession | undefined;
    try {
      session = await HttpSession.create(factory, context, client.key);
      auth?.bindSession(session, req);
      await session.handle(req, res, body, authInfoOf(req));
    } finally {
      opening--;
      // A registered session is counted until it ends (see unregister).
      if (session?.registered !== true) perClient.remove(client.key);
    }
    if (!session.registered) await session.server.close();
  };

  return {
    async serve(req, res, body) {
      const sessionId = req.headers[SESSION_HEADER];
      if (typeof sessionId === 'string' && sessionId !== '') {
        const session = sessions.get(sessionId);
        // A session of another principal is answered as an unknown one: nothing tells it exists.
        if (session === undefined || auth?.refusesSession(session, req) === true)
          return sendJsonError(res, 404, JsonRpcCode.SessionNotFound, 'Session not found');
        return session.handle(req, res, body, authInfoOf(req));
      }
      if (req.method === 'POST' && body.hasInitialize()) return open(req, res, body);
      if (req.method === 'POST' && !body.isJsonRpc())
        return sendJsonError(res, 400, JsonRpcCode.ParseError, 'Parse error: Invalid JSON-RPC message');
      return sendJsonError(res, 400, JsonRpcCode.ServerError, 'Bad Request: Mcp-Session-Id header is required');
    },
    async close() {
      await Promise.all([...sessions.values()].map((session) => session.close('closed')));
    },
    get count() {
      return sessions.size;
    },
  };
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

import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestId, Server } from '@modelcontextprotocol/server';
import { MAX_TIMEOUT_MS } from '../../../util/limits.js';
import type { ServerFactory } from '../server-factory.js';
import { InFlightCalls, type PostGroup } from './in-flight-calls.js';
import { TrackedHttpTransport } from './tracked-transport.js';
import { authOf, sendWebResponse, toWebRequest } from './web-bridge.js';

/**
 * Why a session ended: `deleted` by the client, `idle` expiry (`sessionIdleMs`), `unused` expiry
 * (`unusedSessionIdleMs`: nothing but `initialize` and notifications since it was made), or
 * `closed` by the server.
 */
export type SessionCloseReason = 'deleted' | 'idle' | 'unused' | 'closed';

/**
 * A fresh session id: 256 random bits, base64url (43 characters, all within 0x21-0x7E), after
 * `<nodeId>.` when a node id is given (so a balancer can route a session to its process by the
 * id alone).
 */
export function newSessionId(nodeId?: string): string {
  const random = randomBytes(32).toString('base64url');
  return nodeId === undefined ? random : `${nodeId}.${random}`;
}

/** What an `HttpSession` needs from its handler. */
export interface SessionContext {
  readonly sessionIdleMs: number;
  readonly unusedSessionIdleMs: number;
  readonly transportOptions: { readonly maxMessageBytes: number; readonly log: (message: string) => void };
  /** Put in front of every session id (see `newSessionId`), when set. */
  readonly nodeId: string | undefined;
  register(session: HttpSession): void;
  unregister(session: HttpSession, reason: SessionCloseReason): void;
}

/**
 * One stateful session: its server, its transport, its open requests and its idle timer. A
 * session is *unused* until it gets a JSON-RPC request other than `initialize` or a GET (its
 * stream); notifications and responses do not use it. An unused session is closed
 * `unusedSessionIdleMs` after its `initialize` was answered (a deadline that notifications do not
 * move), a used one after `sessionIdleMs` with no open request.
 */
export class HttpSession {
  id = '';
  registered = false;
  private used = false;
  /** When an unused session is closed (`performance.now()` time), set once its first request ended. */
  private unusedUntil: number | undefined;
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
    /** Whom the session counts against (see `RequestClient`). */
    readonly client: string,
  ) {
    this.calls = new InFlightCalls(transport);
  }

  static async create(factory: ServerFactory, context: SessionContext, client: string): Promise<HttpSession> {
    const server = factory();
    let session!: HttpSession;
    const transport = new TrackedHttpTransport({
      ...context.transportOptions,
      sessionIdGenerator: () => newSessionId(context.nodeId),
      onsessioninitialized: (id) => {
        session.id = id;
        session.registered = true;
        context.register(session);
      },
      onsessionclosed: () => {
        session.closeReason ??= 'deleted';
      },
    });
    session = new HttpSession(server, transport, context, client);
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
    if (req.method === 'GET' || messages.some(isUsingRequest)) this.used = true;
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
    let ms = this.context.sessionIdleMs;
    let reason: SessionCloseReason = 'idle';
    if (!this.used && Number.isFinite(this.context.unusedSessionIdleMs)) {
      this.unusedUntil ??= performance.now() + this.context.unusedSessionIdleMs;
      ms = Math.max(0, this.unusedUntil - performance.now());
      reason = 'unused';
    }
    if (!Number.isFinite(ms)) return;
    this.idleTimer = setTimeout(() => void this.close(reason).catch(() => undefined), Math.min(ms, MAX_TIMEOUT_MS));
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
export const closedResponses = new WeakSet<ServerResponse>();

export function hasClosed(res: ServerResponse): boolean {
  return res.destroyed || closedResponses.has(res);
}

/** True for a JSON-RPC request (a `method` and a string or number `id`) other than `initialize`. */
function isUsingRequest(message: unknown): boolean {
  if (typeof message !== 'object' || message === null) return false;
  const { method, id } = message as { method?: unknown; id?: unknown };
  return typeof method === 'string' && method !== 'initialize' && (typeof id === 'string' || typeof id === 'number');
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

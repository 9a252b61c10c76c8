import { randomBytes } from '../../../util/random.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/server';
import { MAX_TIMEOUT_MS } from '../../../util/limits.js';
import { connectsAsTheSdk } from '../direct-dispatch.js';
import type { ServerFactory } from '../server-factory.js';
import { NodeHttpServerTransport } from './node-http-transport.js';
import type { PostBody } from './post-body.js';

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
  private constructor(
    readonly server: Server,
    private readonly transport: NodeHttpServerTransport,
    private readonly context: SessionContext,
    /** Whom the session counts against (see `RequestClient`). */
    readonly client: string,
  ) {}

  static async create(factory: ServerFactory, context: SessionContext, client: string): Promise<HttpSession> {
    const server = factory();
    let session!: HttpSession;
    const transport = new NodeHttpServerTransport({
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
    if (connectsAsTheSdk(server)) transport.dispatchDirectlyTo(server);
    return session;
  }

  /**
   * Serves one request of this session (see `NodeHttpServerTransport.handle`), malformed
   * responses in its body replaced by their stand-ins (see `PostBody.withBadResponsesReplaced`).
   */
  async handle(req: IncomingMessage, res: ServerResponse, body: PostBody, authInfo: unknown): Promise<void> {
    // A client that already left would never fire 'close' again: nothing to serve or count.
    if (hasClosed(res)) return;
    this.openRequests++;
    clearTimeout(this.idleTimer);
    if (req.method === 'GET' || body.hasUsingRequest()) this.used = true;
    res.on('close', () => {
      this.openRequests--;
      // After DELETE (or any close) the session is over: a timer armed now would keep its
      // server and transport alive for sessionIdleMs (the leak of issue 7).
      if (!this.over && this.openRequests === 0) this.armIdleTimer();
    });
    await this.transport.handle(req, res, body.withBadResponsesReplaced(), authInfo);
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

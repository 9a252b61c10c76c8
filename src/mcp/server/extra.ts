import type { AuthInfoLike } from '../auth/principal.js';
import type { ClientCapabilities, RequestId, ServerContext } from '@modelcontextprotocol/server';
import type { LogLevel } from '../../contract/index.js';
import { isLogLevel } from './logging.js';

/** The `_meta` envelope key of a 2026-07-28 request that carries the client's capabilities. */
export const CLIENT_CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';
/** The `_meta` envelope key of a 2026-07-28 request that carries the log level the client wants for it. */
export const LOG_LEVEL_KEY = 'io.modelcontextprotocol/logLevel';

/** The protocol era a request was served in: `legacy` (2025-11-25 and older), `modern` (2026-07-28). */
export type ProtocolEra = 'legacy' | 'modern';

/**
 * The server span of the request being served (see `traceRequest`): its OpenTelemetry context
 * (with the span in it) and the span. Only when a tracer provider is registered.
 */
export interface RequestTrace {
  readonly context: unknown;
  readonly span: object;
}

/** A request the server sends to the client while it serves one of the client's requests. */
export interface OutboundRequest {
  readonly method: string;
  readonly params?: Record<string, unknown>;
  /** The key the request should get in a 2026-07-28 input round (the tool's choice), if any. */
  readonly key?: string;
}

/**
 * What toolwright's handlers know of the request they serve, independent of the SDK line: its
 * id, signal, session, `_meta`, era, the client's capabilities for it, and how to send a
 * notification or a request on its own stream. Built from the SDK's `ServerContext` by
 * `handlerExtraOf`; the MRTR layer builds its own for a parked run.
 */
export interface HandlerExtra {
  readonly requestId: RequestId;
  /** Fires on `notifications/cancelled`, a hang-up, or when the connection closes. */
  readonly signal: AbortSignal;
  /** The transport's session id (streamable HTTP with sessions), else `undefined`. */
  readonly sessionId: string | undefined;
  /** The request's `params._meta` (its `progressToken`, ...). */
  readonly _meta: Readonly<Record<string, unknown>> | undefined;
  /**
   * What the HTTP layer's authentication said of the request (its `clientId` names the principal),
   * else `undefined`.
   */
  /** The verified token's info, when the HTTP edge authenticated the request (see `principalOf`). */
  readonly authInfo: AuthInfoLike | undefined;
  readonly era: ProtocolEra;
  /**
   * The client's capabilities for this request: in the 2026-07-28 era the ones in the request's
   * own `_meta` envelope (never inferred from an earlier request), before it the ones the client
   * declared at `initialize`. `undefined` when there are none.
   */
  clientCapabilities(): ClientCapabilities | undefined;
  /**
   * The least severe level the client wants logged for this request in the 2026-07-28 era
   * (`_meta["io.modelcontextprotocol/logLevel"]`; `undefined` = no logging for this request).
   * Unused before that era, where `logging/setLevel` sets a level per session.
   */
  readonly requestLogLevel: LogLevel | undefined;
  /** The task this request's call runs as (set on a task's detached run), else `undefined`. */
  readonly taskId?: string;
  /** The request's server span, when it is traced (see `traceRequest`); else `undefined`. */
  readonly trace?: RequestTrace;
  /** Sends a notification related to this request, best effort (never rejects). */
  sendNotification(notification: OutboundRequest): Promise<void>;
  /**
   * Sends a request to the client related to this request and resolves its result (checked by
   * the SDK against the method's result schema). Only in the 2025 era: the 2026-07-28 era has no
   * server-to-client requests (the SDK rejects them).
   */
  sendRequest(request: OutboundRequest, options: { readonly signal: AbortSignal }): Promise<unknown>;
  /**
   * Sends a request to the client related to no request (over streamable HTTP it goes out on the
   * session's standalone stream, which outlives this request): what a task's run asks with once
   * the request that started it has been answered. 2025 era only; `undefined` elsewhere.
   */
  readonly sendDetachedRequest?: (
    request: OutboundRequest,
    options: { readonly signal: AbortSignal },
  ) => Promise<unknown>;
  /** The notification twin of `sendDetachedRequest`, best effort (never rejects). */
  readonly sendDetachedNotification?: (notification: OutboundRequest) => Promise<void>;
  /**
   * Turns the call served with this context into a task (the tool's `ctx.continueAsTask()`): set
   * only on a 2026-07-28 call of a `startsAsCall` task tool by a request that declares the tasks
   * extension (see `ParkedRun`); elsewhere `undefined`, and the tool's call resolves at once.
   */
  readonly continueAsTask?: () => Promise<void>;
}

/**
 * The part of the SDK `Server` `handlerExtraOf` reads: the capabilities declared at `initialize`,
 * and its own `request` and `notification` (related to no request).
 */
export interface ClientCapabilitiesHolder {
  getClientCapabilities(): ClientCapabilities | undefined;
  request?(request: OutboundRequest, options: { readonly signal: AbortSignal }): Promise<unknown>;
  notification?(notification: OutboundRequest): Promise<void>;
}

/** The era of the request `ctx` serves: `modern` when it carries the 2026-07-28 `_meta` envelope, else `legacy`. */
export function eraOf(ctx: Pick<ServerContext, 'mcpReq'>): ProtocolEra {
  return ctx.mcpReq.envelope === undefined ? 'legacy' : 'modern';
}

/** Where an extra keeps the SDK context its `signal` is read from (see `handlerExtraOf`). */
const REQUEST_CONTEXT = Symbol('toolwright.requestContext');

/**
 * The `signal` getter every extra shares (one function, not a closure per extra: an accessor of
 * its own gives each object a hidden class of its own in V8).
 */
function requestSignal(this: { readonly [REQUEST_CONTEXT]: ServerContext }): AbortSignal {
  return this[REQUEST_CONTEXT].mcpReq.signal;
}

const REQUEST_SIGNAL: PropertyDescriptor = Object.freeze({ get: requestSignal, enumerable: true });

/**
 * Builds the `HandlerExtra` of one request from the SDK's `ServerContext`. The era is `modern`
 * when the request carries the 2026-07-28 `_meta` envelope (the SDK requires and validates it in
 * that era, and strips it from `_meta`), else `legacy`. Its `signal` reads `ctx.mcpReq.signal` each
 * time, so a signal the transport makes on first read (see `toolCallAnswererOf`) is made only
 * when a handler looks at it.
 */
export function handlerExtraOf(server: ClientCapabilitiesHolder, ctx: ServerContext): HandlerExtra {
  const envelope = ctx.mcpReq.envelope as Readonly<Record<string, unknown>> | undefined;
  const era = eraOf(ctx);
  const level = envelope?.[LOG_LEVEL_KEY];
  const extra = {
    requestId: ctx.mcpReq.id,
    sessionId: ctx.sessionId,
    _meta: ctx.mcpReq._meta as Readonly<Record<string, unknown>> | undefined,
    authInfo: ctx.http?.authInfo as AuthInfoLike | undefined,
    era,
    clientCapabilities: () =>
      era === 'modern'
        ? (envelope?.[CLIENT_CAPABILITIES_KEY] as ClientCapabilities | undefined)
        : server.getClientCapabilities(),
    requestLogLevel: isLogLevel(level) ? level : undefined,
    sendNotification: (notification) => ctx.mcpReq.notify(notification as never).catch(() => {}),
    // The input-round `key` is toolwright's own: a pushed request carries only its method and params
    // (a request with another member never reaches the client, and the question would hang).
    sendRequest: ({ method, params }, options) =>
      ctx.mcpReq.send((params === undefined ? { method } : { method, params }) as never, { signal: options.signal }),
    ...(era === 'legacy' && typeof server.request === 'function' && typeof server.notification === 'function'
      ? {
          sendDetachedRequest: ({ method, params }, options) =>
            server.request!(params === undefined ? { method } : { method, params }, { signal: options.signal }),
          sendDetachedNotification: (notification) => server.notification!(notification).catch(() => {}),
        }
      : {}),
    [REQUEST_CONTEXT]: ctx,
  } as Omit<HandlerExtra, 'signal'>;
  // Read through, not copied: a transport may make the request's signal only when it is read.
  Object.defineProperty(extra, 'signal', REQUEST_SIGNAL);
  return extra as HandlerExtra;
}

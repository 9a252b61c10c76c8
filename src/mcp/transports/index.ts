export type { ServerFactory } from './server-factory.js';
export { JsonRpcCode, jsonRpcError, type JsonRpcErrorBody } from './jsonrpc-error.js';
export {
  HardenedStdioTransport,
  type HardenedStdioTransportOptions,
  type StdioCloseReason,
} from './stdio/stdio-transport.js';
export {
  connectStdio,
  DEFAULT_MAX_LINE_BYTES,
  DEFAULT_SHUTDOWN_TIMEOUT_MS,
  type StdioOptions,
  type StdioHandle,
} from './stdio/connect-stdio.js';
export {
  createHttpHandler,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_SESSION_IDLE_MS,
  DEFAULT_UNUSED_SESSION_IDLE_MS,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_MAX_SESSIONS_PER_PRINCIPAL,
  DEFAULT_MAX_SESSIONS_PER_ADDRESS,
  tooManySessionsMessage,
  type SessionLimit,
  type ForwardedHeader,
  type ForwardedOptions,
  type HttpHandlerOptions,
  type McpHttpHandler,
  type SessionCloseReason,
} from './http/http-handler.js';
export { listenHttp, type HttpOptions, type HttpHandle } from './http/listen-http.js';
export { DEFAULT_LIVE_PATH, DEFAULT_READY_PATH, type HealthOptions, type HealthCheckResult } from './http/health.js';
export { createHostOriginGuard, type HostOriginGuard, type HostOriginGuardOptions } from './http/host-origin-guard.js';
export { serveStdio, type ServeStdioOptions, type ServeStdioHandle } from './serve-stdio.js';
export { serveHttp, type ServeHttpOptions, type ServeHttpHandle } from './serve-http.js';
export { DEFAULT_MAX_MESSAGE_BYTES } from './outgoing.js';
export { keepServingOnFloatingRejections, FLOATING_REJECTION_PREFIX } from './process-guard.js';

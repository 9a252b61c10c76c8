import { optionKeys } from '../util/options.js';
import { CALL_CORE_OPTION_KEYS } from '../runtime/internal.js';
import type { ServerOptions } from './server/add-tools.js';
import type { HttpHandlerOptions } from './transports/http/http-handler.js';
import type { ServeHttpOptions } from './transports/serve-http.js';
import type { ServeStdioOptions } from './transports/serve-stdio.js';
import type { ConsumeOptions } from './client/options.js';
import type { ConnectServerOptions } from './client/connect-server.js';
import type { ProxyOptions } from './proxy/create-proxy.js';

/*
 * The known option keys of the MCP edge's public entry points, for the one options checker
 * (`checkOptionsObject`: an unknown key is refused naming the entry point and these keys). Each
 * list is checked against its options type by the compiler (`optionKeys`), so a key added to a
 * type and left out here fails the build.
 */

const CALL_CORE = CALL_CORE_OPTION_KEYS;
const FEATURES = ['resources', 'prompts', 'changes', 'listPageSize'] as const;
const SERVER = ['scheduling', 'hideForbiddenTools', 'inputRounds', 'replay'] as const;
const PROFILE = ['schemaProfile', 'recursionDepth'] as const;
const HTTP_HANDLER = [
  'path',
  'stateless',
  'allowedHosts',
  'allowedOrigins',
  'maxBodyBytes',
  'sessionIdleMs',
  'unusedSessionIdleMs',
  'maxSessions',
  'maxSessionsPerPrincipal',
  'maxSessionsPerAddress',
  'forwarded',
  'maxMessageBytes',
  'onSessionOpened',
  'onSessionClosed',
  'auth',
  'onError',
  'changeEvents',
] as const;
const STDIO = [
  'stdin',
  'stdout',
  'maxLineBytes',
  'maxMessageBytes',
  'shutdownTimeoutMs',
  'handleSignals',
  'exitProcess',
  'guardStdout',
  'log',
] as const;
const CONSUME = [
  'server',
  'prefix',
  'permission',
  'trustServerAnnotations',
  'trustClaims',
  'executionMode',
  'timeoutMs',
  'maxLLMChars',
  'policy',
  'elicit',
] as const;

/** A key list once each (a key two option types share, such as `log`, is listed once). */
function unique(keys: readonly string[]): readonly string[] {
  return Object.freeze([...new Set(keys)]);
}

/** `createServer`'s options. */
export const CREATE_SERVER_KEYS = unique(
  optionKeys<ServerOptions>()(...CALL_CORE, ...FEATURES, ...SERVER, 'transport'),
);
/** `serveStdio`'s options. */
export const SERVE_STDIO_KEYS = unique(
  optionKeys<ServeStdioOptions>()(...STDIO, ...CALL_CORE, ...FEATURES, ...SERVER, ...PROFILE),
);
/** `serveHttp`'s options. */
export const SERVE_HTTP_KEYS = unique(
  optionKeys<ServeHttpOptions>()('host', 'port', ...HTTP_HANDLER, ...CALL_CORE, ...FEATURES, ...SERVER, ...PROFILE),
);
/** `createHttpHandler`'s options. */
export const HTTP_HANDLER_KEYS = optionKeys<HttpHandlerOptions>()(...HTTP_HANDLER);
/** `connectTools`'s options. */
export const CONNECT_TOOLS_KEYS = optionKeys<ConsumeOptions>()(...CONSUME);
/** `connectServer`'s options. */
export const CONNECT_SERVER_KEYS = optionKeys<ConnectServerOptions>()(
  ...CONSUME,
  'clientInfo',
  'onToolsChanged',
  'onRefreshError',
  'onFeaturesChanged',
  'onResourceUpdated',
);
/** `createProxy`'s options. */
export const CREATE_PROXY_KEYS = optionKeys<ProxyOptions>()(
  'info',
  'policy',
  'maxLLMChars',
  'maxOutputChars',
  'trustClaims',
  'elicit',
  'stderr',
  'onError',
  'onRecord',
);

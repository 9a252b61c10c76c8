import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ServerCapabilities, ServerResult } from '@modelcontextprotocol/sdk/types.js';
import { isJsonObject, type ContractTool, type Session } from '../../contract/index.js';
import { kindOf } from '../../util/describe.js';
import type { HandlerExtra } from './extra.js';
import { answerToolCall } from './call.js';
import { FACTS_CAPABILITY } from './constants.js';
import { answerFacts } from './facts.js';
import { LOG_LEVELS, isLogLevel } from './logging.js';
import { invalidParams } from './protocol-error.js';
import { CallToolRequest, FactsRequest, ListToolsRequest, SetLevelRequest } from './request-schemas.js';
import { servedToolsOf, type ServedTool } from './served-tools.js';
import type { CallCoreOptions } from '../../runtime/call/index.js';
import { configureScheduling, type SchedulingOption } from './scheduling.js';
import { attachState, stateOf, type ServerState } from './state.js';
import { callableDefinitions } from '../auth/tool-scopes.js';

/**
 * Options for `createServer` and `addTools`: the call-core options every host takes (`policy`,
 * `interceptors`, `timeoutMs`, `maxOutputChars`, `validator`; see `CallCoreOptions`), and the
 * transport kind.
 */
export interface ServerOptions extends CallCoreOptions {
  /**
   * The kind of transport the server will be connected to, reported as `session.transport` to
   * every call (`'stdio'`, `'http'`, `'memory'`); default `'other'`. The transports set it.
   */
  readonly transport?: Session['transport'];
  /**
   * How the server schedules the calls it receives by their tools' `sequential`, `barrier` and
   * `resource` claims (see `SchedulingOptions`; default: on, per session, 16 calls at once), or
   * `false` to switch enforcement off for a host that schedules calls itself (the claims are
   * still listed in `_meta`).
   */
  readonly scheduling?: SchedulingOption;
  /**
   * When `true`, `tools/list` leaves out the tools whose `scopes` the caller's token lacks (only
   * where there is a principal: HTTP served with `auth`). Default `false`: every tool is listed,
   * and a call without the scopes is refused.
   */
  readonly hideForbiddenTools?: boolean;
}

/**
 * The SDK `Server` members `addTools` relies on, checked by shape, never with `instanceof` (a
 * CommonJS app may load the SDK twice). `getCapabilities` is public at run time but typed
 * private, so it is read through this view.
 */
type ServerLike = Pick<Server, 'setRequestHandler' | 'registerCapabilities' | 'getClientCapabilities'> & {
  readonly transport?: unknown;
  getCapabilities(): ServerCapabilities;
};

/**
 * Serves `tools` on an SDK low-level `Server` the caller already has: registers `tools/list`,
 * `tools/call`, `execution/facts` and `logging/setLevel` (which then drives `ctx.log`'s
 * filtering). Before the server is connected it also registers the capabilities it needs
 * (`tools`, `logging`, `experimental[FACTS_CAPABILITY]`), merged into the server's own. Once
 * connected, capabilities cannot change: the server must then already have `tools` (else this
 * throws), and without `logging` no log messages are sent and `logging/setLevel` is left alone.
 * Throws, naming the tool, on a duplicate name or a bad schema, and on bad options (see `prepareTools`), and when
 * called twice on one server (pass every tool in one call). Handlers the server had for these
 * methods are replaced. The SDK's own `logging/setLevel` handler is among them, so the SDK's
 * `server.sendLoggingMessage` no longer filters by the client's level; tools log with `ctx.log`,
 * which does, and sends on the call's own stream (which HTTP needs).
 */
export function addTools(server: Server, tools: readonly ContractTool[], options: ServerOptions = {}): void {
  const target = server as unknown as ServerLike;
  if (typeof target !== 'object' || target === null || typeof target.setRequestHandler !== 'function' || typeof target.getCapabilities !== 'function' || typeof target.registerCapabilities !== 'function') {
    throw new TypeError('addTools: expected a low-level Server from @modelcontextprotocol/sdk/server/index.js (for an McpServer, pass mcpServer.server)');
  }
  serveTools(server, servedToolsOf(tools, 'addTools', options), options);
}

/** Registers prepared tools on `server` (see `addTools`); `createServer` prepares them first. */
export function serveTools(server: Server, prepared: ReadonlyMap<string, ServedTool>, options: ServerOptions): void {
  const target = server as unknown as ServerLike;
  if (stateOf(server) !== undefined) throw new Error('addTools: this server already serves toolwright tools; pass every tool in one call');
  if (target.transport === undefined) {
    target.registerCapabilities({ tools: {}, logging: {}, experimental: { ...target.getCapabilities().experimental, [FACTS_CAPABILITY]: {} } });
  } else if (target.getCapabilities().tools === undefined) {
    throw new Error('addTools: the server is already connected without the "tools" capability; call addTools before connect, or construct the Server with capabilities: { tools: {} }');
  }
  const logging = target.getCapabilities().logging !== undefined;
  const state: ServerState = { tools: prepared, transport: options.transport ?? 'other', logging, validator: options.validator, session: undefined, logLevels: new Map() };
  attachState(server, state);
  configureScheduling(state, options.scheduling);
  const definitions = [...prepared.values()].map((served) => served.definition);
  target.setRequestHandler(ListToolsRequest, (_request, extra) => ({ tools: options.hideForbiddenTools === true ? callableDefinitions(prepared, extra.authInfo) : definitions }) as ServerResult);
  // Registered past the SDK Server's own tools/call wrapper, which zod-parses every request and
  // result again and answers malformed params with a zod dump: answerToolCall checks the params
  // itself (-32602 with a readable message) and only ever returns results outputProblemOf approved.
  baseSetRequestHandler(target)(CallToolRequest, (request: { params?: unknown }, extra: HandlerExtra) => answerToolCall(target, state, request.params, extra));
  target.setRequestHandler(FactsRequest, (request, extra) => answerFacts(target, state, request.params, extra) as unknown as Promise<ServerResult>);
  if (logging) {
    target.setRequestHandler(SetLevelRequest, (request, extra) => {
      const level = isJsonObject(request.params) ? request.params.level : undefined;
      if (!isLogLevel(level)) throw invalidParams(`logging/setLevel: unknown level ${shownLevel(level)}; use one of ${LOG_LEVELS.join(', ')}`);
      state.logLevels.set(extra.sessionId ?? '', level);
      return {};
    });
  }
}

/**
 * The request-handler registration of the SDK's `Protocol` base class (the deepest
 * `setRequestHandler` on the server's prototype chain, so a subclass or a second copy of the SDK
 * is found the same way), bound to `server`.
 */
function baseSetRequestHandler(server: ServerLike): (schema: typeof CallToolRequest, handler: (request: { params?: unknown }, extra: HandlerExtra) => Promise<unknown>) => void {
  let found: unknown = undefined;
  for (let proto: object | null = Object.getPrototypeOf(server); proto !== null; proto = Object.getPrototypeOf(proto)) {
    if (Object.prototype.hasOwnProperty.call(proto, 'setRequestHandler')) found = (proto as { setRequestHandler: unknown }).setRequestHandler;
  }
  if (typeof found !== 'function') throw new TypeError('addTools: the server has no setRequestHandler on its prototype chain');
  return (found as Function).bind(server) as ReturnType<typeof baseSetRequestHandler>;
}

/**
 * How an unknown `logging/setLevel` level is named in the error: a primitive as JSON (`"loud"`,
 * `5`, `null` when missing), an array or object only by its kind, since a client's value can be
 * nested too deeply for `JSON.stringify` (which would throw a RangeError and turn a -32602 into
 * a -32603 `Maximum call stack size exceeded`).
 */
function shownLevel(level: unknown): string {
  return typeof level === 'object' && level !== null ? kindOf(level) : JSON.stringify(level ?? null);
}

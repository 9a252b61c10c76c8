import type { JSONRPCRequest, Server, ServerCapabilities, ServerContext } from '@modelcontextprotocol/server';
import { ProtocolErrorCode } from '@modelcontextprotocol/server';
import { isJsonObject, principalKey, type ContractTool, type JsonObject } from '../../contract/index.js';
import { kindOf } from '../../util/describe.js';
import { eraOf, handlerExtraOf, type HandlerExtra } from './extra.js';
import { answerToolCall } from './call.js';
import { FACTS_CAPABILITY, FACTS_METHOD } from './constants.js';
import { answerFacts } from './facts.js';
import { LOG_LEVELS, isLogLevel } from './logging.js';
import { invalidParams, ProtocolError } from './protocol-error.js';
import { hinted } from './cache-hints.js';
import { LiveSet } from './live-set.js';
import { servedSetFacade, type ServedSet } from './served-set.js';
import { answerModernToolCall } from './input-rounds/modern-call.js';
import { ParkedRuns, type RunBinding } from './input-rounds/parked-runs.js';
import { attachState, stateOf, type ServerState } from './state.js';
import { ToolServerState } from './tool-server-state.js';
import { callableDefinitions } from '../auth/tool-scopes.js';
import { ownHandlersOf } from './own-handlers.js';
import { principalOf } from '../auth/principal.js';
import { principalClientKey, recordedClientOf } from './request-client.js';
import { taskCapabilities, taskRunnerOf } from './tasks/serve-tasks.js';
import { startToolTask, taskMethods, taskModeOf, type TaskServing } from './tasks/task-methods.js';
import { connectionOwnerOf } from './tasks/task-owner.js';
import { escalationOf } from './tasks/task-escalation.js';
import { SERVER_STOPPED_TEXT } from './tasks/constants.js';
import { traceRequest } from './request-span.js';
import type { ServerOptions } from './server-options.js';

export type { ServerOptions } from './server-options.js';

/**
 * The SDK `Server` members `addTools` relies on, checked by shape, never with `instanceof` (a
 * CommonJS app may load the SDK twice).
 */
type ServerLike = Pick<
  Server,
  'setRequestHandler' | 'removeRequestHandler' | 'registerCapabilities' | 'getClientCapabilities' | 'getCapabilities'
> & {
  readonly transport?: unknown;
  onclose?: () => void;
  fallbackRequestHandler?: (request: JSONRPCRequest, ctx: ServerContext) => Promise<Record<string, unknown>>;
};

/**
 * Serves `tools` on an SDK low-level `Server` (`@modelcontextprotocol/server`) the caller already
 * has: answers `tools/list`, `tools/call`, `execution/facts` and `logging/setLevel` (which then
 * drives `ctx.log`'s filtering in the 2025 era). Before the server is connected it also registers
 * the capabilities it needs (`tools` with `listChanged`, `logging`,
 * `experimental[FACTS_CAPABILITY]`), merged into the server's own. Once connected, capabilities
 * cannot change: the server must then already have `tools` (else this throws), and without
 * `logging` no log messages are sent and `logging/setLevel` is left alone. Throws, naming the
 * tool, on a duplicate name or a bad schema, and on bad options (see `prepareTools`).
 *
 * Called again on the same server (the Go seed's `AddTools` may be), it adds `tools` to the ones
 * served, a name served already replaced by the one added last, prepared with the options of the
 * first call (give none the second time: options then throw), and the client is told (see
 * `ServedSet`; `servedSetOf(server)` removes tools, too). A change that is refused throws a
 * `SetChangeError` and changes nothing.
 *
 * `tools/call`, `execution/facts` and `logging/setLevel` are answered through the server's
 * `fallbackRequestHandler`, with the SDK's own handlers for them removed: the SDK parses every
 * request and result of a registered spec method with zod (a malformed `tools/call` would get a
 * zod dump, a result would be parsed twice), while toolwright checks params itself (`-32602` with
 * a readable message) and returns only results it checked. A fallback handler the server already
 * had keeps answering every other method. The SDK's `server.sendLoggingMessage` no longer filters
 * by the client's level; tools log with `ctx.log`, which does, on the call's own stream.
 */
export function addTools(server: Server, tools: readonly ContractTool[], options: ServerOptions = {}): void {
  const target = server as unknown as ServerLike;
  if (
    typeof target !== 'object' ||
    target === null ||
    typeof target.setRequestHandler !== 'function' ||
    typeof target.getCapabilities !== 'function' ||
    typeof target.registerCapabilities !== 'function' ||
    typeof target.removeRequestHandler !== 'function'
  ) {
    throw new TypeError(
      'addTools: expected a low-level Server from @modelcontextprotocol/server (for an McpServer, pass mcpServer.server)',
    );
  }
  const live = liveSets.get(server);
  if (live !== undefined) {
    if (typeof options !== 'object' || options === null || Object.keys(options).length > 0)
      throw new TypeError(
        'addTools: this server already serves toolwright tools, prepared with the options of the first call; call addTools(server, tools) without options to add or replace tools',
      );
    live.update({ addTools: tools }, 'addTools');
    return;
  }
  const set = new LiveSet({ where: 'addTools', tools, options: toolsOnly(options) });
  serveTools(server, set, options);
  closeWithServer(server, set);
}

/** `options` without what `addTools` does not serve (resources and prompts: see `createServer`). */
function toolsOnly(options: ServerOptions): ServerOptions {
  const { resources: _resources, prompts: _prompts, ...rest } = options;
  return rest;
}

/** The live set of every server `serveTools` served, for `addTools` called again and `servedSetOf`. */
const liveSets = new WeakMap<object, LiveSet>();

/**
 * What `server` (one `createServer` made, or one `addTools` served) serves, and how to change it
 * while its client is connected (see `ServedSet`); `undefined` for a server toolwright does not
 * serve. A server of `serveStdio` or `serveHttp` belongs to their handle's set, which this is too.
 */
export function servedSetOf(server: object): ServedSet | undefined {
  const live = liveSets.get(server);
  return live === undefined ? undefined : servedSetFacade(live);
}

/** Stops `live` relaying the application's changes once `server` closes (a set of its own). */
export function closeWithServer(server: Server, live: LiveSet): void {
  const target = server as unknown as ServerLike;
  const previous = target.onclose;
  target.onclose = () => {
    live.close();
    previous?.();
  };
}

/**
 * Registers the tools of `live` on `server` (see `addTools`); `createServer` and the transports
 * prepare the set first.
 */
export function serveTools(
  server: Server,
  live: LiveSet,
  options: ServerOptions,
  runs: ParkedRuns = new ParkedRuns(options.inputRounds),
): void {
  const target = server as unknown as ServerLike;
  if (stateOf(server) !== undefined)
    throw new Error('addTools: this server already serves toolwright tools; pass every tool in one call');
  const runner = taskRunnerOf(live.source, live.tools, options.tasks);
  if (target.transport === undefined) {
    target.registerCapabilities({
      tools: { listChanged: true },
      logging: {},
      experimental: { ...target.getCapabilities().experimental, [FACTS_CAPABILITY]: {} },
      ...(runner === undefined
        ? {}
        : taskCapabilities((target.getCapabilities() as { extensions?: unknown }).extensions)),
    } as ServerCapabilities);
  } else if (target.getCapabilities().tools === undefined) {
    throw new Error(
      'addTools: the server is already connected without the "tools" capability; call addTools before connect, or construct the Server with capabilities: { tools: {} }',
    );
  }
  const logging = target.getCapabilities().logging !== undefined;
  const state: ServerState = new ToolServerState(live, options, runs, logging);
  attachState(server, state);
  liveSets.set(server, live);
  const listTools = (ctx: ServerContext): Record<string, unknown> => listedToolsOf(live, options, ctx);
  target.setRequestHandler('tools/list', ((request: { readonly params?: unknown }, ctx: ServerContext) =>
    state.traced
      ? traceRequest('tools/list', request.params, ctx, handlerExtraOf(target, ctx), state.transport, () =>
          listTools(ctx),
        )
      : listTools(ctx)) as never);
  const own = ownHandlersOf(server);
  const execute = (params: unknown) => (extra: HandlerExtra) =>
    answerToolCall(state, params, extra) as unknown as Promise<Record<string, unknown>>;
  // On stateless HTTP every 2026-era request has a server of its own: a parked call belongs to no
  // connection there. Elsewhere (stdio, in memory) the server is the connection, and its close
  // stops the calls parked for it.
  const connection = state.transport === 'http' ? undefined : (server as object);
  const serving: TaskServing | undefined =
    runner === undefined
      ? undefined
      : {
          runner,
          get tools() {
            return live.tools;
          },
          connection,
        };
  if (connection !== undefined) {
    const previousOnClose = target.onclose;
    target.onclose = () => {
      runs.endConnection(connection);
      // The tasks of a connection (stdio, in memory) cannot be reached once it closes: its server stopped.
      if (runner !== undefined) void runner.stop(SERVER_STOPPED_TEXT, 0, connectionOwnerOf(connection));
      previousOnClose?.();
    };
  }
  const tasks = serving === undefined ? undefined : taskMethods(serving);
  if (tasks !== undefined) for (const [method, handler] of tasks) if (!SDK_ROUTED.has(method)) own.set(method, handler);
  own.set('tools/call', (params, extra, ctx) => {
    const mode = serving === undefined ? undefined : taskModeOf(live.tools, params, extra);
    if (serving !== undefined && mode?.mode === 'task')
      return startToolTask(serving, mode.served, params, extra, (p, e) => execute(p)(e), mode.ttlMs);
    if (extra.era === 'legacy') return execute(params)(extra);
    // A startsAsCall task tool runs as a plain call until it continues as a task.
    const escalation =
      serving !== undefined && mode?.mode === 'starts-as-call' ? escalationOf(serving, mode.served) : undefined;
    const binding = bindingOf(ctx, connection);
    return answerModernToolCall(runs, binding, params, extra, ctx, execute(params), undefined, escalation);
  });
  own.set(
    FACTS_METHOD,
    (params, extra) => answerFacts(state, params, extra) as unknown as Promise<Record<string, unknown>>,
  );
  if (logging) {
    own.set('logging/setLevel', (params, extra) => {
      const level = isJsonObject(params) ? params.level : undefined;
      if (!isLogLevel(level))
        throw invalidParams(
          `logging/setLevel: unknown level ${shownLevel(level)}; use one of ${LOG_LEVELS.join(', ')}`,
        );
      state.logLevels.set(extra.sessionId ?? '', level);
      return {};
    });
  }
  for (const method of own.keys()) target.removeRequestHandler(method);
  // The SDK answers tasks/get and tasks/cancel "Method not found" in the 2026-07-28 era unless they are
  // registered with a params schema of their own (the extension reuses the 2025 names): so they are.
  if (tasks !== undefined)
    for (const method of SDK_ROUTED)
      (target.setRequestHandler as unknown as RegisterWithSchema)(method, { params: ANY_PARAMS }, (params, ctx) =>
        tasks.get(method)!(params, handlerExtraOf(target, ctx), ctx),
      );
  const previous = target.fallbackRequestHandler;
  target.fallbackRequestHandler = async (request, ctx) => {
    const handler = own.get(request.method);
    if (handler !== undefined) {
      const extra = handlerExtraOf(target, ctx);
      if (!state.traced) return handler(request.params, extra, ctx);
      return traceRequest(request.method, request.params, ctx, extra, state.transport, (traced) =>
        handler(request.params, traced, ctx),
      );
    }
    if (previous !== undefined) return previous(request, ctx);
    throw new ProtocolError(ProtocolErrorCode.MethodNotFound, 'Method not found');
  };
}
/** The task methods registered with the SDK rather than answered by the fallback (see `serveTools`). */
const SDK_ROUTED: ReadonlySet<string> = new Set(['tasks/get', 'tasks/cancel']);

/** A Standard Schema that accepts any params: toolwright's task handlers check their own. */
const ANY_PARAMS = { '~standard': { version: 1, vendor: 'toolwright', validate: (value: unknown) => ({ value }) } };

type RegisterWithSchema = (
  method: string,
  schemas: { readonly params: unknown },
  handler: (params: unknown, ctx: ServerContext) => Promise<Record<string, unknown>> | Record<string, unknown>,
) => void;

/**
 * The `tools/list` result of `live` for the request of `ctx`: every tool's definition (only the
 * ones the caller's token may call, with `hideForbiddenTools`), with the caching hints of the
 * request's era (see `hinted`).
 */
export function listedToolsOf(live: LiveSet, options: ServerOptions, ctx: ServerContext): Record<string, unknown> {
  const tools =
    options.hideForbiddenTools === true ? callableDefinitions(live.tools, authInfoOf(ctx)) : live.definitions;
  return hinted({ tools: [...tools] }, eraOf(ctx), () => live.hintOf('tools/list'));
}

/**
 * Whom a 2026-07-28 call of `ctx` belongs to: the `principalKey` of its verified principal (when
 * the HTTP edge authenticated it), and the client it counts against for `maxParkedPerClient`:
 * the one the HTTP edge recorded for the request (its principal or its address), else its
 * principal, else the connection (stdio, in memory), else nobody in particular.
 */
export function bindingOf(ctx: ServerContext, connection: object | undefined): RunBinding {
  const verified = principalOf(ctx.http?.authInfo);
  const principal = verified === undefined ? undefined : principalKey(verified);
  const client =
    recordedClientOf(ctx.http?.req) ?? (principal === undefined ? connection : principalClientKey(principal));
  return { connection, principal, ...(client === undefined ? {} : { client }) };
}

/**
 * The request methods `server` answers: the ones registered with the SDK (read from the SDK
 * `Protocol`'s handler map, which is private: `undefined` when it cannot be read, for instance
 * on another SDK version) plus the ones toolwright answers through the fallback handler. The
 * HTTP handler uses it to answer an unknown 2026-07-28 method with HTTP 404, as the revision
 * asks (the SDK answers a handled method's errors with 200).
 */
export function answeredMethodsOf(server: object): ReadonlySet<string> | undefined {
  const registered = (server as { _requestHandlers?: unknown })._requestHandlers;
  if (!(registered instanceof Map)) return undefined;
  const methods = new Set<string>([...registered.keys()].filter((key): key is string => typeof key === 'string'));
  for (const method of ownHandlersOf(server).keys()) methods.add(method);
  return methods;
}

/** Where `server` parks its 2026-07-28-era calls (toolwright's servers only), else `undefined`. */
export function parkedRunsOf(server: object): ParkedRuns | undefined {
  return stateOf(server)?.runs;
}

/** The input schema `server` lists for the tool `name` (toolwright's tools only), else `undefined`. */
export function listedInputSchemaOf(server: object, name: string): JsonObject | undefined {
  const schema = stateOf(server)?.tools.get(name)?.definition.inputSchema;
  return isJsonObject(schema) ? (schema as JsonObject) : undefined;
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

/**
 * The verified token's info of a request, where the transport put it (`ctx.http.authInfo` in SDK
 * 2.x, `authInfo` before).
 */
function authInfoOf(ctx: unknown): Parameters<typeof callableDefinitions>[1] {
  const given = ctx as { readonly http?: { readonly authInfo?: unknown }; readonly authInfo?: unknown } | undefined;
  return (given?.http?.authInfo ?? given?.authInfo) as Parameters<typeof callableDefinitions>[1];
}

import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import { DiscoveryService, ExternalContextCreator, HttpAdapterHost, ModuleRef, ModulesContainer } from '@nestjs/core';
import type { Server as NetServer } from 'node:net';
import type { Server } from '@modelcontextprotocol/server';
import type { CompileOptions } from '../compiler/index.js';
import type { ContractTool, Session } from '../contract/index.js';
// The edge's narrower faces, so the module never loads the client and proxy parts of toolwright/mcp.
import {
  connectStdio,
  createHttpHandler,
  DEFAULT_SHUTDOWN_TIMEOUT_MS,
  type McpHttpHandler,
  type StdioHandle,
} from '../mcp/transports/index.js';
import type { ServerInfo, ServerOptions } from '../mcp/server/index.js';
import { PROTECTED_RESOURCE_METADATA_PATH, type AuthOptions } from '../mcp/auth/index.js';
import {
  ParkedRuns,
  changeBusOf,
  servedFeaturesOf,
  servedToolsOf,
  serverFor,
  toolScopesOf,
  type ProtocolEra,
  type ServedFeatures,
  type ServedTool,
} from '../mcp/internal.js';
import { ServerChanges } from '../mcp/server/index.js';
import { discoverFeatures, nestFeatures } from './nest-features.js';
import { registerCompiledEntry } from '../compiler/internal.js';
import { discoverTools, scopedGlobalEnhancers } from './discover.js';
import { CallDrain } from './drain.js';
import { mountHandler } from './http-mount.js';
import { nestTools } from './nest-tool.js';
import { OpenResponses } from './open-responses.js';
import { DEFAULT_MCP_PATH, TOOLWRIGHT_OPTIONS, type ToolwrightModuleOptions } from './options.js';
import { callOptionsOf, compileOptionsOf, type ProviderLookup } from './provided-options.js';
import { listeningUrlOf } from './listening-url.js';

/** The application's node HTTP server, as far as the start log needs it. */
interface HttpServerLike {
  readonly listening?: boolean;
  address(): ReturnType<NetServer['address']>;
  once?(event: 'listening', listener: () => void): unknown;
}

/**
 * How long a shutdown waits, past its deadline, for the answers of the calls it ended at the
 * deadline (see `CallDrain`) to be written.
 */
const LAST_ANSWERS_MS = 1000;

/** How many tool names the start log line lists before it says how many more there are. */
const NAMES_LOGGED = 10;

/** `3 tools: a, b, c` (at most `NAMES_LOGGED` names, then `and N more`). */
function toolsSummary(tools: readonly ContractTool[]): string {
  const names = tools.slice(0, NAMES_LOGGED).map((tool) => tool.name);
  const more = tools.length > NAMES_LOGGED ? ` and ${tools.length - NAMES_LOGGED} more` : '';
  return `${tools.length} ${tools.length === 1 ? 'tool' : 'tools'}${names.length === 0 ? '' : ': '}${names.join(', ')}${more}`;
}

/**
 * The MCP server of a Nest application, made by `ToolwrightModule`. At module init it discovers
 * every `@Tool` provider of the application (see `discoverTools`), and every `@StaticResource`,
 * `@ResourceTemplate` and `@Prompt` provider (see `discoverFeatures` and `nestFeatures`: served
 * the same way, inside Nest's guards, interceptors and filters), builds the served tools (see
 * `nestTools`, compiled with the `TOOLWRIGHT_COMPILE_OPTIONS` and `TOOLWRIGHT_VALIDATOR`
 * providers when there are any), prepares them once for the call core with the options the
 * application provides (`TOOLWRIGHT_CALL_OPTIONS`, `TOOLWRIGHT_POLICY`, `TOOLWRIGHT_OUTPUT_LIMITS`,
 * `TOOLWRIGHT_VALIDATOR`; see `callOptionsOf`), and with transport `'http'` mounts the streamable
 * HTTP endpoint on the application's HTTP server (see `mountHandler`; with `auth`, also the
 * protected resource metadata paths). With `'stdio'` it starts serving stdin and stdout once the
 * application has bootstrapped.
 *
 * When the application closes (`app.close()`, or a signal with `enableShutdownHooks()`), in its
 * `onModuleDestroy` hook (the first of Nest's shutdown hooks, before the HTTP server closes and,
 * in the usual layout where the feature modules are imported before `ToolwrightModule`, before
 * their providers are destroyed) it refuses new calls (`the server is shutting down; call again
 * later`), waits up to `shutdownTimeoutMs` for the calls in flight, and ends those still running
 * then with `the server shut down before the call finished; ...` (see `CallDrain`). Over HTTP it
 * then waits until the responses carrying those answers were written (at most 1 s more), and
 * closes every session (aborting the signals of calls still running); over stdio the transport
 * writes the answers and closes. Then it calls every tool's `close()`.
 *
 * Over HTTP, once the application listens, it logs where the endpoint is through Nest's logger
 * (context `ToolwrightModule`): `MCP endpoint http://127.0.0.1:3000/mcp serves 2 tools:
 * find_order, greet` (a wildcard address shown as `127.0.0.1`; at most ten names).
 */
@Injectable()
export class ToolwrightServer implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy {
  private served: readonly ContractTool[] = [];
  private prepared: ReadonlyMap<string, ServedTool> = new Map();
  private features: ServedFeatures | undefined;
  private stopChangeBus: (() => void) | undefined;

  /**
   * Where the application announces that its resources changed (inject `ToolwrightServer` and
   * call `changes.resourceUpdated(uri)` or `changes.resourcesChanged()`): subscribed clients of
   * both eras are told (see `ServerChanges`).
   */
  readonly changes = new ServerChanges();
  private serverOptions: ServerOptions = {};
  private readonly runs = new ParkedRuns();
  private handler: McpHttpHandler | undefined;
  private stdio: StdioHandle | undefined;
  private resolveClosed!: () => void;
  private closing: Promise<void> | undefined;
  private readonly calls = new CallDrain();
  private readonly posts = new OpenResponses();
  private readonly logger = new Logger('ToolwrightModule');

  /**
   * Resolves once the stdio transport closed (stdin ended, stdout broke, or the application
   * closed). Never resolves over HTTP before shutdown.
   */
  readonly closed: Promise<void> = new Promise((resolve) => (this.resolveClosed = resolve));

  constructor(
    @Inject(TOOLWRIGHT_OPTIONS) private readonly options: ToolwrightModuleOptions,
    private readonly discovery: DiscoveryService,
    private readonly contextCreator: ExternalContextCreator,
    private readonly moduleRef: ModuleRef,
    private readonly adapterHost: HttpAdapterHost,
    private readonly modules: ModulesContainer,
  ) {}

  /** The served tools, in discovery order (their names, schemas and claims as clients see them). */
  get tools(): readonly ContractTool[] {
    return this.served;
  }

  /** True once the application began shutting down: new calls are refused from then on. */
  get shuttingDown(): boolean {
    return this.closing !== undefined;
  }

  /** The server's identity as sent at `initialize`. */
  get info(): ServerInfo {
    const { name, version, instructions } = this.options;
    return instructions === undefined ? { name, version } : { name, version, instructions };
  }

  /**
   * A fresh, unconnected SDK server for the served tools (one per connection), whose calls see
   * `session.transport === transport` and run with the application's call options. For transport
   * `'none'`, or a second transport of your own. `era` is the era the server is for when the
   * transport says (the SDK's factories pass `{ era }`); it decides how announced resource
   * changes reach it.
   */
  createMcpServer(transport: Session['transport'] = 'other', era?: 'legacy' | 'modern'): Server {
    return serverFor(this.info, this.prepared, { ...this.serverOptions, transport }, this.runs, this.features, era);
  }

  /**
   * Nest's hook: discovers, compiles and prepares the tools; over HTTP, mounts the endpoint. Bad
   * tools or options fail the application's start here.
   */
  onModuleInit(): void {
    const lookup: ProviderLookup = (token) => this.optional(token);
    const discovered = discoverTools(this.discovery);
    const compileOptions: Omit<CompileOptions, 'resolve' | 'resolveForCall'> = compileOptionsOf(lookup);
    const scopedGlobals = scopedGlobalEnhancers(this.modules);
    let tools = nestTools(discovered, {
      contextCreator: this.contextCreator,
      moduleRef: this.moduleRef,
      compileOptions,
      scopedGlobals,
    });
    tools = this.calls.track(tools);
    // Each served tool runs its compiled pipeline itself, inside Nest's guards, interceptors and
    // filters (invalid arguments reach the filters as a BadRequestException), so the call core
    // runs it as it is instead of validating its arguments a second time.
    for (const tool of tools)
      registerCompiledEntry(tool, {
        parse: async (raw) => (raw ?? {}) as object,
        run: (args, ctx) => tool.execute(args, ctx),
        validateOutput: undefined,
      });
    this.served = Object.freeze(tools);
    const callOptions = callOptionsOf(lookup);
    if (this.options.telemetry !== undefined && callOptions.telemetry !== undefined)
      throw new TypeError(
        'ToolwrightModule: "telemetry" is given in the module\'s options and by TOOLWRIGHT_CALL_OPTIONS: give it once',
      );
    if (this.options.onRecord !== undefined && callOptions.onRecord !== undefined)
      throw new TypeError(
        'ToolwrightModule: "onRecord" is given in the module\'s options and by TOOLWRIGHT_CALL_OPTIONS: give it once',
      );
    this.serverOptions = {
      ...callOptions,
      ...(this.options.onRecord === undefined ? {} : { onRecord: this.options.onRecord }),
      ...(this.options.telemetry === undefined ? {} : { telemetry: this.options.telemetry }),
      ...(this.options.hideForbiddenTools === undefined ? {} : { hideForbiddenTools: this.options.hideForbiddenTools }),
    };
    // Checks and prepares the set (names, schemas, bounds, options) once, so a bad one fails the application's start.
    this.prepared = servedToolsOf(this.served, 'ToolwrightModule', this.serverOptions);
    const { resources, prompts } = nestFeatures(discoverFeatures(this.discovery), {
      contextCreator: this.contextCreator,
      moduleRef: this.moduleRef,
      compileOptions,
      scopedGlobals,
    });
    this.features = servedFeaturesOf(
      {
        ...this.serverOptions,
        ...(resources === undefined ? {} : { resources }),
        ...(prompts === undefined ? {} : { prompts }),
        changes: this.changes,
      },
      'ToolwrightModule',
    );
    if (this.options.transport === 'http') this.mountHttp();
  }

  /** Nest's hook: over stdio, starts serving stdin and stdout. */
  async onApplicationBootstrap(): Promise<void> {
    if (this.options.transport !== 'stdio') return;
    this.stdio = await connectStdio((context?: { era?: ProtocolEra }) => this.createMcpServer('stdio', context?.era), {
      handleSignals: false,
      exitProcess: false,
      ...(this.options.shutdownTimeoutMs === undefined ? {} : { shutdownTimeoutMs: this.options.shutdownTimeoutMs }),
    });
    void this.stdio.closed.then(() => this.resolveClosed());
  }

  /**
   * Nest's first shutdown hook: refuses new calls, drains those in flight, closes the transport,
   * then each tool's `close()`.
   */
  onModuleDestroy(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    const timeoutMs = this.options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
    const deadline = Date.now() + timeoutMs;
    await this.calls.drain(timeoutMs);
    if (this.stdio !== undefined) {
      await this.stdio.close();
    } else if (this.handler !== undefined) {
      // A drained call's execute has settled, but the call core still checks, bounds and
      // records its result before its answer is written on its POST's response.
      await this.posts.closed(deadline - Date.now() + LAST_ANSWERS_MS);
      await this.handler.close();
    }
    this.stopChangeBus?.();
    await this.runs.closeAll();
    this.resolveClosed();
    for (const tool of this.served) await tool.close?.();
    for (const made of [...(this.features?.resources?.resources.values() ?? [])].map((p) => p.resource))
      await made.close?.();
    for (const made of this.features?.resources?.templates ?? []) await made.template.close?.();
    for (const made of this.features?.prompts?.values() ?? []) await made.prompt.close?.();
  }

  private mountHttp(): void {
    const adapter = this.adapterHost?.httpAdapter;
    if (adapter === undefined || adapter === null) {
      throw new Error(
        "ToolwrightModule: transport 'http' needs an HTTP application (NestFactory.create); a standalone application context has no HTTP server: use transport 'stdio'",
      );
    }
    const path = this.options.path ?? DEFAULT_MCP_PATH;
    const auth = this.authOptions(() => listeningUrlOf(adapter.getHttpServer(), path));
    const changeBus = changeBusOf(this.features, this.options.http?.changeEvents);
    this.stopChangeBus = changeBus?.stop;
    this.handler = createHttpHandler((context?: { era?: ProtocolEra }) => this.createMcpServer('http', context?.era), {
      ...this.options.http,
      ...(auth === undefined ? {} : { auth }),
      ...(changeBus === undefined ? {} : { changeEvents: changeBus.bus }),
    });
    mountHandler(adapter, path, this.handler, {
      alsoAt:
        auth === undefined ? [] : [PROTECTED_RESOURCE_METADATA_PATH, `${PROTECTED_RESOURCE_METADATA_PATH}${path}`],
      onRequest: (req, res) => {
        if (req.method === 'POST') this.posts.track(res);
      },
    });
    this.announce(adapter.getHttpServer() as HttpServerLike, path);
  }

  /** Logs the endpoint's URL and tools once the application's HTTP server listens (at once when it already does). */
  private announce(server: HttpServerLike, path: string): void {
    const log = (): void => {
      let where: string;
      try {
        where = listeningUrlOf(server, path);
      } catch {
        where = path; // a pipe, not a TCP port
      }
      this.logger.log(`MCP endpoint ${where} serves ${toolsSummary(this.served)}`);
    };
    if (server.listening === true) log();
    else server.once?.('listening', log);
  }

  /** The `auth` option with its defaults: the served tools' scopes, and the listening URL as the resource. */
  private authOptions(listeningUrl: () => string): AuthOptions | undefined {
    const auth = this.options.auth;
    if (auth === undefined) return undefined;
    return {
      toolScopes: toolScopesOf([...this.prepared.values()].map((served) => ({ tool: served.prepared.tool }))),
      ...auth,
      ...(auth.resource === undefined ? { resource: listeningUrl } : {}),
    };
  }

  /** The provider of `token` anywhere in the application, or `undefined` when there is none. */
  private optional(token: symbol): unknown {
    try {
      return this.moduleRef.get(token, { strict: false });
    } catch {
      return undefined;
    }
  }
}

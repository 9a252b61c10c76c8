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
import type { ContractPrompt, ContractResources, ContractTool, Session } from '../contract/index.js';
// The edge's narrower faces, so the module never loads the client and proxy parts of toolwright/mcp.
import {
  connectStdio,
  createHttpHandler,
  DEFAULT_SHUTDOWN_TIMEOUT_MS,
  DEFAULT_LIVE_PATH,
  DEFAULT_READY_PATH,
  type McpHttpHandler,
  type StdioHandle,
} from '../mcp/transports/index.js';
import type { ServedSet, ServerInfo, ServerOptions, SetChange } from '../mcp/server/index.js';
import { PROTECTED_RESOURCE_METADATA_PATH, type AuthOptions } from '../mcp/auth/index.js';
import {
  LiveSet,
  ParkedRuns,
  changeBusOf,
  liveToolScopes,
  servedSetFacade,
  serverFor,
  stopTasksOf,
  type ProtocolEra,
} from '../mcp/internal.js';
import { ServerChanges, SetChangeError } from '../mcp/server/index.js';
import { discoverFeatures, nestFeatures } from './nest-features.js';
import type { NestToolsContext } from './nest-tool.js';
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
export class ToolwrightServer implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy, ServedSet {
  private live: LiveSet | undefined;
  private set: ServedSet | undefined;
  private stopChangeBus: (() => void) | undefined;
  private nestContext: NestToolsContext | undefined;
  /** Everything the server served at some time, whose `close()` the shutdown calls once. */
  private readonly everServed = new Set<{ close?(): Promise<void> }>();
  /** What each module given to `addModule` added, by module. */
  private readonly fromModules = new Map<Function, ModuleEntries>();

  /**
   * Where the application announces that its resources changed (inject `ToolwrightServer` and
   * call `changes.resourceUpdated(uri)` or `changes.resourcesChanged()`): subscribed clients of
   * both eras are told (see `ServerChanges`).
   */
  readonly changes = new ServerChanges();
  private serverOptions: ServerOptions = {};
  private readonly runs: ParkedRuns;
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
  ) {
    this.runs = new ParkedRuns(options.inputRounds);
  }

  /**
   * The tools served now, in discovery order then the order they were added (their names, schemas
   * and claims as clients see them).
   */
  get tools(): readonly ContractTool[] {
    return this.live?.toolList ?? [];
  }

  /** The resources and resource templates served now. */
  get resources(): ContractResources {
    return this.live?.resourceEntries ?? [];
  }

  /** The prompts served now. */
  get prompts(): readonly ContractPrompt[] {
    return this.live?.promptEntries ?? [];
  }

  /**
   * Serves the `@Tool`, `@StaticResource`, `@ResourceTemplate` and `@Prompt` providers of
   * `module`, a module the application loaded after it started (`await lazyModuleLoader.load(()
   * => ReportsModule)`, then `addModule(ReportsModule)`): they are discovered, compiled and served
   * exactly as the providers found at start (inside Nest's guards, interceptors and filters, with
   * the application's call options), a name served already replaced, and every connected client
   * is told (see `ServedSet`). Throws the discovery's and the compiler's `ContractError`s, and a
   * `SetChangeError` for a change that is refused (the module was added already, it holds no such
   * provider, or a tool cannot be served); nothing is served of it then. Only after `onModuleInit`.
   */
  addModule(module: Function): void {
    if (this.fromModules.has(module))
      throw new SetChangeError(`addModule: ${module.name} is served already; removeModule(${module.name}) first`);
    const entries = this.entriesOf(this.discovered(module));
    if (entries.tools.length === 0 && entries.resources.length === 0 && entries.prompts.length === 0)
      throw new SetChangeError(
        `addModule: ${module.name} has no @Tool, @StaticResource, @ResourceTemplate or @Prompt provider (load it with LazyModuleLoader first)`,
      );
    this.change(
      {
        ...(entries.tools.length > 0 ? { addTools: entries.tools } : {}),
        ...(entries.resources.length > 0 ? { addResources: entries.resources } : {}),
        ...(entries.prompts.length > 0 ? { addPrompts: entries.prompts } : {}),
      },
      'addModule',
    );
    this.fromModules.set(module, entries);
  }

  /**
   * Stops serving what `addModule(module)` added (what another module replaced since stays), and
   * tells the clients. A call already running finishes; Nest keeps the module loaded. Throws a
   * `SetChangeError` when the module was not added.
   */
  removeModule(module: Function): void {
    const entries = this.fromModules.get(module);
    if (entries === undefined) throw new SetChangeError(`removeModule: ${module.name} was not added with addModule`);
    const live = this.requireLive('removeModule');
    const tools = entries.tools.filter((tool) => live.tools.get(tool.name)?.prepared.tool === tool);
    const resources = entries.resources.filter((made) => live.resourceEntries.includes(made));
    const prompts = entries.prompts.filter((prompt) => live.promptEntries.includes(prompt));
    this.change(
      {
        ...(tools.length > 0 ? { removeTools: tools.map((tool) => tool.name) } : {}),
        ...(resources.length > 0 ? { removeResources: resources.map(resourceKeyOf) } : {}),
        ...(prompts.length > 0 ? { removePrompts: prompts.map((prompt) => prompt.name) } : {}),
      },
      'removeModule',
    );
    this.fromModules.delete(module);
  }

  /**
   * Serves contract tools too (hand-built or compiled, served as they are, outside Nest's
   * enhancers; see `ServedSet`).
   */
  addTools(tools: readonly ContractTool[]): void {
    this.change({ addTools: this.calls.track(tools) }, 'addTools');
  }

  /** Stops serving the tools named (see `ServedSet`). */
  removeTools(names: readonly string[]): void {
    this.change({ removeTools: names }, 'removeTools');
  }

  /** Serves contract resources and templates too (see `ServedSet`). */
  addResources(resources: ContractResources): void {
    this.change({ addResources: resources }, 'addResources');
  }

  /** Stops serving the resources (by URI) and templates (by URI template) named (see `ServedSet`). */
  removeResources(keys: readonly string[]): void {
    this.change({ removeResources: keys }, 'removeResources');
  }

  /** Serves contract prompts too (see `ServedSet`). */
  addPrompts(prompts: readonly ContractPrompt[]): void {
    this.change({ addPrompts: prompts }, 'addPrompts');
  }

  /** Stops serving the prompts named (see `ServedSet`). */
  removePrompts(names: readonly string[]): void {
    this.change({ removePrompts: names }, 'removePrompts');
  }

  /** Applies several changes at once (see `ServedSet.update`); tools given are tracked for the shutdown's drain. */
  update(change: SetChange): void {
    const tracked =
      change.tools === undefined && change.addTools === undefined
        ? change
        : {
            ...change,
            ...(change.tools === undefined ? {} : { tools: this.calls.track(change.tools) }),
            ...(change.addTools === undefined ? {} : { addTools: this.calls.track(change.addTools) }),
          };
    this.change(tracked, 'update');
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
    return serverFor(
      this.info,
      this.requireLive('createMcpServer'),
      { ...this.serverOptions, transport },
      this.runs,
      era,
    );
  }

  /**
   * Nest's hook: discovers, compiles and prepares the tools; with an `inputRounds.relay`, listens
   * on it; over HTTP, mounts the endpoint. Bad tools or options, or a relay that cannot listen,
   * fail the application's start here.
   */
  async onModuleInit(): Promise<void> {
    const lookup: ProviderLookup = (token) => this.optional(token);
    const compileOptions: Omit<CompileOptions, 'resolve' | 'resolveForCall'> = compileOptionsOf(lookup);
    this.nestContext = {
      contextCreator: this.contextCreator,
      moduleRef: this.moduleRef,
      compileOptions,
      scopedGlobals: scopedGlobalEnhancers(this.modules),
    };
    const entries = this.entriesOf(this.discovered(undefined));
    const callOptions = callOptionsOf(lookup);
    if (this.options.telemetry !== undefined && callOptions.telemetry !== undefined)
      throw new TypeError(
        'ToolwrightModule: "telemetry" is given in the module\'s options and by TOOLWRIGHT_CALL_OPTIONS: give it once',
      );
    if (this.options.onRecord !== undefined && callOptions.onRecord !== undefined)
      throw new TypeError(
        'ToolwrightModule: "onRecord" is given in the module\'s options and by TOOLWRIGHT_CALL_OPTIONS: give it once',
      );
    const { onRecord, telemetry, hideForbiddenTools, cacheHints, inputRounds, replay, scheduling, tasks } =
      this.options;
    this.serverOptions = {
      ...callOptions,
      ...(onRecord === undefined ? {} : { onRecord }),
      ...(telemetry === undefined ? {} : { telemetry }),
      ...(hideForbiddenTools === undefined ? {} : { hideForbiddenTools }),
      ...(cacheHints === undefined ? {} : { cacheHints }),
      ...(inputRounds === undefined ? {} : { inputRounds }),
      ...(replay === undefined ? {} : { replay }),
      ...(scheduling === undefined ? {} : { scheduling }),
      ...(tasks === undefined ? {} : { tasks }),
    };
    // Checks and prepares the set (names, schemas, bounds, options) once, so a bad one fails the application's start.
    this.live = new LiveSet({
      where: 'ToolwrightModule',
      tools: entries.tools,
      options: {
        ...this.serverOptions,
        ...(entries.resources.length > 0 ? { resources: entries.resources } : {}),
        ...(entries.prompts.length > 0 ? { prompts: entries.prompts } : {}),
        changes: this.changes,
      },
    });
    this.set = servedSetFacade(this.live);
    this.noteServed(entries);
    // With a relay, this node listens for retries relayed to it before it takes requests.
    await this.runs.open();
    if (this.options.transport === 'http') this.mountHttp();
  }

  /** The `@Tool`, resource and prompt providers of the application (of `module` only, when given). */
  private discovered(module: Function | undefined): {
    readonly tools: ReturnType<typeof discoverTools>;
    readonly features: ReturnType<typeof discoverFeatures>;
  } {
    const modules = module === undefined ? undefined : [module];
    return { tools: discoverTools(this.discovery, modules), features: discoverFeatures(this.discovery, modules) };
  }

  /**
   * The served entries of discovered providers: the tools built as `nestTools` builds them, tracked
   * for the shutdown's drain, each run inside Nest's enhancers with its compiled pipeline (so the
   * call core runs it as it is, see below); the resources and prompts as `nestFeatures` builds them.
   */
  private entriesOf(discovered: ReturnType<ToolwrightServer['discovered']>): ModuleEntries {
    const context = this.nestContext;
    if (context === undefined) throw new SetChangeError('ToolwrightModule: nothing is served before onModuleInit');
    const tools = this.calls.track(nestTools(discovered.tools, context));
    // Each served tool runs its compiled pipeline itself, inside Nest's guards, interceptors and
    // filters (invalid arguments reach the filters as a BadRequestException), so the call core
    // runs it as it is instead of validating its arguments a second time.
    for (const tool of tools)
      registerCompiledEntry(tool, {
        parse: async (raw) => (raw ?? {}) as object,
        run: (args, ctx) => tool.execute(args, ctx),
        validateOutput: undefined,
      });
    const { resources, prompts } = nestFeatures(discovered.features, context);
    return { tools, resources: resources ?? [], prompts: prompts ?? [] };
  }

  /** Applies `change` to the set (see `ServedSet.update`) and remembers what it added, to close at shutdown. */
  private change(change: SetChange, where: string): void {
    this.requireLive(where).update(change, where);
    this.noteServed({
      tools: [...(change.tools ?? []), ...(change.addTools ?? [])],
      resources: [...(change.resources ?? []), ...(change.addResources ?? [])],
      prompts: [...(change.prompts ?? []), ...(change.addPrompts ?? [])],
    });
  }

  private noteServed(entries: ModuleEntries): void {
    for (const made of [...entries.tools, ...entries.resources, ...entries.prompts]) this.everServed.add(made);
  }

  private requireLive(where: string): LiveSet {
    if (this.live === undefined)
      throw new SetChangeError(`${where}: the module serves nothing before onModuleInit (the application's init)`);
    return this.live;
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
    // Readiness answers 503 `draining` from now on, so a balancer takes this process out.
    void this.handler?.drain(timeoutMs);
    await this.calls.drain(timeoutMs);
    // Running tasks get their drain time too, then end failed ("the server stopped before the task finished").
    if (this.live !== undefined) await stopTasksOf(this.live.source);
    if (this.stdio !== undefined) {
      await this.stdio.close();
    } else if (this.handler !== undefined) {
      // A drained call's execute has settled, but the call core still checks, bounds and
      // records its result before its answer is written on its POST's response.
      await this.posts.closed(deadline - Date.now() + LAST_ANSWERS_MS);
      await this.handler.close();
    }
    this.stopChangeBus?.();
    this.live?.close();
    await this.runs.closeAll();
    this.resolveClosed();
    // Every tool, resource and prompt served at some time (removed ones too), once each.
    for (const made of this.everServed) await made.close?.();
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
    const changeBus = changeBusOf(this.requireLive('ToolwrightModule'), this.options.http?.changeEvents);
    this.stopChangeBus = changeBus.stop;
    const http = this.options.http ?? {};
    const nodeId = http.nodeId ?? this.options.inputRounds?.nodeId;
    this.handler = createHttpHandler((context?: { era?: ProtocolEra }) => this.createMcpServer('http', context?.era), {
      ...http,
      ...(nodeId === undefined ? {} : { nodeId }),
      ...(auth === undefined ? {} : { auth }),
      changeEvents: changeBus.bus,
    });
    const health =
      http.health === false
        ? []
        : [http.health?.livePath ?? DEFAULT_LIVE_PATH, http.health?.readyPath ?? DEFAULT_READY_PATH];
    mountHandler(adapter, path, this.handler, {
      alsoAt: [
        ...health,
        ...(auth === undefined ? [] : [PROTECTED_RESOURCE_METADATA_PATH, `${PROTECTED_RESOURCE_METADATA_PATH}${path}`]),
      ],
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
      this.logger.log(`MCP endpoint ${where} serves ${toolsSummary(this.tools)}`);
    };
    if (server.listening === true) log();
    else server.once?.('listening', log);
  }

  /** The `auth` option with its defaults: the served tools' scopes, and the listening URL as the resource. */
  private authOptions(listeningUrl: () => string): AuthOptions | undefined {
    const auth = this.options.auth;
    if (auth === undefined) return undefined;
    return {
      toolScopes: liveToolScopes(this.requireLive('ToolwrightModule')),
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

/** What a module's providers (or the application's, at start) made to serve. */
interface ModuleEntries {
  readonly tools: readonly ContractTool[];
  readonly resources: ContractResources;
  readonly prompts: readonly ContractPrompt[];
}

/** The key a resource is removed by: its URI, or a template's URI template. */
function resourceKeyOf(made: ContractResources[number]): string {
  return 'uriTemplate' in made && typeof made.uriTemplate === 'string'
    ? made.uriTemplate
    : (made as { uri: string }).uri;
}

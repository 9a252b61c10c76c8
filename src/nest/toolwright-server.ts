import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService, ExternalContextCreator, HttpAdapterHost, ModuleRef } from '@nestjs/core';
import type { CompileOptions } from '../compiler/index.js';
import type { ContractTool, Session } from '../contract/index.js';
import { connectStdio, createHttpHandler, DEFAULT_SHUTDOWN_TIMEOUT_MS, createServer, type McpHttpHandler, type ServerInfo, type StdioHandle } from '../mcp/index.js';
import { PermissionPolicy } from '../runtime/index.js';
import { registerCompiledEntry } from '../compiler/internal.js';
import { discoverTools } from './discover.js';
import { CallDrain } from './drain.js';

/** How long a shutdown waits, after the last call settled, for its answer to be written. */
const ANSWER_GRACE_MS = 250;
import { mountHandler } from './http-mount.js';
import { nestTools } from './nest-tool.js';
import { DEFAULT_MCP_PATH, TOOLWRIGHT_COMPILE_OPTIONS, TOOLWRIGHT_OPTIONS, TOOLWRIGHT_OUTPUT_LIMITS, TOOLWRIGHT_POLICY, type ToolwrightModuleOptions, type ToolwrightOutputLimits } from './options.js';

/**
 * The MCP server of a Nest application, made by `ToolwrightModule`. At module init it discovers
 * every `@Tool` provider of the application (see `discoverTools`), builds the served tools (see
 * `nestTools`, compiled with the `TOOLWRIGHT_COMPILE_OPTIONS` provider when there is one), applies
 * the `TOOLWRIGHT_POLICY` and `TOOLWRIGHT_OUTPUT_LIMITS` providers when
 * the application has them, and with transport `'http'` mounts the streamable HTTP endpoint on
 * the application's HTTP server (see `mountHandler`). With `'stdio'` it starts serving stdin and
 * stdout once the application has bootstrapped. When the application closes (`app.close()`, or a
 * signal with `enableShutdownHooks()`), in its `onModuleDestroy` hook (the first of Nest's
 * shutdown hooks, before the HTTP server closes and, in the usual layout where the feature
 * modules are imported before `ToolwrightModule`, before their providers are destroyed) it refuses new calls
 * (`the server is shutting down; call again later`; over stdio, new requests), waits up to
 * `shutdownTimeoutMs` for the calls in flight, closes the transport (which aborts the signals of
 * calls still running; HTTP then answers 503), and then calls every tool's `close()`.
 */
@Injectable()
export class ToolwrightServer implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy {
  private served: readonly ContractTool[] = [];
  private handler: McpHttpHandler | undefined;
  private stdio: StdioHandle | undefined;
  private maxOutputChars: number | undefined;
  private policy: PermissionPolicy | undefined;
  private resolveClosed!: () => void;
  private closing: Promise<void> | undefined;
  private readonly calls = new CallDrain();

  /** Resolves once the stdio transport closed (stdin ended, stdout broke, or the application closed). Never resolves over HTTP before shutdown. */
  readonly closed: Promise<void> = new Promise((resolve) => (this.resolveClosed = resolve));

  constructor(
    @Inject(TOOLWRIGHT_OPTIONS) private readonly options: ToolwrightModuleOptions,
    private readonly discovery: DiscoveryService,
    private readonly contextCreator: ExternalContextCreator,
    private readonly moduleRef: ModuleRef,
    private readonly adapterHost: HttpAdapterHost,
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
   * `session.transport === transport`. For transport `'none'`, or a second transport of your own.
   */
  createMcpServer(transport: 'stdio' | 'http' | 'memory' | 'other' = 'other'): ReturnType<typeof createServer> {
    return createServer(this.info, this.served, this.serverOptions(transport));
  }

  onModuleInit(): void {
    const discovered = discoverTools(this.discovery);
    const compileOptions = this.optional<Omit<CompileOptions, 'resolve'>>(TOOLWRIGHT_COMPILE_OPTIONS);
    let tools = nestTools(discovered, { contextCreator: this.contextCreator, moduleRef: this.moduleRef, ...(compileOptions === undefined ? {} : { compileOptions }) });
    const policy = this.optional<PermissionPolicy>(TOOLWRIGHT_POLICY);
    if (policy !== undefined && !(policy instanceof PermissionPolicy)) throw new TypeError('ToolwrightModule: the TOOLWRIGHT_POLICY provider must be a PermissionPolicy (see createPolicy)');
    this.policy = policy;
    tools = this.calls.track(tools);
    // Each served tool runs its compiled pipeline itself, inside Nest's guards, interceptors and
    // filters (invalid arguments reach the filters as a BadRequestException), so the call core
    // runs it as it is instead of validating its arguments a second time.
    for (const tool of tools) registerCompiledEntry(tool, { parse: async (raw) => (raw ?? {}) as object, run: (args, ctx) => tool.execute(args, ctx), validateOutput: undefined });
    this.maxOutputChars = this.optional<ToolwrightOutputLimits>(TOOLWRIGHT_OUTPUT_LIMITS)?.maxOutputChars;
    this.served = Object.freeze(tools);
    // Checks the set (names, schemas, bounds) now, so a bad one fails the application's start.
    this.createMcpServer();
    if (this.options.transport === 'http') this.mountHttp();
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.options.transport !== 'stdio') return;
    this.stdio = await connectStdio(() => createServer(this.info, this.served, this.serverOptions('stdio')), {
      handleSignals: false,
      exitProcess: false,
      ...(this.options.shutdownTimeoutMs === undefined ? {} : { shutdownTimeoutMs: this.options.shutdownTimeoutMs }),
    });
    void this.stdio.closed.then(() => this.resolveClosed());
  }

  onModuleDestroy(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    if (this.stdio !== undefined) {
      await this.stdio.close();
    } else {
      await this.calls.drain(this.options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS);
      // A drained call's execute has settled, but the call core still checks, bounds and
      // records its result before the answer is written: give the answers a moment to leave
      // before the sessions close.
      await new Promise((resolve) => setTimeout(resolve, ANSWER_GRACE_MS));
      await this.handler?.close();
    }
    this.resolveClosed();
    for (const tool of this.served) await tool.close?.();
  }

  private mountHttp(): void {
    const adapter = this.adapterHost?.httpAdapter;
    if (adapter === undefined || adapter === null) {
      throw new Error("ToolwrightModule: transport 'http' needs an HTTP application (NestFactory.create); a standalone application context has no HTTP server: use transport 'stdio'");
    }
    this.handler = createHttpHandler(() => createServer(this.info, this.served, this.serverOptions('http')), this.options.http ?? {});
    mountHandler(adapter, this.options.path ?? DEFAULT_MCP_PATH, this.handler);
  }

  private serverOptions(transport: Session['transport']): { transport: Session['transport']; maxOutputChars?: number; policy?: PermissionPolicy } {
    return {
      transport,
      ...(this.maxOutputChars === undefined ? {} : { maxOutputChars: this.maxOutputChars }),
      ...(this.policy === undefined ? {} : { policy: this.policy }),
    };
  }

  /** The provider of `token` anywhere in the application, or `undefined` when there is none. */
  private optional<T>(token: symbol): T | undefined {
    try {
      return this.moduleRef.get<T>(token, { strict: false });
    } catch {
      return undefined;
    }
  }
}

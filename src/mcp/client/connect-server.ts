import { checkOptionsObject, optionKeys } from '../../util/options.js';
import { CONSUME } from '../entry-options.js';
import type { ContractTool } from '../../contract/index.js';
import { errorText } from '../../util/describe.js';
import type { McpClientLike } from './client-like.js';
import { serverNameOf, toolsOf } from './connect-tools.js';
import type { ConsumeOptions } from './options.js';
import { refuseUnboundCredentials } from './unbound-credentials.js';
import { Upstream } from './upstream.js';
import { featuresOf, type ConsumedFeatures } from './consumed-features.js';

/** A server to spawn and talk to over stdio. */
export interface StdioTarget {
  readonly command: string;
  readonly args?: readonly string[];
  /** The child's environment (default: the SDK's safe subset of this process's). */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /** What happens to the child's stderr (default `inherit`). */
  readonly stderr?: 'inherit' | 'ignore' | 'pipe';
}

/**
 * What proves the consumer's right to call an upstream that requires OAuth (MCP authorization):
 * an SDK auth provider of `@modelcontextprotocol/client`, handed to its HTTP transport as it is:
 * an `AuthProvider` (`{ token() }`, asked before every request) or an `OAuthClientProvider`
 * such as its `ClientCredentialsProvider` (which discovers the authorization server from the
 * upstream's `401`, obtains a token and refreshes it).
 */
export type UpstreamAuthProvider =
  | {
      /** The bearer token to send, asked before every request (`undefined`: none). */
      token(): Promise<string | undefined>;
      /** Called when the upstream answered 401, before the request is tried again. */
      onUnauthorized?(context: never): Promise<void>;
    }
  | {
      /** The OAuth client's registration metadata (an SDK `OAuthClientProvider`). */
      readonly clientMetadata: object;
      /** The tokens the provider holds (an SDK `OAuthClientProvider`). */
      tokens(...args: never[]): unknown;
    };

/** A server to reach over streamable HTTP. */
export interface UrlTarget {
  readonly url: string | URL;
  /** Extra headers sent with every request. */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * A bearer token for an upstream that requires auth, sent as `Authorization: Bearer <token>`
   * on every request: the token, or a function asked before every request (return a fresh one
   * when it expires). Give this or `authProvider`, not both.
   */
  readonly bearerToken?: string | (() => string | Promise<string>);
  /**
   * An SDK auth provider (see `UpstreamAuthProvider`). Give this or `bearerToken`, not both. A
   * provider holding client credentials (a client secret, a private key) must name the
   * authorization server they belong to (`expectedIssuer` on the SDK's providers), or
   * `connectServer` refuses it: otherwise the upstream's metadata decides where they are sent.
   */
  readonly authProvider?: UpstreamAuthProvider;
}

/** Where `connectServer` finds a server. */
export type ServerTarget = StdioTarget | UrlTarget;

/** Options of `connectServer`: the consume options plus how to connect. */
export interface ConnectServerOptions extends ConsumeOptions {
  /** Who the client says it is at `initialize`; default `{name: 'toolwright', version: '0'}`. */
  readonly clientInfo?: { readonly name: string; readonly version: string };
  /** Called with the new tools after every refresh (after a `list_changed`, or `refresh()`). */
  readonly onToolsChanged?: (tools: readonly ContractTool[]) => void;
  /** Called when a refresh that `list_changed` started fails (the old tools stay). */
  readonly onRefreshError?: (error: Error) => void;
  /**
   * Called with the new resources and prompts after a refresh the server's `resources` or `prompts`
   * `list_changed` started (or `refresh()`).
   */
  readonly onFeaturesChanged?: (features: ConsumedFeatures) => void;
  /** Called with the URI of every `notifications/resources/updated` the server sends. */
  readonly onResourceUpdated?: (uri: string) => void;
}

/** A server connection `connectServer` owns. */
export interface ServerConnection {
  /** The server's name in errors. */
  readonly server: string;
  /** The tools of the latest listing. */
  readonly tools: readonly ContractTool[];
  /**
   * The protocol era of the live connection, as the client negotiated it: `modern` (2026-07-28)
   * or `legacy` (a 2025-11-25 session); `undefined` while no connection is live.
   */
  readonly era: 'modern' | 'legacy' | undefined;
  /**
   * The server's resources and templates, and its prompts, of the latest listing, as contract
   * values of their own (see `featuresOf`; empty where it declares none).
   */
  readonly resources: ConsumedFeatures['resources'];
  readonly prompts: ConsumedFeatures['prompts'];
  /**
   * Asks the server to tell of changes to the resource `uri` (`resources/subscribe` in a 2025-11-25
   * session, a `subscriptions/listen` stream naming it in the 2026-07-28 era); its updates reach
   * `onResourceUpdated`. Resolves the function that stops asking. Rejects when the server refuses.
   */
  subscribeResource(uri: string): Promise<() => Promise<void>>;
  /**
   * Lists the tools again (and the resources and prompts; reconnecting when the connection died)
   * and returns the tools.
   */
  refresh(): Promise<readonly ContractTool[]>;
  /** Closes the connection (a stdio child is ended); later calls fail. Idempotent. */
  close(): Promise<void>;
}

/** The members of the 2.x `Client` that resource subscriptions use. */
interface SubscribingClient {
  getProtocolEra?(): string | undefined;
  subscribeResource(params: { uri: string }): Promise<unknown>;
  unsubscribeResource(params: { uri: string }): Promise<unknown>;
  listen(filter: { resourceSubscriptions: string[] }): Promise<{ close(): Promise<void> }>;
}

/** The members of the 2.x `Client` that `connectServer` uses to own a connection. */
interface OwnedClient {
  connect(transport: unknown): Promise<void>;
  close(): Promise<void>;
  onclose?: (() => void) | undefined;
}

interface Live {
  client: OwnedClient;
  closed: boolean;
}

const CLIENT_CAPABILITIES = { elicitation: { form: {}, url: {} } };

/** A fresh, unconnected 2.x client and the transport to connect it with. */
async function clientAndTransport(
  target: ServerTarget,
  info: { name: string; version: string },
  onToolsChanged: () => void,
  onFeaturesChanged: () => void = () => {},
  onResourceUpdated: (uri: string) => void = () => {},
): Promise<{ client: OwnedClient; transport: unknown }> {
  let v2: typeof import('@modelcontextprotocol/client');
  try {
    v2 = await import('@modelcontextprotocol/client');
  } catch (err) {
    throw new Error(
      `connectServer needs the package @modelcontextprotocol/client (npm install @modelcontextprotocol/client): ${errorText(err)}`,
    );
  }
  // The client's own list-changed wiring: a notification handler in the 2025 era, a
  // `subscriptions/listen` stream in the 2026-07-28 era (when the server advertises listChanged).
  const listChanged = {
    tools: { autoRefresh: false, debounceMs: 0, onChanged: () => onToolsChanged() },
    prompts: { autoRefresh: false, debounceMs: 0, onChanged: () => onFeaturesChanged() },
    resources: { autoRefresh: false, debounceMs: 0, onChanged: () => onFeaturesChanged() },
  };
  const client = new v2.Client(info, {
    capabilities: CLIENT_CAPABILITIES,
    versionNegotiation: { mode: 'auto' },
    listChanged,
  }) as unknown as OwnedClient;
  (
    client as unknown as { setNotificationHandler(method: string, handler: (note: { params?: unknown }) => void): void }
  ).setNotificationHandler('notifications/resources/updated', (note) => {
    const uri = (note.params as { uri?: unknown } | undefined)?.uri;
    if (typeof uri === 'string') onResourceUpdated(uri);
  });
  if ('url' in target) {
    const url = target.url instanceof URL ? target.url : new URL(target.url);
    const authProvider = authProviderOf(target);
    return {
      client,
      transport: new v2.StreamableHTTPClientTransport(url, {
        ...(target.headers === undefined ? {} : { requestInit: { headers: { ...target.headers } } }),
        ...(authProvider === undefined ? {} : { authProvider: authProvider as never }),
      }),
    };
  }
  const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
  return { client, transport: new StdioClientTransport(stdioParams(target)) };
}

/** The auth provider a URL target asks for: its `authProvider`, or one that gives its `bearerToken`. */
function authProviderOf(target: UrlTarget): UpstreamAuthProvider | undefined {
  const { bearerToken, authProvider } = target;
  if (bearerToken !== undefined && authProvider !== undefined)
    throw new TypeError('connectServer: give "bearerToken" or "authProvider", not both');
  if (authProvider !== undefined) {
    if (typeof authProvider !== 'object' || authProvider === null)
      throw new TypeError('connectServer: "authProvider" must be an SDK AuthProvider or OAuthClientProvider object');
    return authProvider;
  }
  if (bearerToken === undefined) return undefined;
  if (typeof bearerToken === 'string') {
    if (bearerToken === '') throw new TypeError('connectServer: "bearerToken" must not be empty');
    return { token: async () => bearerToken };
  }
  if (typeof bearerToken !== 'function')
    throw new TypeError('connectServer: "bearerToken" must be a string or a function that returns one');
  return { token: async () => bearerToken() };
}

/** `connectServer`'s option keys. */
const CONNECT_SERVER_KEYS = optionKeys<ConnectServerOptions>()(
  ...CONSUME,
  'clientInfo',
  'onToolsChanged',
  'onRefreshError',
  'onFeaturesChanged',
  'onResourceUpdated',
);

/**
 * Connects to one server with a `Client` of `@modelcontextprotocol/client` (2.x, loaded on first
 * use), spawning `{command, args}` over stdio or opening `{url}` over streamable HTTP (with a
 * bearer token or an SDK auth provider when the upstream requires auth). The client negotiates the
 * era: the 2026-07-28 era when the server offers it (stateless requests; the server's questions
 * come as `input_required` and are answered and retried by the client), else a 2025-11-25 session
 * (the server pushes `elicitation/create`). It lists its tools (see `connectTools` for what they
 * are and do) and owns the connection. The client offers elicitation (form and URL), so the server
 * may ask; questions go where `Upstream` says. When the server sends
 * `notifications/tools/list_changed`, the tools are listed again and `onToolsChanged` is told. When
 * the connection dies (a stdio child exits, an HTTP session ends), calls in flight fail with `mcp
 * server "<server>": tool "<tool>": <reason>` and the next call, facts question or refresh connects
 * again. Throws, naming the server, when the first connection or listing fails; throws a
 * `TypeError` before connecting for an `authProvider` holding client credentials without the issuer
 * they belong to (see `refuseUnboundCredentials`).
 */
export async function connectServer(
  target: ServerTarget,
  options: ConnectServerOptions = {},
): Promise<ServerConnection> {
  checkOptionsObject('connectServer', options, CONNECT_SERVER_KEYS);
  if ('url' in target) {
    const authProvider = authProviderOf(target);
    if (authProvider !== undefined) await refuseUnboundCredentials(authProvider);
  }
  const label = labelOf(target);
  let live: Live | undefined;
  let closing = false;
  let server = options.server ?? label;
  let tools: readonly ContractTool[] = [];
  let refreshing: Promise<readonly ContractTool[]> | undefined;
  let features: ConsumedFeatures = { resources: [], prompts: [] };
  let refreshingFeatures: Promise<ConsumedFeatures> | undefined;
  // Set once `refresh` exists: a change announced before the first listing is covered by it.
  let onToolsChanged = (): void => {};
  let onFeaturesChanged = (): void => {};

  const attempt = async (): Promise<Live> => {
    const { client, transport } = await clientAndTransport(
      target,
      options.clientInfo ?? { name: 'toolwright', version: '0' },
      () => onToolsChanged(),
      () => onFeaturesChanged(),
      (uri) => options.onResourceUpdated?.(uri),
    );
    const state: Live = { client, closed: false };
    client.onclose = () => {
      state.closed = true;
    };
    try {
      await client.connect(transport);
    } catch (err) {
      await client.close().catch(() => {});
      throw err;
    }
    return state;
  };
  // A first connection is tried once; a reconnection twice (an HTTP client may first reuse a
  // pooled socket the restarted server has closed).
  const open = async (): Promise<Live> => {
    const tries = live === undefined ? 1 : 2;
    for (let tried = 1; ; tried += 1) {
      try {
        return await attempt();
      } catch (err) {
        if (tried >= tries) throw new Error(`mcp server ${JSON.stringify(server)}: cannot connect: ${errorText(err)}`);
      }
    }
  };
  const current = async (): Promise<McpClientLike> => {
    if (closing) throw new Error(`mcp server ${JSON.stringify(server)}: the connection is closed`);
    if (live === undefined || live.closed) live = await open();
    return live.client as unknown as McpClientLike;
  };
  const first = await current();
  if (options.server === undefined) server = serverNameOf(first, options);
  const upstream = new Upstream(server, current, options.elicit, (err) => {
    // A failure that did not come from a live server's JSON-RPC answer (a closed connection, an
    // HTTP session the server no longer knows, a refused socket) drops the connection, so the
    // next call connects again.
    if (live === undefined || answeredByLiveServer(err)) return;
    const dead = live;
    dead.closed = true;
    dead.client.close().catch(() => {});
  });
  const refreshFeatures = (): Promise<ConsumedFeatures> => {
    refreshingFeatures ??= (async () => {
      try {
        features = await featuresOf(upstream, await upstream.client(), options.prefix);
        options.onFeaturesChanged?.(features);
        return features;
      } finally {
        refreshingFeatures = undefined;
      }
    })();
    return refreshingFeatures;
  };
  const refresh = (): Promise<readonly ContractTool[]> => {
    refreshing ??= (async () => {
      try {
        const client = await upstream.client();
        tools = Object.freeze(await toolsOf(upstream, client, { ...options, server }));
        await refreshFeatures();
        options.onToolsChanged?.(tools);
        return tools;
      } finally {
        refreshing = undefined;
      }
    })();
    return refreshing;
  };
  const failed = (err: unknown): void => options.onRefreshError?.(err instanceof Error ? err : new Error(String(err)));
  onToolsChanged = () => {
    refresh().catch(failed);
  };
  onFeaturesChanged = () => {
    refreshFeatures().catch(failed);
  };
  try {
    await refresh();
  } catch (err) {
    await live?.client.close().catch(() => {});
    throw err;
  }
  return {
    server,
    get tools() {
      return tools;
    },
    get resources() {
      return features.resources;
    },
    get prompts() {
      return features.prompts;
    },
    async subscribeResource(uri: string) {
      const client = (await upstream.client()) as unknown as SubscribingClient;
      if (client.getProtocolEra?.() === 'modern') {
        const subscription = await client.listen({ resourceSubscriptions: [uri] });
        return () => subscription.close();
      }
      await client.subscribeResource({ uri });
      return async () => void (await client.unsubscribeResource({ uri }).catch(() => undefined));
    },
    get era() {
      if (live === undefined || live.closed) return undefined;
      const era = (live.client as unknown as McpClientLike).getProtocolEra?.();
      return era === 'modern' || era === 'legacy' ? era : undefined;
    },
    refresh,
    async close() {
      closing = true;
      const was = live;
      live = undefined;
      await was?.client.close().catch(() => {});
    },
  };
}

/** The 2.x SDK's local error codes that a live connection produces (the connection is kept). */
const LIVE_SDK_CODES: ReadonlySet<string> = new Set([
  'REQUEST_TIMEOUT',
  'INVALID_RESULT',
  'UNSUPPORTED_RESULT_TYPE',
  'INPUT_REQUIRED_ROUNDS_EXCEEDED',
  'CAPABILITY_NOT_SUPPORTED',
  'LIST_PAGINATION_EXCEEDED',
]);

/**
 * True when `err` came from a live connection, so the connection is kept: a JSON-RPC error code
 * from -32768 to -32001 (the standard errors, server errors, 1.x's request timeout), or one of
 * the 2.x SDK's codes for a timeout or an answer it could not use. Anything else drops it: a
 * closed connection (`CONNECTION_CLOSED`, 1.x's -32000), a failed send, an HTTP status (a session
 * the server no longer knows answers 404), an error without a code (a refused socket).
 */
function answeredByLiveServer(err: unknown): boolean {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  if (typeof code === 'string') return LIVE_SDK_CODES.has(code);
  return typeof code === 'number' && code >= -32768 && code <= -32001;
}

function labelOf(target: ServerTarget): string {
  if ('url' in target) return String(target.url);
  return [target.command, ...(target.args ?? [])].join(' ');
}

function stdioParams(target: StdioTarget): {
  command: string;
  args: string[];
  env?: Record<string, string>;
  cwd?: string;
  stderr: 'inherit' | 'ignore' | 'pipe';
} {
  if (typeof target.command !== 'string' || target.command === '')
    throw new TypeError('connectServer: "command" must be a non-empty string');
  return {
    command: target.command,
    args: [...(target.args ?? [])],
    ...(target.env === undefined ? {} : { env: { ...target.env } }),
    ...(target.cwd === undefined ? {} : { cwd: target.cwd }),
    stderr: target.stderr ?? 'inherit',
  };
}

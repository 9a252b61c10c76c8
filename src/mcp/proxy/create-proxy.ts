import { checkOptionsObject, optionKeys } from '../../util/options.js';
import type { Server } from '@modelcontextprotocol/server';
import type { ContractTool } from '../../contract/index.js';
import type { CallCoreOptions, PermissionPolicy } from '../../runtime/index.js';
import {
  connectServer,
  type ConsumerPolicyOptions,
  type HostElicitor,
  type ServerConnection,
} from '../client/index.js';
import { serverFor } from '../server/create-server.js';
import { ParkedRuns } from '../server/input-rounds/parked-runs.js';
import { closingFirst } from '../transports/http/closing-first.js';
import type { ServerInfo } from '../server/index.js';
import { LiveSet } from '../server/live-set.js';
import type { CacheHints } from '../server/cache-hints.js';
import type { SetChange } from '../server/set-change.js';
import { changeBusOf } from '../transports/change-bus.js';
import {
  connectStdio,
  listenHttp,
  type HttpHandle,
  type HttpOptions,
  type StdioHandle,
  type StdioOptions,
} from '../transports/index.js';
import { checkUpstream, upstreamName, type ProxyUpstream } from './upstream-config.js';
import { mergeFeatures, ProxyFeatures, type MergedFeatures } from './proxy-features.js';
import type { ProtocolEra } from '../server/extra.js';
import { stopTasksOf } from '../server/tasks/serve-tasks.js';
import { checkTaskOptions, type TaskOptions } from '../server/tasks/task-options.js';
import { raceTimeout } from '../../util/timeout.js';

/** How a proxy treats what passes through it. */
export interface ProxyOptions {
  /** Who the proxy says it is at `initialize`; default `{name: 'toolwright-proxy', version: '0.0.0'}`. */
  readonly info?: ServerInfo;
  /**
   * The host's permission policy, applied on the way through (see `ConsumeOptions.policy`). Left
   * out, nothing is checked and every tool is forwarded as it is (each states its permission in
   * `requires` for whoever checks it next).
   */
  readonly policy?: PermissionPolicy | ConsumerPolicyOptions;
  /**
   * The seed's bound on the model-facing text of each result, in code points (see
   * `projectResult`); the proxy then serves that one text part (structured content kept).
   */
  readonly maxLLMChars?: number;
  /**
   * The served bound of `createServer` (UTF-16 units, with toolwright's truncation marker),
   * applied after `maxLLMChars`: with both, the text is first projected and cut to `maxLLMChars`
   * code points, then cut again only if it is still longer than `maxOutputChars` UTF-16 units
   * (text outside the Basic Multilingual Plane counts two units per code point).
   */
  readonly maxOutputChars?: number;
  /**
   * Honours upstreams' `_meta` claims where they advertise the facts capability (default `true`):
   * the proxy then answers `execution/facts` for their tools by asking them, one request per
   * upstream and batch, so no claim is lost on the way through. `false` answers every facts
   * question as a tool without claims.
   */
  readonly trustClaims?: boolean;
  /**
   * Answers every question an upstream asks while one of its tools runs (elicitation: pushed in
   * the 2025 era, `input_required` in the 2026-07-28 era). Left out, a question goes to the
   * proxy's own client through the call in flight: pushed as `elicitation/create` to a 2025-era
   * client, or the proxy's own `input_required` answer to a 2026-07-28 client, which retries
   * with the answer (see `Upstream`).
   */
  readonly elicit?: HostElicitor;
  /** What happens to stdio upstreams' stderr (default `inherit`). */
  readonly stderr?: 'inherit' | 'ignore' | 'pipe';
  /** Told when an upstream's `list_changed` refresh fails or makes names collide (the old tools stay). */
  readonly onError?: (error: Error) => void;
  /**
   * Told every record of every proxied call as the proxy's call core learns of it (see
   * `CallCoreOptions.onRecord`): the upstream's record of the call, when its result carries one,
   * and the proxy's own permissions record under a `policy`.
   */
  readonly onRecord?: CallCoreOptions['onRecord'];
  /**
   * The caching hints of the proxy's list and read results in the 2026-07-28 era (see
   * `CacheHints`; default `ttlMs` 0). They are made from the merged set served at the time, so
   * they follow the upstreams' changes.
   */
  readonly cacheHints?: CacheHints;
  /**
   * How the proxy runs the tasks of the upstream tools that run as tasks (see `TaskOptions`): each
   * downstream task is a task of the proxy's own store (in memory by default), with the proxy's
   * own id, whose run calls the upstream tool as a task and polls it. `drainMs` (default 5,000)
   * is how long `close()` waits for running tasks before it ends them `failed`.
   */
  readonly tasks?: TaskOptions;
}

/** A running proxy: its upstream connections and the merged tools it serves. */
export interface Proxy {
  /** The merged tools, in upstream order then each server's order. */
  readonly tools: readonly ContractTool[];
  /** The merged resources and templates (each upstream's, prefixed names, URIs as they are), in upstream order. */
  readonly resources: MergedFeatures['resources'];
  /** The merged prompts (prefixed names), in upstream order. */
  readonly prompts: MergedFeatures['prompts'];
  readonly connections: readonly ServerConnection[];
  /** Builds a fresh SDK `Server` for one downstream connection (a `ServerFactory`). */
  createServer(): Server;
  /** Serves the proxy over stdio (see `connectStdio`). */
  serveStdio(options?: StdioOptions): Promise<StdioHandle>;
  /**
   * Serves the proxy over streamable HTTP (see `listenHttp`). With `auth` (the same options as
   * `serveHttp`'s: a token verifier, the issuer, the resource, the scopes every request needs),
   * the proxy is an OAuth 2.1 resource server: a request without a valid token is answered
   * `401` with `WWW-Authenticate: Bearer ...`, one without the required scopes `403
   * insufficient_scope`, before any upstream is called. Calls parked in the 2026-07-28 era are
   * shared by the endpoint's per-request servers and stopped by `close()`.
   */
  serveHttp(options?: HttpOptions): Promise<HttpHandle>;
  /**
   * Stops the proxy: its running tasks get the drain time (`tasks.drainMs`), then end `failed`
   * with "the server stopped before the task finished" (their upstream tasks are cancelled),
   * then every upstream connection is closed, waiting at most 5,000 ms for them.
   */
  close(): Promise<void>;
}

/** How long `close()` waits for the upstream connections to close: 5,000 ms. */
const UPSTREAM_CLOSE_MS = 5_000;

/** `createProxy`'s option keys. */
const CREATE_PROXY_KEYS = optionKeys<ProxyOptions>()(
  'info',
  'policy',
  'maxLLMChars',
  'maxOutputChars',
  'trustClaims',
  'elicit',
  'stderr',
  'onError',
  'onRecord',
  'cacheHints',
  'tasks',
);

/**
 * Connects to every upstream (stdio commands and URLs) and aggregates their tools, resources,
 * resource templates and prompts into one server. Each tool (resource, template, prompt) is served
 * with its upstream definition unchanged (its `_meta` included) but for its prefixed name
 * (resource URIs are never changed; see `ProxyFeatures` for subscriptions); calls are forwarded
 * (an upstream failure becomes the call's `isError` result, naming the server and tool; a dead
 * upstream is connected again on the next call); an upstream's `list_changed` refreshes its tools
 * and is forwarded to every connected client (2025-era clients by notification, 2026-07-28 clients
 * on their `subscriptions/listen` streams: over stdio the SDK routes the server's notification
 * there, over HTTP the endpoint's change bus). An upstream tool that runs as a task (2025-11-25
 * `execution.taskSupport`, or a toolwright claim in either era) is served as a task tool of the
 * proxy: a downstream task is the proxy's own (its id, its owner scope, its store: `tasks`), and
 * its run calls the upstream tool as a task and polls it at the upstream's interval (see
 * `connectTools`); `tasks/cancel` of it cancels the upstream task, and a question the upstream
 * asks mid-task reaches a 2025-era client with the task `input_required` meanwhile. Throws, after
 * closing what it opened, when an
 * upstream cannot be connected or listed, and when two servers list the same name: `proxy: tool
 * "echo" is listed by both "a" and "b"; give one of them a prefix` (and for one prompt name,
 * resource URI or URI template, see `mergeFeatures`).
 */
export async function createProxy(upstreams: readonly ProxyUpstream[], options: ProxyOptions = {}): Promise<Proxy> {
  checkOptionsObject('createProxy', options, CREATE_PROXY_KEYS);
  checkTaskOptions(options.tasks, 'createProxy');
  if (!Array.isArray(upstreams) || upstreams.length === 0)
    throw new TypeError('proxy: give at least one upstream server');
  const checked = upstreams.map(checkUpstream);
  const info = options.info ?? { name: 'toolwright-proxy', version: '0.0.0' };
  const serverOptions = {
    ...(options.maxOutputChars === undefined ? {} : { maxOutputChars: options.maxOutputChars }),
    ...(options.onRecord === undefined ? {} : { onRecord: options.onRecord }),
    ...(options.cacheHints === undefined ? {} : { cacheHints: options.cacheHints }),
    ...(options.tasks === undefined ? {} : { tasks: options.tasks }),
  };
  const connections: ServerConnection[] = [];
  const features = new ProxyFeatures(connections, (err) => options.onError?.(err));
  const reportError = (err: unknown): void => options.onError?.(err instanceof Error ? err : new Error(String(err)));
  let live: LiveSet | undefined;
  const featuresChanged = (): void => {
    if (live === undefined || connections.length < checked.length) return;
    try {
      live.update(featureChangeOf(live, mergeFeatures(checked.map(upstreamName), connections)), 'proxy');
    } catch (err) {
      reportError(err);
    }
  };
  const changed = (): void => {
    if (live === undefined || connections.length < checked.length) return;
    try {
      live.update({ tools: mergeTools(checked, connections) }, 'proxy');
    } catch (err) {
      reportError(err);
    }
  };
  try {
    for (const upstream of checked) {
      const policy = options.policy === undefined ? false : options.policy;
      connections.push(
        await connectServer(
          upstream.url !== undefined
            ? {
                url: upstream.url,
                ...(upstream.headers ? { headers: upstream.headers } : {}),
                ...(upstream.bearerToken ? { bearerToken: upstream.bearerToken } : {}),
              }
            : {
                command: upstream.command!,
                ...(upstream.args ? { args: upstream.args } : {}),
                ...(upstream.env ? { env: upstream.env } : {}),
                ...(upstream.cwd ? { cwd: upstream.cwd } : {}),
                stderr: options.stderr ?? 'inherit',
              },
          {
            server: upstreamName(upstream),
            policy,
            trustClaims: options.trustClaims ?? true,
            ...(upstream.prefix === undefined ? {} : { prefix: upstream.prefix }),
            ...(upstream.permission === undefined ? {} : { permission: upstream.permission }),
            ...(upstream.trustServerAnnotations === undefined
              ? {}
              : { trustServerAnnotations: upstream.trustServerAnnotations }),
            ...(options.maxLLMChars === undefined ? {} : { maxLLMChars: options.maxLLMChars }),
            ...(options.elicit === undefined ? {} : { elicit: options.elicit }),
            onToolsChanged: changed,
            onFeaturesChanged: featuresChanged,
            onResourceUpdated: (uri) => features.changes.resourceUpdated(uri),
            onRefreshError: (err) => options.onError?.(err),
          },
        ),
      );
    }
    const merged = mergeFeatures(checked.map(upstreamName), connections);
    live = new LiveSet({
      where: 'proxy',
      tools: mergeTools(checked, connections),
      options: {
        ...serverOptions,
        ...(merged.resources.length > 0 ? { resources: merged.resources } : {}),
        ...(merged.prompts.length > 0 ? { prompts: merged.prompts } : {}),
        changes: features.changes,
      },
    });
  } catch (err) {
    await Promise.all(connections.map((c) => c.close()));
    throw err;
  }
  const set = live;

  const serverOf = (transport: 'stdio' | 'http' | 'other', runs?: ParkedRuns, era?: ProtocolEra): Server =>
    serverFor(info, set, { ...serverOptions, transport }, runs, era);
  return {
    get tools() {
      return set.toolList;
    },
    get resources() {
      return set.resourceEntries;
    },
    get prompts() {
      return set.promptEntries;
    },
    connections,
    createServer: () => serverOf('other'),
    serveStdio: (stdio = {}) =>
      connectStdio((context?: { era?: ProtocolEra }) => serverOf('stdio', undefined, context?.era), stdio),
    serveHttp: async (http = {}) => {
      const runs = new ParkedRuns();
      const changeEvents = changeBusOf(set);
      let handle: HttpHandle;
      try {
        handle = await listenHttp((context?: { era?: ProtocolEra }) => serverOf('http', runs, context?.era), {
          ...http,
          changeEvents: changeEvents.bus,
        });
      } catch (err) {
        changeEvents.stop();
        throw err;
      }
      return closingFirst(handle, async () => {
        changeEvents.stop();
        await Promise.all([stopTasksOf(set.source), runs.closeAll()]);
      });
    },
    close: async () => {
      await stopTasksOf(set.source);
      set.close();
      await raceTimeout(Promise.all(connections.map((c) => c.close())), UPSTREAM_CLOSE_MS, () => undefined);
    },
  };
}

/**
 * The change that makes the proxy serve `merged`: the resources and the prompts whole, each only
 * when there are some or the proxy serves that kind already (so a proxy whose upstreams serve no
 * prompts declares none, as when it started).
 */
function featureChangeOf(live: LiveSet, merged: MergedFeatures): SetChange {
  const served = live.features;
  return {
    ...(merged.resources.length > 0 || served?.resources !== undefined ? { resources: merged.resources } : {}),
    ...(merged.prompts.length > 0 || served?.prompts !== undefined ? { prompts: merged.prompts } : {}),
  };
}

/** Every connection's tools in order; throws on a name two servers share. */
function mergeTools(upstreams: readonly ProxyUpstream[], connections: readonly ServerConnection[]): ContractTool[] {
  const owner = new Map<string, string>();
  const tools: ContractTool[] = [];
  connections.forEach((connection, index) => {
    const name = upstreamName(upstreams[index]!);
    for (const tool of connection.tools) {
      const first = owner.get(tool.name);
      if (first !== undefined)
        throw new Error(
          `proxy: tool ${JSON.stringify(tool.name)} is listed by both ${JSON.stringify(first)} and ${JSON.stringify(name)}; give one of them a prefix`,
        );
      owner.set(tool.name, name);
      tools.push(tool);
    }
  });
  return tools;
}

import type { Tool as McpTool } from '@modelcontextprotocol/server';
import type { ContractPrompt, ContractResources, ContractTool } from '../../contract/index.js';
import { errorText } from '../../util/describe.js';
import type { CallCoreOptions } from '../../runtime/call/index.js';
import { cacheHintOf, checkCacheHints, type CacheableMethod, type CacheHints, type CacheScope } from './cache-hints.js';
import { servedFeaturesOf, type FeatureOptions, type ServedFeatures } from './features.js';
import { servedToolsOf, type ServedTool, type ServedTools } from './served-tools.js';
import { ServerChanges } from './server-changes.js';
import { nextListsOf, SetChangeError, type SetChange } from './set-change.js';

/** The server options a set is prepared with (see `ServerOptions`; the transport's own are ignored). */
export interface LiveSetOptions extends CallCoreOptions, FeatureOptions {
  readonly scheduling?: unknown;
  readonly replay?: unknown;
  readonly hideForbiddenTools?: boolean;
  readonly cacheHints?: CacheHints;
}

/** What a `LiveSet` starts from. */
export interface LiveSetInit {
  /** Who serves (`createServer`, `serveHttp`, `proxy`, ...), named in every error of the first preparation. */
  readonly where: string;
  readonly tools: readonly ContractTool[];
  /** The server options (call core, features, `changes`, `hideForbiddenTools`, `cacheHints`, ...). */
  readonly options: LiveSetOptions;
  /** How tools are listed (a schema profile makes listed copies); default: as they are. */
  readonly listed?: (tools: readonly ContractTool[]) => readonly ContractTool[];
}

/**
 * What one endpoint (or one server) serves now, and how it changes: the prepared tools, the
 * prepared resources and prompts, and `changes`, the `ServerChanges` every server and change
 * bus built from the set listens to. Each change is checked and prepared whole before it is
 * applied (see `update`), then the set moves to the new lists at once: a request reads the lists
 * when it arrives, so a call already running finishes with the tool it started with, and a new
 * call of a removed tool is an unknown tool. Tools the change keeps are not prepared again (their
 * validators, claims and scheduling stay). The application's own `changes` (the option) are
 * relayed to `changes` until `close()`. Internal to the MCP edge; the public face is `ServedSet`.
 */
export class LiveSet {
  /** Where every change of the set (and every change the application announces) is told. */
  readonly changes = new ServerChanges();
  /**
   * The tool list the set started from: servers of one set share their principal and server
   * scheduling scopes by it.
   */
  readonly source: object;
  private served: ServedTools;
  private listedDefinitions: readonly McpTool[];
  private resourceList: ContractResources | undefined;
  private promptList: readonly ContractPrompt[] | undefined;
  private currentFeatures: ServedFeatures | undefined;
  private readonly checks = new Set<(tools: ServedTools) => void>();
  private readonly stopRelaying: () => void;
  private readonly listed: (tools: readonly ContractTool[]) => readonly ContractTool[];
  private readonly options: LiveSetOptions;

  /** Prepares the first set; throws what `servedToolsOf`, `servedFeaturesOf` and `checkCacheHints` throw. */
  constructor(init: LiveSetInit) {
    const { where, options } = init;
    this.listed = init.listed ?? ((tools) => tools);
    checkCacheHints(options.cacheHints, where);
    this.served = servedToolsOf(this.listed(init.tools), where, options);
    this.source = this.served.source ?? this.served;
    this.listedDefinitions = definitionsOf(this.served);
    this.resourceList = options.resources;
    this.promptList = options.prompts;
    this.currentFeatures = servedFeaturesOf(options, where);
    this.options = options;
    const relay = this.changes;
    this.stopRelaying =
      options.changes?.listen({
        resourceUpdated: (uri) => relay.resourceUpdated(uri),
        resourcesChanged: () => relay.resourcesChanged(),
        toolsChanged: () => relay.toolsChanged(),
        promptsChanged: () => relay.promptsChanged(),
      }) ?? (() => undefined);
  }

  /** The tools served now, by name, in listing order. */
  get tools(): ServedTools {
    return this.served;
  }

  /** The `tools/list` definitions of the tools served now, in order. */
  get definitions(): readonly McpTool[] {
    return this.listedDefinitions;
  }

  /** The resources and prompts served now; `undefined` while the set serves neither. */
  get features(): ServedFeatures | undefined {
    return this.currentFeatures;
  }

  /** The served tools now, in listing order (as listed: the profiled copies under a schema profile). */
  get toolList(): readonly ContractTool[] {
    return [...this.served.values()].map((served) => served.prepared.tool);
  }

  /** The resources and templates served now, in listing order (empty when there are none). */
  get resourceEntries(): ContractResources {
    return this.resourceList ?? [];
  }

  /** The prompts served now, in listing order (empty when there are none). */
  get promptEntries(): readonly ContractPrompt[] {
    return this.promptList ?? [];
  }

  /** The configured caching hints (see `CacheHints`). */
  get cacheHints(): CacheHints | undefined {
    return this.options.cacheHints;
  }

  /**
   * The caching hint of a `method` result made now (see `CacheHints`): a `tools/list` that
   * `hideForbiddenTools` filters (some tool served now has `scopes`) is private whatever is
   * configured; a `resources/list` some template enumerates, and every `resources/read`, is private
   * unless configured otherwise; the other lists are public unless configured otherwise.
   */
  hintOf(method: CacheableMethod): { readonly ttlMs: number; readonly cacheScope: CacheScope } {
    let scope: CacheScope = 'public';
    let mustBePrivate = false;
    if (method === 'tools/list') {
      mustBePrivate =
        this.options.hideForbiddenTools === true &&
        [...this.served.values()].some((served) => (served.prepared.tool.scopes?.length ?? 0) > 0);
    } else if (method === 'resources/read') {
      scope = 'private';
    } else if (method === 'resources/list') {
      const enumerates = this.currentFeatures?.resources?.templates.some((t) => t.template.list !== undefined) ?? false;
      if (enumerates) scope = 'private';
    }
    return cacheHintOf(method, this.options.cacheHints, { scope: mustBePrivate ? 'private' : scope, mustBePrivate });
  }

  /**
   * Adds a check every next tool set must pass before it is served (it throws to refuse the
   * change, as an HTTP endpoint with `auth` refuses malformed `scopes`), run once on the set
   * served now; returns the function that removes it.
   */
  addCheck(check: (tools: ServedTools) => void): () => void {
    check(this.served);
    this.checks.add(check);
    return () => void this.checks.delete(check);
  }

  /**
   * Applies `change` (see `SetChange`), all of it or nothing: the new lists are made, each kind
   * that changed is prepared as the first set was (the tools it adds only; the resources and
   * prompts whole) and checked, and only then served; every server and endpoint of the set is
   * then told, once per kind that changed (`toolsChanged`, `resourcesChanged`, `promptsChanged`
   * on `changes`). Throws a `SetChangeError` whose message starts with `where` for a change that
   * is refused (see `nextListsOf`; a preparation's or a check's error is its `cause`), and then
   * serves what it served before.
   */
  update(change: SetChange, where: string): void {
    const next = nextListsOf(
      { tools: this.toolList, resources: this.resourceEntries, prompts: this.promptEntries },
      change,
      where,
    );
    let tools = this.served;
    let features = this.currentFeatures;
    try {
      if (next.tools !== undefined) tools = this.preparedTools(next.tools, where);
      if (next.resources !== undefined || next.prompts !== undefined) {
        const resources = next.resources ?? this.resourceList;
        const prompts = next.prompts ?? this.promptList;
        features = servedFeaturesOf(
          {
            ...this.options,
            ...(resources === undefined ? {} : { resources }),
            ...(prompts === undefined ? {} : { prompts }),
          },
          where,
        );
      }
      if (tools !== this.served) for (const check of this.checks) check(tools);
    } catch (error) {
      if (error instanceof SetChangeError) throw error;
      const text = errorText(error);
      throw new SetChangeError(text.startsWith(`${where}:`) ? text : `${where}: ${text}`, { cause: error });
    }
    if (tools !== this.served) {
      this.served = tools;
      this.listedDefinitions = definitionsOf(tools);
    }
    if (next.resources !== undefined) this.resourceList = next.resources;
    if (next.prompts !== undefined) this.promptList = next.prompts;
    this.currentFeatures = features;
    if (next.tools !== undefined) this.changes.toolsChanged();
    if (next.resources !== undefined) this.changes.resourcesChanged();
    if (next.prompts !== undefined) this.changes.promptsChanged();
  }

  /** Stops relaying the application's `changes`. Servers still open keep serving the set as it is. */
  close(): void {
    this.stopRelaying();
  }

  /**
   * The served tools of `list`, in its order: the ones served now kept as they are, the others
   * listed (under the profile) and prepared (throws what `servedToolsOf` throws, and for a name
   * listed twice).
   */
  private preparedTools(list: readonly ContractTool[], where: string): ServedTools {
    const kept = new Map<ContractTool, ServedTool>();
    for (const served of this.served.values()) kept.set(served.prepared.tool, served);
    const fresh = list.filter((tool) => !kept.has(tool));
    const prepared = [...servedToolsOf(this.listed(fresh), where, this.options).values()];
    const made = new Map<string, ServedTool>();
    let index = 0;
    for (const tool of list) {
      const served = kept.get(tool) ?? prepared[index++]!;
      if (made.has(served.prepared.name))
        throw new SetChangeError(
          `${where}: tool ${JSON.stringify(served.prepared.name)} is listed twice; tool names must be unique`,
        );
      made.set(served.prepared.name, served);
    }
    return Object.assign(made, { source: this.source });
  }
}

function definitionsOf(tools: ServedTools): readonly McpTool[] {
  return Object.freeze([...tools.values()].map((served) => served.definition));
}

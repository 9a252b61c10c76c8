import type { ContractPrompt, ContractResources, ContractTool } from '../../contract/index.js';
import type { LiveSet } from './live-set.js';
import type { SetChange } from './set-change.js';

/**
 * What a running server serves, and how to change it while clients are connected: the handles
 * of `serveStdio` and `serveHttp` are one, so are `ToolwrightServer` (the Nest module) and the
 * testers of `toolwright/testing`; `servedSetOf(server)` gives the one of a server `createServer`
 * made. Every change is checked and prepared as the first set was, and applied whole or not at
 * all (a `SetChangeError` says why, and nothing changed). Once applied:
 *
 * - every connected client that can hear of it is told, the way its era defines:
 *   `notifications/tools/list_changed` (and `prompts/`, `resources/`) to a 2025-era session, and
 *   to a 2026-07-28 `subscriptions/listen` stream that asked for it (`toolsListChanged`, ...);
 * - `tools/list` (and the other lists) answer the new set, with caching hints made from it (see
 *   `CacheHints`), and so do `execution/facts`, `hideForbiddenTools` and an HTTP endpoint's scope
 *   checks;
 * - a call already running finishes with the tool it started with, a replaced tool's new calls
 *   run the new one, and a new call of a removed tool is an unknown tool (`-32602 Unknown tool`).
 *   Scheduling claims hold across the change: a call of a new tool waits for the calls its claims
 *   order it after, whichever tool they run.
 *
 * The capabilities a connection was told at `initialize` stay as they were for it: a connection
 * made while the set served no prompts hears of no prompts, one made later does.
 */
export interface ServedSet {
  /** The tools served now, in listing order (under a schema profile: the listed copies). */
  readonly tools: readonly ContractTool[];
  /** The resources and resource templates served now, in listing order. */
  readonly resources: ContractResources;
  /** The prompts served now, in listing order. */
  readonly prompts: readonly ContractPrompt[];
  /** Serves `tools` too: a name served already is replaced where it is listed, a new one is listed last. */
  addTools(tools: readonly ContractTool[]): void;
  /** Stops serving the tools named; a name not served is refused. */
  removeTools(names: readonly string[]): void;
  /** Serves `resources` too: a resource by its URI, a template by its URI template, replaced or listed last. */
  addResources(resources: ContractResources): void;
  /** Stops serving the resources (by URI) and templates (by URI template) named. */
  removeResources(keys: readonly string[]): void;
  /** Serves `prompts` too: a name served already is replaced, a new one is listed last. */
  addPrompts(prompts: readonly ContractPrompt[]): void;
  /** Stops serving the prompts named. */
  removePrompts(names: readonly string[]): void;
  /** Applies several changes at once, telling clients once per kind that changed (see `SetChange`). */
  update(change: SetChange): void;
}

/** The `ServedSet` face of `live`: each method one `live.update`, errors naming the method. */
export function servedSetFacade(live: LiveSet): ServedSet {
  return Object.freeze({
    get tools() {
      return live.toolList;
    },
    get resources() {
      return live.resourceEntries;
    },
    get prompts() {
      return live.promptEntries;
    },
    addTools: (tools: readonly ContractTool[]) => live.update({ addTools: tools }, 'addTools'),
    removeTools: (names: readonly string[]) => live.update({ removeTools: names }, 'removeTools'),
    addResources: (resources: ContractResources) => live.update({ addResources: resources }, 'addResources'),
    removeResources: (keys: readonly string[]) => live.update({ removeResources: keys }, 'removeResources'),
    addPrompts: (prompts: readonly ContractPrompt[]) => live.update({ addPrompts: prompts }, 'addPrompts'),
    removePrompts: (names: readonly string[]) => live.update({ removePrompts: names }, 'removePrompts'),
    update: (change: SetChange) => live.update(change, 'update'),
  });
}

/**
 * `handle` with the members of `set` beside its own (getters stay getters): what `serveStdio`
 * and `serveHttp` resolve to.
 */
export function withServedSet<H extends object>(handle: H, set: ServedSet): H & ServedSet {
  const joined = {} as H & ServedSet;
  for (const source of [handle, set] as object[]) {
    for (const [key, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(source)))
      Object.defineProperty(joined, key, { ...descriptor, configurable: false });
  }
  return joined;
}

import type { ContractPrompt, ContractResources } from '../../contract/index.js';
import { kindOf } from '../../util/describe.js';
import { isPositiveInteger } from '../../util/limits.js';
import type { CallCoreOptions } from '../../runtime/call/index.js';
import {
  preparePrompts,
  prepareResources,
  type PreparedPrompt,
  type PreparedResources,
} from '../../runtime/features/index.js';
import { isServerChanges, type ServerChanges } from './server-changes.js';

/** The default number of entries one page of `resources/list`, `resources/templates/list` or `prompts/list` holds. */
export const DEFAULT_LIST_PAGE_SIZE = 100;

/** What a server serves besides tools, as given in its options. */
export interface FeatureOptions {
  /** The resources and resource templates to serve (see `compileResources`), in listing order. */
  readonly resources?: ContractResources;
  /** The prompts to serve (see `compilePrompts`), in listing order. */
  readonly prompts?: readonly ContractPrompt[];
  /**
   * Where the application announces changes of its resources: `changes.resourceUpdated(uri)`
   * sends `notifications/resources/updated` to every client subscribed to `uri`,
   * `changes.resourcesChanged()` sends `notifications/resources/list_changed` (see
   * `ServerChanges`). A change of the served set itself (see `ServedSet`) is told without it.
   */
  readonly changes?: ServerChanges;
  /** How many entries a page of `resources/list`, `resources/templates/list` and `prompts/list` holds (default 100). */
  readonly listPageSize?: number;
}

/** The resources and prompts of one served set, prepared once. */
export interface ServedFeatures {
  readonly resources: PreparedResources | undefined;
  readonly prompts: ReadonlyMap<string, PreparedPrompt> | undefined;
  readonly changes: ServerChanges | undefined;
  readonly pageSize: number;
  /** True when some prompt or template completes (the `completions` capability is declared then only). */
  readonly completes: boolean;
}

/**
 * Prepares the resources and prompts of a server's options once (see `prepareResources` and
 * `preparePrompts`, with the call-core options of the host), or answers `undefined` when the
 * options give neither. Throws, naming the option, for a bad `changes` or `listPageSize`, and
 * what the preparation throws for a bad set.
 */
export function servedFeaturesOf(options: FeatureOptions & CallCoreOptions, where: string): ServedFeatures | undefined {
  const { resources, prompts, changes, listPageSize } = options;
  if (changes !== undefined && !isServerChanges(changes))
    throw new TypeError(`${where}: "changes" must be a ServerChanges (new ServerChanges()), got ${kindOf(changes)}`);
  if (listPageSize !== undefined && !isPositiveInteger(listPageSize))
    throw new TypeError(`${where}: "listPageSize" must be a positive integer, got ${String(listPageSize)}`);
  if (resources === undefined && prompts === undefined) return undefined;
  const preparedResources = resources === undefined ? undefined : prepareResources(resources, options, where);
  const preparedPrompts = prompts === undefined ? undefined : preparePrompts(prompts, options, where);
  const completes =
    (preparedResources?.templates.some((t) => t.template.complete !== undefined) ?? false) ||
    [...(preparedPrompts?.values() ?? [])].some((p) => p.prompt.complete !== undefined);
  return Object.freeze({
    resources: preparedResources,
    prompts: preparedPrompts,
    changes,
    pageSize: listPageSize ?? DEFAULT_LIST_PAGE_SIZE,
    completes,
  });
}

/**
 * The capabilities a server declares for `features`: `resources` (`subscribe` and `listChanged`),
 * `prompts` (`listChanged`) and `completions` where they apply. Both lists may change while the
 * server runs (see `ServedSet`), so both say `listChanged: true`.
 */
export function featureCapabilitiesOf(features: ServedFeatures | undefined): Record<string, unknown> {
  if (features === undefined) return {};
  const capabilities: Record<string, unknown> = {};
  if (features.resources !== undefined) capabilities.resources = { subscribe: true, listChanged: true };
  if (features.prompts !== undefined) capabilities.prompts = { listChanged: true };
  if (features.completes) capabilities.completions = {};
  return capabilities;
}

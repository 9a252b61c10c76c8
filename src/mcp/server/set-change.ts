import {
  isResourceTemplate,
  ToolwrightError,
  type ContractPrompt,
  type ContractResource,
  type ContractResources,
  type ContractResourceTemplate,
  type ContractTool,
} from '../../contract/index.js';
import { kindOf } from '../../util/describe.js';

/**
 * One change of what a server serves, applied at once (see `ServedSet.update`). For each kind,
 * either the whole new list (`tools`, `resources`, `prompts`) or what to add and what to remove
 * (`addTools` and `removeTools`, ...), never both. An added tool (prompt) whose name is served
 * already replaces it where it is listed; a new one is listed last. Resources are keyed by their
 * URI, templates by their URI template. Removing runs before adding, so a change may remove a
 * name and add it back. A kind the change leaves out is left as it is.
 */
export interface SetChange {
  /** The whole tool list, in listing order, in place of the one served now. */
  readonly tools?: readonly ContractTool[];
  /** Tools to add, or to replace by name. */
  readonly addTools?: readonly ContractTool[];
  /** The names of served tools to remove. */
  readonly removeTools?: readonly string[];
  /** The whole list of resources and templates, in place of the one served now. */
  readonly resources?: ContractResources;
  /** Resources (by URI) and templates (by URI template) to add, or to replace. */
  readonly addResources?: ContractResources;
  /** The URIs of served resources and the URI templates of served templates to remove. */
  readonly removeResources?: readonly string[];
  /** The whole prompt list, in place of the one served now. */
  readonly prompts?: readonly ContractPrompt[];
  /** Prompts to add, or to replace by name. */
  readonly addPrompts?: readonly ContractPrompt[];
  /** The names of served prompts to remove. */
  readonly removePrompts?: readonly string[];
}

/**
 * A change of a served set that was refused (see `ServedSet.update`): a malformed change, a
 * name or URI to remove that is not served, a tool, resource or prompt that cannot be served (the
 * preparation's error is the `cause`, its text the message's end), or a check of the host's (an
 * HTTP endpoint with `auth` checks the tools' scopes). Nothing of the change was applied: what
 * was served before is served still. Code `set-change-refused`.
 */
export class SetChangeError extends ToolwrightError {
  override readonly name = 'SetChangeError';
  constructor(message: string, options?: { cause?: unknown }) {
    super('set-change-refused', message, options);
  }
}

/** The three kinds of entries a set holds, with how the change names them. */
interface KindOfEntry<T> {
  readonly whole: 'tools' | 'resources' | 'prompts';
  readonly add: 'addTools' | 'addResources' | 'addPrompts';
  readonly remove: 'removeTools' | 'removeResources' | 'removePrompts';
  /** How one entry is named in an error: `tool "x"`. */
  readonly named: (key: string) => string;
  /** The key an entry is found by, or `undefined` when it has none (the preparation refuses it then). */
  readonly keyOf: (entry: T) => string | undefined;
}

const TOOLS: KindOfEntry<ContractTool> = {
  whole: 'tools',
  add: 'addTools',
  remove: 'removeTools',
  named: (key) => `tool ${JSON.stringify(key)}`,
  keyOf: (tool) => (typeof tool?.name === 'string' ? tool.name : undefined),
};

const RESOURCES: KindOfEntry<ContractResource | ContractResourceTemplate> = {
  whole: 'resources',
  add: 'addResources',
  remove: 'removeResources',
  named: (key) => `resource ${JSON.stringify(key)}`,
  keyOf: (resource) => {
    if (typeof resource !== 'object' || resource === null) return undefined;
    const key = isResourceTemplate(resource) ? resource.uriTemplate : (resource as { uri?: unknown }).uri;
    return typeof key === 'string' ? key : undefined;
  },
};

const PROMPTS: KindOfEntry<ContractPrompt> = {
  whole: 'prompts',
  add: 'addPrompts',
  remove: 'removePrompts',
  named: (key) => `prompt ${JSON.stringify(key)}`,
  keyOf: (prompt) => (typeof prompt?.name === 'string' ? prompt.name : undefined),
};

const CHANGE_KEYS: ReadonlySet<string> = new Set([
  'tools',
  'addTools',
  'removeTools',
  'resources',
  'addResources',
  'removeResources',
  'prompts',
  'addPrompts',
  'removePrompts',
]);

/** What a change makes of each kind: the next list, or `undefined` for a kind it leaves as it is. */
export interface NextLists {
  readonly tools: readonly ContractTool[] | undefined;
  readonly resources: ContractResources | undefined;
  readonly prompts: readonly ContractPrompt[] | undefined;
}

/**
 * The lists `change` makes of the `current` ones (see `SetChange`), each `undefined` for a kind
 * the change leaves out. Throws a `SetChangeError` naming `where` and the problem for a change
 * that is not an object, an unknown key (naming the known ones), a whole list given with additions
 * or removals of its kind, a list that is not an array, a name to remove that is not a string or
 * not served, and one named twice among the additions (the preparation refuses the rest).
 */
export function nextListsOf(
  current: {
    readonly tools: readonly ContractTool[];
    readonly resources: ContractResources;
    readonly prompts: readonly ContractPrompt[];
  },
  change: SetChange,
  where: string,
): NextLists {
  if (typeof change !== 'object' || change === null || Array.isArray(change))
    throw new SetChangeError(
      `${where}: the change must be an object such as { addTools: [...] }, got ${kindOf(change)}`,
    );
  for (const key of Object.keys(change))
    if (!CHANGE_KEYS.has(key))
      throw new SetChangeError(`${where}: unknown change ${JSON.stringify(key)}; use ${[...CHANGE_KEYS].join(', ')}`);
  return {
    tools: nextOf(current.tools, change, TOOLS, where),
    resources: nextOf(current.resources, change, RESOURCES, where),
    prompts: nextOf(current.prompts, change, PROMPTS, where),
  };
}

function nextOf<T>(
  current: readonly T[],
  change: SetChange,
  kind: KindOfEntry<T>,
  where: string,
): readonly T[] | undefined {
  const whole = change[kind.whole] as readonly T[] | undefined;
  const added = change[kind.add] as readonly T[] | undefined;
  const removed = change[kind.remove];
  if (whole === undefined && added === undefined && removed === undefined) return undefined;
  if (whole !== undefined) {
    if (added !== undefined || removed !== undefined)
      throw new SetChangeError(
        `${where}: "${kind.whole}" replaces the whole list; give it without "${kind.add}" and "${kind.remove}"`,
      );
    if (!Array.isArray(whole))
      throw new SetChangeError(`${where}: "${kind.whole}" must be an array, got ${kindOf(whole)}`);
    return [...whole];
  }
  if (added !== undefined && !Array.isArray(added))
    throw new SetChangeError(`${where}: "${kind.add}" must be an array, got ${kindOf(added)}`);
  if (removed !== undefined && !Array.isArray(removed))
    throw new SetChangeError(`${where}: "${kind.remove}" must be an array of names, got ${kindOf(removed)}`);
  const gone = new Set<string>();
  for (const name of removed ?? []) {
    if (typeof name !== 'string')
      throw new SetChangeError(`${where}: "${kind.remove}" must hold strings, got ${kindOf(name)}`);
    if (!current.some((entry) => kind.keyOf(entry) === name))
      throw new SetChangeError(`${where}: no ${kind.named(name)} is served, so it cannot be removed`);
    gone.add(name);
  }
  const next = current.filter((entry) => !gone.has(kind.keyOf(entry) ?? ''));
  const seen = new Set<string>();
  for (const entry of added ?? []) {
    const key = kind.keyOf(entry);
    if (key === undefined) {
      // No key to place it by: listed last, for the preparation to refuse with its own words.
      next.push(entry);
      continue;
    }
    if (seen.has(key)) throw new SetChangeError(`${where}: ${kind.named(key)} is added twice`);
    seen.add(key);
    const at = next.findIndex((served) => kind.keyOf(served) === key);
    if (at === -1) next.push(entry);
    else next[at] = entry;
  }
  return next;
}

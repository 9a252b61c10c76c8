import {
  isJsonObject,
  isResourceTemplate,
  RESOURCE_URI_PATTERN,
  TOOL_NAME_PATTERN,
  type ContractPrompt,
  type ContractResource,
  type ContractResources,
  type ContractResourceTemplate,
  type Requirement,
  type TemplateVariables,
} from '../../contract/index.js';
import { featureEntryOf, type FeatureEntry } from '../../compiler/internal.js';
import { kindOf } from '../../util/describe.js';
import { isPositiveInteger } from '../../util/limits.js';
import { matchUriTemplate, parseUriTemplate, type ParsedTemplate } from '../../util/uri-template.js';
import { checkTimeout } from '../call/time-limit.js';
import { coreSettingsOf, type CallCoreOptions, type CoreSettings } from '../call/options.js';
import type { PermissionPolicy } from '../permissions/policy.js';

/** What every prepared resource, template or prompt says of itself. */
interface PreparedCommon {
  /**
   * The time limit of each read or rendering in milliseconds: its own `timeoutMs`, else the host's;
   * `undefined` for none.
   */
  readonly timeoutMs: number | undefined;
}

/** A resource with a fixed URI, ready to be read through the core (see `runRead`). Made only by `prepareResources`. */
export interface PreparedResource extends PreparedCommon {
  readonly kind: 'resource';
  readonly resource: ContractResource;
}

/** A resource template, ready to be read through the core (see `runRead`). Made only by `prepareResources`. */
export interface PreparedTemplate extends PreparedCommon {
  readonly kind: 'template';
  readonly template: ContractResourceTemplate;
  /** The names of its template's variables, in order. */
  readonly variables: readonly string[];
}

/** A prompt, ready to be rendered through the core (see `runPrompt`). Made only by `preparePrompts`. */
export interface PreparedPrompt extends PreparedCommon {
  readonly kind: 'prompt';
  readonly prompt: ContractPrompt;
}

/** What the core reads of a prepared resource, template or prompt besides. Internal to the core. */
export interface CoreCommon {
  /** How `compileResources`/`compilePrompts` run it step by step, or `undefined` for a hand-built one. */
  readonly entry: FeatureEntry | undefined;
  readonly maxOutputChars: number | undefined;
  readonly requires: readonly Requirement[];
  readonly policy: PermissionPolicy | undefined;
}

/** A template as the core reads it: its parsed template too. Internal to the core. */
export interface CoreTemplate extends PreparedTemplate, CoreCommon {
  readonly parsed: ParsedTemplate;
}

/** The core's view of any prepared value (see `CoreCommon`). Internal to the core. */
export function coreOf<T extends PreparedResource | PreparedTemplate | PreparedPrompt>(prepared: T): T & CoreCommon {
  return prepared as T & CoreCommon;
}

/** The resources of one served set, checked once, with the host's settings fixed. */
export interface PreparedResources {
  /** The resources with fixed URIs, by URI, in listing order. */
  readonly resources: ReadonlyMap<string, PreparedResource>;
  /** The templates, in listing order (a URI is matched against them in this order). */
  readonly templates: readonly PreparedTemplate[];
  /** The templates by their URI template (what `completion/complete` names). */
  readonly byTemplate: ReadonlyMap<string, PreparedTemplate>;
  /**
   * What serves `uri`: the resource with that URI, else the first template it matches with the
   * values it gave the variables; `undefined` when none does.
   */
  find(
    uri: string,
  ):
    | { readonly resource: PreparedResource }
    | { readonly template: PreparedTemplate; readonly variables: TemplateVariables }
    | undefined;
}

function commonOf(made: object, label: string, settings: CoreSettings): PreparedCommon & CoreCommon {
  const given = made as { timeoutMs?: unknown; maxOutputChars?: unknown; requires?: unknown };
  const timeoutProblem = checkTimeout(given.timeoutMs);
  if (timeoutProblem !== undefined) throw new Error(`${label}: timeoutMs: ${timeoutProblem}`);
  if (given.maxOutputChars !== undefined && !isPositiveInteger(given.maxOutputChars))
    throw new Error(`${label}: maxOutputChars: expected a positive integer, got ${String(given.maxOutputChars)}`);
  const requires = given.requires ?? [];
  if (!Array.isArray(requires))
    throw new Error(`${label}: requires: expected an array of requirements, got ${kindOf(requires)}`);
  return {
    entry: featureEntryOf(made),
    timeoutMs: (given.timeoutMs as number | undefined) ?? settings.timeoutMs,
    maxOutputChars: (given.maxOutputChars as number | undefined) ?? settings.maxOutputChars,
    requires: requires as readonly Requirement[],
    policy: settings.policy,
  };
}

/**
 * Checks a resource set and prepares it for the core with the host's options (`policy`,
 * `timeoutMs`, `maxOutputChars`; interceptors wrap tool calls only). Throws a `TypeError` for
 * bad options or a set that is not an array of resources, and an `Error` naming the resource
 * for a URI that is not absolute, a template that does not parse or has no variable, a blank
 * name, a missing `read`, a URI or template listed twice, or a bad `timeoutMs`,
 * `maxOutputChars` or `requires`.
 */
export function prepareResources(
  resources: ContractResources,
  options: CallCoreOptions = {},
  where = 'prepareResources',
): PreparedResources {
  const settings = coreSettingsOf(options, where);
  if (!Array.isArray(resources))
    throw new TypeError(`${where}: "resources" must be an array of contract resources, got ${kindOf(resources)}`);
  const fixed = new Map<string, PreparedResource>();
  const templates: CoreTemplate[] = [];
  const byTemplate = new Map<string, PreparedTemplate>();
  resources.forEach((made, index) => {
    if (!isJsonObject(made) && (typeof made !== 'object' || made === null))
      throw new TypeError(`${where}: resources[${index}] is ${kindOf(made)}, not a contract resource`);
    const given = made as Partial<ContractResource> & Partial<ContractResourceTemplate>;
    const key = isResourceTemplate(made) ? made.uriTemplate : given.uri;
    const label = `${where}: resource ${typeof key === 'string' ? JSON.stringify(key) : `at ${index}`}`;
    if (typeof given.name !== 'string' || given.name.trim() === '')
      throw new Error(`${label}: "name" must be a non-empty string`);
    if (typeof given.read !== 'function') throw new Error(`${label}: "read" must be a function`);
    const common = commonOf(made, label, settings);
    if (isResourceTemplate(made)) {
      const parsed = parseUriTemplate(made.uriTemplate);
      if (!parsed.ok) throw new Error(`${label}: not a valid RFC 6570 URI template: ${parsed.problem}`);
      if (parsed.template.variables.length === 0) throw new Error(`${label}: a URI template needs a variable`);
      if (byTemplate.has(made.uriTemplate)) throw new Error(`${label} is listed twice; URI templates must be unique`);
      const prepared: CoreTemplate = Object.freeze({
        kind: 'template',
        template: made,
        variables: Object.freeze(parsed.template.variables.map((variable) => variable.name)),
        parsed: parsed.template,
        ...common,
      });
      templates.push(prepared);
      byTemplate.set(made.uriTemplate, prepared);
      return;
    }
    if (typeof given.uri !== 'string' || !RESOURCE_URI_PATTERN.test(given.uri))
      throw new Error(`${label}: "uri" must be an absolute URI (or give a "uriTemplate")`);
    if (fixed.has(given.uri)) throw new Error(`${label} is listed twice; resource URIs must be unique`);
    fixed.set(given.uri, Object.freeze({ kind: 'resource', resource: made as ContractResource, ...common }));
  });
  return Object.freeze({
    resources: fixed,
    templates: Object.freeze(templates),
    byTemplate,
    find(uri: string) {
      const resource = fixed.get(uri);
      if (resource !== undefined) return { resource };
      for (const template of templates) {
        const variables = matchUriTemplate(template.parsed, uri);
        if (variables !== undefined) return { template, variables };
      }
      return undefined;
    },
  });
}

/**
 * Checks a prompt set and prepares it for the core with the host's options, keyed by name, in
 * order. Throws a `TypeError` for bad options or a set that is not an array, and an `Error`
 * naming the prompt for a name that breaks the MCP name rule or is listed twice, a missing
 * `get`, malformed `arguments`, or a bad `timeoutMs`, `maxOutputChars` or `requires`.
 */
export function preparePrompts(
  prompts: readonly ContractPrompt[],
  options: CallCoreOptions = {},
  where = 'preparePrompts',
): ReadonlyMap<string, PreparedPrompt> {
  const settings = coreSettingsOf(options, where);
  if (!Array.isArray(prompts))
    throw new TypeError(`${where}: "prompts" must be an array of contract prompts, got ${kindOf(prompts)}`);
  const prepared = new Map<string, PreparedPrompt>();
  prompts.forEach((prompt, index) => {
    if (typeof prompt !== 'object' || prompt === null)
      throw new TypeError(`${where}: prompts[${index}] is ${kindOf(prompt)}, not a contract prompt`);
    const label = `${where}: prompt ${typeof prompt.name === 'string' ? JSON.stringify(prompt.name) : `at ${index}`}`;
    if (typeof prompt.name !== 'string' || !TOOL_NAME_PATTERN.test(prompt.name))
      throw new Error(`${label}: the name must be 1 to 128 characters of A-Za-z0-9, "_", "-" and "."`);
    if (typeof prompt.get !== 'function') throw new Error(`${label}: "get" must be a function`);
    if (
      prompt.arguments !== undefined &&
      (!Array.isArray(prompt.arguments) ||
        !prompt.arguments.every((a: unknown) => isJsonObject(a) && typeof a.name === 'string'))
    )
      throw new Error(`${label}: "arguments" must be an array of { name, description?, required? }`);
    if (prepared.has(prompt.name)) throw new Error(`${label} is listed twice; prompt names must be unique`);
    prepared.set(prompt.name, Object.freeze({ kind: 'prompt', prompt, ...commonOf(prompt, label, settings) }));
  });
  return prepared;
}

import {
  isJsonObject,
  RESOURCE_URI_PATTERN,
  type CallContext,
  type ContractIssue,
  type ContractResource,
  type ContractResources,
  type ContractResourceTemplate,
  type ListedResource,
  type ResourceContext,
  type ResourceOutput,
  type TemplateVariables,
} from '../../contract/index.js';
import {
  DECORATOR_OF,
  featureKindOf,
  getCompleters,
  getResourceTemplateOptions,
  getStaticResourceOptions,
} from '../../decorators/index.js';
import { kindOf } from '../../util/describe.js';
import { parseUriTemplate, type ParsedTemplate } from '../../util/uri-template.js';
import {
  compileSet,
  completeOf,
  completerIssues,
  featureClaimsOf,
  instanceOfCall,
  type InstanceSource,
  type SetEntry,
  type SetKind,
} from './feature-common.js';
import { registerFeatureEntry } from './feature-entry.js';
import type { FeatureCompileOptions } from './feature-options.js';
import { instanceOf } from './instance.js';
import { inferNameOf } from './name.js';
import { stringArgsOf } from './string-args.js';
import type { StringParam } from './string-params.js';

/**
 * A resource of the set while it is being compiled: its key (`uri <uri>` or `template
 * <uriTemplate>`) for the duplicate check.
 */
type Entry = SetEntry<ContractResource | ContractResourceTemplate>;

const NO_VALUES: Readonly<Record<string, unknown>> = Object.freeze({});

/**
 * Compiles resource classes (`@StaticResource`, `@ResourceTemplate`), instances of them and
 * hand-built contract resources and templates into one frozen array, in the order given, the way
 * `compile` compiles tools: every problem of every item is gathered into one `ContractError`.
 * Codes: `missing-resource-decorator`, `invalid-uri` (a hand-built one's URI or template),
 * `invalid-name`, `missing-read`, `invalid-template-variable` (a variables class that does not
 * fit its template: a property the template does not have, a variable no property has, an
 * exploded variable whose property is not an array, a property a URI cannot carry), the
 * generator's codes, `unknown-completion-argument`, `not-applicable-claim` (a tool-only claim
 * such as `@ReadOnly()`), `resolve-failed` and `duplicate-uri` (two resources with one URI, two
 * templates with one template).
 *
 * A compiled resource's `read(ctx)` calls the class's `read(ctx)`. A compiled template's
 * `read(variables, ctx)` turns the strings of its variables into the properties' types (an
 * exploded or array variable a list, split at commas when it came as one string), validates them
 * with its variables class, and calls the class's `read(vars, ctx)`; without a class, `read`
 * gets the variables as they are. A template's `list(ctx)` is the class's `list(ctx)` when it has
 * one; its `complete` answers from `@Complete` methods, else from an enum property. Claims
 * `@Timeout`, `@MaxOutput` and `@Requires` are carried over; `close()` calls the instance's.
 */
export function compileResources(sources: readonly unknown[], options: FeatureCompileOptions = {}): ContractResources {
  return compileSet(sources, options, RESOURCES);
}

const RESOURCES: SetKind<ContractResource | ContractResourceTemplate> = {
  where: 'compileResources()',
  holds: 'resource classes, instances and contract resources',
  subject: 'the resources',
  marked: (cls) => getStaticResourceOptions(cls) !== undefined || getResourceTemplateOptions(cls) !== undefined,
  compileClass,
  looksHandBuilt: (value) =>
    typeof value.uriTemplate === 'string' || typeof value.uri === 'string' || typeof value.read === 'function',
  compileHandBuilt,
  notOne: (index, value) => ({
    code: 'missing-resource-decorator',
    className: '',
    message: `item ${index} is not a resource: expected a @StaticResource() or @ResourceTemplate() class, an instance of one, or a contract resource object with uri (or uriTemplate), name and read, got ${kindOf(value)}`,
  }),
  duplicate: duplicateIssue,
};

function missingDecorator(cls: Function): ContractIssue {
  const className = cls.name || '(anonymous class)';
  const kind = featureKindOf(cls);
  const fix =
    kind === 'tool'
      ? `it is a tool (${DECORATOR_OF.tool}): pass it to compile()`
      : kind === 'prompt'
        ? `it is a prompt (${DECORATOR_OF.prompt}): pass it to compilePrompts()`
        : `add @StaticResource({ uri: '...' }) (or @ResourceTemplate({ uriTemplate: '...' })) to it, or leave it out of compileResources()`;
  return {
    code: 'missing-resource-decorator',
    className,
    message: `class ${className} has no @StaticResource() or @ResourceTemplate(): ${fix}`,
  };
}

function compileClass(
  cls: Function,
  given: object | undefined,
  options: FeatureCompileOptions,
  issues: ContractIssue[],
): Entry {
  const className = cls.name || '(anonymous class)';
  const staticOptions = getStaticResourceOptions(cls);
  const templateOptions = getResourceTemplateOptions(cls);
  const source = `class ${className}`;
  if (staticOptions === undefined && templateOptions === undefined) {
    issues.push(missingDecorator(cls));
    return { key: undefined, source, made: undefined };
  }
  const before = issues.length;
  const description = staticOptions ?? templateOptions!;
  const name =
    description.name ??
    inferredName(cls, templateOptions === undefined ? ['Resource'] : ['Template', 'Resource'], issues);
  const holder = (given ?? (cls.prototype as object)) as { read?: unknown; list?: unknown };
  if (typeof holder.read !== 'function')
    issues.push({
      code: 'missing-read',
      className,
      member: 'read',
      message: `class ${className} has no read() method: add ${templateOptions === undefined ? 'read(ctx)' : 'read(vars, ctx)'} returning the resource's content (text, bytes, or { text } / { blob } pieces)`,
    });
  const claims = featureClaimsOf(
    cls,
    className,
    templateOptions === undefined ? 'a resource' : 'a resource template',
    issues,
  );
  let variables: TemplateVariablesPlan | undefined;
  if (templateOptions !== undefined)
    variables = variablesOf(cls, className, templateOptions.uriTemplate, templateOptions.args, options, issues);
  else if (getCompleters(cls).size > 0) issues.push(...completerIssues(cls, className, [], 'variable'));
  if (issues.length > before || name === undefined || (templateOptions !== undefined && variables === undefined))
    return { key: undefined, source, made: undefined };
  const perCall = given === undefined ? options.resolveForCall : undefined;
  const instance = given ?? (perCall === undefined ? instanceOf(cls, className, options, issues) : undefined);
  if (instance === undefined && perCall === undefined) return { key: undefined, source, made: undefined };
  const calls: InstanceSource = { cls, className, instance, resolveForCall: perCall, method: 'read' };

  const made: Record<string, unknown> = {};
  if (staticOptions !== undefined) made.uri = staticOptions.uri;
  else made.uriTemplate = templateOptions!.uriTemplate;
  made.name = name;
  for (const key of ['title', 'description', 'mimeType', 'size', 'annotations'] as const) {
    const value = (description as unknown as Record<string, unknown>)[key];
    if (value !== undefined) made[key] = value;
  }
  Object.assign(made, claims);
  if (staticOptions !== undefined) {
    const run = async (_value: object, ctx: CallContext): Promise<unknown> => {
      const target = await instanceOfCall(calls, ctx);
      return target.read!.call(target, ctx);
    };
    made.read = async (ctx: ResourceContext): Promise<ResourceOutput> => (await run(NO_VALUES, ctx)) as ResourceOutput;
    finish(made, instance);
    const frozen = Object.freeze(made) as unknown as ContractResource;
    registerFeatureEntry(frozen, { parse: async () => ({ value: NO_VALUES, plain: {} }), run });
    return { key: `uri ${staticOptions.uri}`, source, made: frozen };
  }
  const plan = variables!;
  const run = async (value: object, ctx: CallContext): Promise<unknown> => {
    const target = await instanceOfCall(calls, ctx);
    return target.read!.call(target, value, ctx);
  };
  made.read = async (raw: TemplateVariables, ctx: ResourceContext): Promise<ResourceOutput> =>
    (await run((await plan.parse(raw ?? {})).value, ctx)) as ResourceOutput;
  if (typeof holder.list === 'function') {
    made.list = async (ctx: CallContext): Promise<readonly ListedResource[]> => {
      const target = (await instanceOfCall(calls, ctx)) as Record<string, (...args: unknown[]) => unknown>;
      return (await target.list!.call(target, ctx)) as readonly ListedResource[];
    };
  }
  const complete = completeOf(cls, calls, plan.params);
  if (complete !== undefined) made.complete = complete;
  finish(made, instance);
  const frozen = Object.freeze(made) as unknown as ContractResourceTemplate;
  registerFeatureEntry(frozen, { parse: (raw) => plan.parse((raw ?? {}) as Record<string, unknown>), run });
  return { key: `template ${templateOptions!.uriTemplate}`, source, made: frozen };
}

/** Adds `close()` when the compile-time instance has one. */
function finish(made: Record<string, unknown>, instance: object | undefined): void {
  const close = (instance as { close?: unknown } | undefined)?.close;
  if (typeof close === 'function') made.close = async () => void (await close.call(instance));
}

function inferredName(cls: Function, suffixes: readonly string[], issues: ContractIssue[]): string | undefined {
  if (cls.name === '') {
    issues.push({
      code: 'invalid-name',
      className: '(anonymous class)',
      message: `an anonymous class has no name to infer a resource name from: set "name" in its decorator`,
    });
    return undefined;
  }
  return inferNameOf(cls.name, suffixes);
}

/** How a template's variables are read: one parameter each, and how the strings become the class's values. */
interface TemplateVariablesPlan {
  readonly params: readonly StringParam[];
  parse(
    raw: Readonly<Record<string, unknown>>,
  ): Promise<{ readonly value: object; readonly plain: Record<string, unknown> }>;
}

/**
 * The variables plan of a template class: with a variables class, its properties must be
 * exactly the template's variables, an exploded one (`{/path*}`) an array; without one, each
 * variable is a string (a list when exploded), passed as the URI gave it.
 */
function variablesOf(
  cls: Function,
  className: string,
  uriTemplate: string,
  dto: Function | undefined,
  options: FeatureCompileOptions,
  issues: ContractIssue[],
): TemplateVariablesPlan | undefined {
  const parsed = parseUriTemplate(uriTemplate);
  if (!parsed.ok) {
    issues.push({ code: 'invalid-uri', className, message: `class ${className}: ${parsed.problem}` });
    return undefined;
  }
  const template = parsed.template;
  const names = template.variables.map((variable) => variable.name);
  if (dto === undefined) {
    issues.push(...completerIssues(cls, className, names, 'variable'));
    const params = template.variables.map((variable): StringParam => ({
      name: variable.name,
      kind: 'string',
      list: variable.explode,
      required: false,
      description: undefined,
      title: undefined,
      choices: undefined,
    }));
    return { params, parse: async (raw) => ({ value: { ...raw }, plain: { ...raw } }) };
  }
  const args = stringArgsOf(
    {
      className,
      dto,
      lists: true,
      code: 'invalid-template-variable',
      maxDepth: options.maxDepth,
      validator: options.validator,
    },
    issues,
  );
  if (args === undefined) return undefined;
  const before = issues.length;
  issues.push(...fitIssues(className, dto.name, uriTemplate, template, args.params));
  issues.push(...completerIssues(cls, className, names, 'variable'));
  return issues.length > before ? undefined : args;
}

/** The `invalid-template-variable` issues of a variables class that does not fit its template. */
function fitIssues(
  className: string,
  dtoName: string,
  uriTemplate: string,
  template: ParsedTemplate,
  params: readonly StringParam[],
): ContractIssue[] {
  const issues: ContractIssue[] = [];
  const byName = new Map(params.map((param) => [param.name, param]));
  const issue = (member: string, message: string): void =>
    void issues.push({
      code: 'invalid-template-variable',
      className,
      member,
      message: `class ${className}: ${message}`,
    });
  for (const variable of template.variables) {
    const param = byName.get(variable.name);
    if (param === undefined)
      issue(
        variable.name,
        `the template ${JSON.stringify(uriTemplate)} has the variable {${variable.name}}, but ${dtoName} has no property ${variable.name}: add it (a string, such as @IsString() ${variable.name}!: string)`,
      );
    else if (variable.explode && !param.list)
      issue(
        variable.name,
        `{${variable.name}*} is exploded (a list), but ${dtoName}.${variable.name} is not an array: make it an array (@IsString({ each: true }) ${variable.name}!: string[]) or drop the "*"`,
      );
  }
  const names = new Set(template.variables.map((variable) => variable.name));
  for (const param of params)
    if (!names.has(param.name))
      issue(
        param.name,
        `${dtoName}.${param.name} is not a variable of the template ${JSON.stringify(uriTemplate)}, so no URI can give it: remove it, or add {${param.name}} to the template`,
      );
  return issues;
}

function compileHandBuilt(given: Record<string, unknown>, index: number, issues: ContractIssue[]): Entry {
  const isTemplate = typeof given.uriTemplate === 'string';
  const key = isTemplate ? (given.uriTemplate as string) : typeof given.uri === 'string' ? given.uri : undefined;
  const label =
    key === undefined ? `the contract resource at item ${index}` : `contract resource ${JSON.stringify(key)}`;
  const before = issues.length;
  const push = (code: ContractIssue['code'], member: string, message: string): void =>
    void issues.push({ code, className: '', member, message: `${label} ${message}` });
  if (isTemplate) {
    const parsed = parseUriTemplate(given.uriTemplate as string);
    if (!parsed.ok)
      push(
        'invalid-uri',
        'uriTemplate',
        `has a "uriTemplate" that is not a valid RFC 6570 URI template: ${parsed.problem}`,
      );
    else if (parsed.template.variables.length === 0)
      push('invalid-uri', 'uriTemplate', 'has a "uriTemplate" without a variable: give a fixed URI as "uri" instead');
  } else if (typeof given.uri !== 'string' || !RESOURCE_URI_PATTERN.test(given.uri))
    push(
      'invalid-uri',
      'uri',
      `needs a "uri" that is an absolute URI such as "config://app" (or a "uriTemplate"), got ${typeof given.uri === 'string' ? JSON.stringify(given.uri) : kindOf(given.uri)}`,
    );
  if (typeof given.name !== 'string' || given.name.trim() === '')
    push('invalid-name', 'name', 'needs a non-empty string "name"');
  if (typeof given.read !== 'function')
    push(
      'missing-read',
      'read',
      `has no read function: give it ${isTemplate ? 'read(variables, ctx)' : 'read(ctx)'} returning the content`,
    );
  for (const member of ['list', 'complete'] as const)
    if (given[member] !== undefined && (typeof given[member] !== 'function' || !isTemplate))
      push(
        member === 'complete' ? 'unknown-completion-argument' : 'missing-read',
        member,
        isTemplate ? `has a "${member}" that is not a function` : `has "${member}", which only a template has`,
      );
  if (issues.length > before) return { key: undefined, source: label, made: undefined };
  const copy = { ...given };
  const kept = isTemplate ? `template ${key}` : `uri ${key}`;
  if (isJsonObject(given.annotations)) copy.annotations = Object.freeze({ ...given.annotations });
  return {
    key: kept,
    source: label,
    made: Object.freeze(copy) as unknown as ContractResource | ContractResourceTemplate,
  };
}

function duplicateIssue(key: string, where: readonly string[]): ContractIssue {
  const template = key.startsWith('template ');
  const shown = key.slice(template ? 'template '.length : 'uri '.length);
  return {
    code: 'duplicate-uri',
    className: '',
    message: `${template ? 'URI template' : 'resource URI'} ${JSON.stringify(shown)} is used ${where.length} times (${where.join(', ')}): each resource needs a URI of its own`,
  };
}

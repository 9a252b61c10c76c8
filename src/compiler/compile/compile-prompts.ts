import {
  isJsonObject,
  TOOL_NAME_PATTERN,
  type CallContext,
  type ContractIssue,
  type ContractPrompt,
  type PromptArgument,
  type PromptOutput,
} from '../../contract/index.js';
import { featureKindOf, getPromptOptions, DECORATOR_OF, type PromptOptions } from '../../decorators/index.js';
import { kindOf } from '../../util/describe.js';
import type { FeatureCompileOptions } from './feature-options.js';
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
import { instanceOf } from './instance.js';
import { inferNameOf } from './name.js';
import { stringArgsOf } from './string-args.js';

/** A prompt of the set while it is being compiled: its name for the duplicate check. */
type Entry = SetEntry<ContractPrompt>;

/**
 * Compiles prompt classes (`@Prompt`), instances of them and hand-built contract prompts into
 * one frozen array of frozen contract prompts, in the order given, the way `compile` compiles
 * tools: every problem of every item is gathered into one `ContractError`, and nothing is
 * returned then. Codes: `missing-prompt-decorator`, `invalid-name`, `missing-description`,
 * `missing-messages`, `invalid-prompt-argument` (a property an MCP argument, a named string,
 * cannot carry; a hand-built prompt's malformed `arguments`), the generator's codes,
 * `unknown-completion-argument`, `not-applicable-claim` (a tool-only claim such as
 * `@ReadOnly()`), `resolve-failed` and `duplicate-name`.
 *
 * A compiled prompt lists one argument per property of its arguments class (its name, its
 * `@Description`, its `@Field({ title })`, `required` unless `@IsOptional()`), in property
 * order. Its `get(args, ctx)` turns the strings into the properties' types (`"5"` for an
 * integer is 5, `"true"` for a boolean is true), validates them with the class's schema
 * (`invalid arguments: ...`), builds the instance and calls the class's `messages(args, ctx)`.
 * Its `complete` (present only when something completes: a `@Complete` method, or an enum
 * argument) answers from the `@Complete` methods, else from the enum. Claims `@Timeout`,
 * `@MaxOutput` and `@Requires` are carried over; `close()` calls the instance's.
 */
export function compilePrompts(
  sources: readonly unknown[],
  options: FeatureCompileOptions = {},
): readonly ContractPrompt[] {
  return compileSet(sources, options, PROMPTS);
}

const PROMPTS: SetKind<ContractPrompt> = {
  where: 'compilePrompts()',
  holds: 'prompt classes, instances and contract prompts',
  subject: 'the prompts',
  marked: (cls) => getPromptOptions(cls) !== undefined,
  compileClass,
  looksHandBuilt: (value) => typeof value.get === 'function' || typeof value.name === 'string',
  compileHandBuilt,
  notOne: (index, value) => ({
    code: 'missing-prompt-decorator',
    className: '',
    message: `item ${index} is not a prompt: expected a @Prompt() class, an instance of one, or a contract prompt object with name, description and get, got ${kindOf(value)}`,
  }),
  duplicate: duplicateIssue,
};

function missingDecorator(cls: Function): ContractIssue {
  const className = cls.name || '(anonymous class)';
  const kind = featureKindOf(cls);
  const fix =
    kind === 'tool'
      ? `it is a tool (${DECORATOR_OF.tool}): pass it to compile()`
      : kind === 'static-resource' || kind === 'resource-template'
        ? `it is a resource (${DECORATOR_OF[kind]}): pass it to compileResources()`
        : `add @Prompt({ description: '...' }) to it, or leave it out of compilePrompts()`;
  return { code: 'missing-prompt-decorator', className, message: `class ${className} has no @Prompt(): ${fix}` };
}

function compileClass(
  cls: Function,
  given: object | undefined,
  options: FeatureCompileOptions,
  issues: ContractIssue[],
): Entry {
  const promptOptions = getPromptOptions(cls);
  const className = cls.name || '(anonymous class)';
  const source = `class ${className}`;
  if (promptOptions === undefined) {
    issues.push(missingDecorator(cls));
    return { key: undefined, source, made: undefined };
  }
  const before = issues.length;
  const name = nameOf(cls, promptOptions, issues);
  if (promptOptions.description.trim() === '')
    issues.push({
      code: 'missing-description',
      className,
      member: 'description',
      message: `class ${className}: @Prompt() has a blank description: tell the user what the prompt is for in @Prompt({ description: '...' })`,
    });
  const holder = (given ?? (cls.prototype as object)) as { messages?: unknown };
  if (typeof holder.messages !== 'function')
    issues.push({
      code: 'missing-messages',
      className,
      member: 'messages',
      message: `class ${className} has no messages() method: add messages(args, ctx) returning the prompt's messages (text, or userMessage(...) and assistantMessage(...))`,
    });
  const claims = featureClaimsOf(cls, className, 'a prompt', issues);
  const args = stringArgsOf(
    {
      className,
      dto: promptOptions.args,
      lists: false,
      code: 'invalid-prompt-argument',
      maxDepth: options.maxDepth,
      validator: options.validator,
    },
    issues,
  );
  if (args !== undefined)
    issues.push(
      ...completerIssues(
        cls,
        className,
        args.params.map((param) => param.name),
        'argument',
      ),
    );
  if (issues.length > before || name === undefined || args === undefined) return { key: name, source, made: undefined };
  const perCall = given === undefined ? options.resolveForCall : undefined;
  const instance = given ?? (perCall === undefined ? instanceOf(cls, className, options, issues) : undefined);
  if (instance === undefined && perCall === undefined) return { key: name, source, made: undefined };
  const calls: InstanceSource = { cls, className, instance, resolveForCall: perCall, method: 'messages' };
  const run = async (value: object, ctx: CallContext): Promise<unknown> => {
    const target = await instanceOfCall(calls, ctx);
    return target.messages!.call(target, value, ctx);
  };
  const prompt: Record<string, unknown> = { name };
  if (promptOptions.title !== undefined) prompt.title = promptOptions.title;
  prompt.description = promptOptions.description;
  prompt.arguments = Object.freeze(args.params.map(argumentOf));
  prompt.get = async (raw: Readonly<Record<string, string>>, ctx: CallContext): Promise<PromptOutput> =>
    (await run((await args.parse(raw ?? {})).value, ctx)) as PromptOutput;
  const complete = completeOf(cls, calls, args.params);
  if (complete !== undefined) prompt.complete = complete;
  Object.assign(prompt, claims);
  const close = (instance as { close?: unknown } | undefined)?.close;
  if (typeof close === 'function') prompt.close = async () => void (await close.call(instance));
  const frozen = Object.freeze(prompt) as unknown as ContractPrompt;
  registerFeatureEntry(frozen, { parse: (raw) => args.parse((raw ?? {}) as Record<string, unknown>), run });
  return { key: name, source, made: frozen };
}

function argumentOf(param: { name: string; title?: string; description?: string; required: boolean }): PromptArgument {
  return Object.freeze({
    name: param.name,
    ...(param.title === undefined ? {} : { title: param.title }),
    ...(param.description === undefined ? {} : { description: param.description }),
    required: param.required,
  });
}

function nameOf(cls: Function, options: PromptOptions, issues: ContractIssue[]): string | undefined {
  if (options.name !== undefined) return options.name;
  if (cls.name === '') {
    issues.push({
      code: 'invalid-name',
      className: '(anonymous class)',
      message: `an anonymous class has no name to infer a prompt name from: set @Prompt({ name: '...' })`,
    });
    return undefined;
  }
  const inferred = inferNameOf(cls.name, ['Prompt']);
  if (!TOOL_NAME_PATTERN.test(inferred)) {
    issues.push({
      code: 'invalid-name',
      className: cls.name,
      message: `class ${cls.name}: the prompt name ${JSON.stringify(inferred)} inferred from the class name is not a valid prompt name (1 to 128 of A-Z a-z 0-9 _ - .): set @Prompt({ name: '...' })`,
    });
    return undefined;
  }
  return inferred;
}

function compileHandBuilt(given: Record<string, unknown>, index: number, issues: ContractIssue[]): Entry {
  const name = typeof given.name === 'string' && TOOL_NAME_PATTERN.test(given.name) ? given.name : undefined;
  const label = name === undefined ? `the contract prompt at item ${index}` : `contract prompt "${name}"`;
  const before = issues.length;
  if (name === undefined)
    issues.push({
      code: 'invalid-name',
      className: '',
      member: 'name',
      message: `${label} has name ${given.name === undefined ? 'undefined' : JSON.stringify(given.name)}, which is not a valid prompt name: give it a "name" of 1 to 128 of A-Z a-z 0-9 _ - .`,
    });
  if (typeof given.description !== 'string' || given.description.trim() === '')
    issues.push({
      code: 'missing-description',
      className: '',
      member: 'description',
      message: `${label} has no description: give it a "description" that tells the user what the prompt is for`,
    });
  if (typeof given.get !== 'function')
    issues.push({
      code: 'missing-messages',
      className: '',
      member: 'get',
      message: `${label} has no get function: give it get(args, ctx) returning the prompt's messages`,
    });
  const problem = argumentsProblem(given.arguments);
  if (problem !== undefined)
    issues.push({
      code: 'invalid-prompt-argument',
      className: '',
      member: 'arguments',
      message: `${label}: ${problem}`,
    });
  if (given.complete !== undefined && typeof given.complete !== 'function')
    issues.push({
      code: 'unknown-completion-argument',
      className: '',
      member: 'complete',
      message: `${label}: "complete" must be a function (request, ctx) => values, got ${kindOf(given.complete)}`,
    });
  if (issues.length > before) return { key: name, source: label, made: undefined };
  const copy: Record<string, unknown> = { ...given };
  if (Array.isArray(given.arguments))
    copy.arguments = Object.freeze(given.arguments.map((argument) => Object.freeze({ ...(argument as object) })));
  return { key: name, source: label, made: Object.freeze(copy) as unknown as ContractPrompt };
}

/** What is wrong with a hand-built prompt's `arguments`, or `undefined`. */
function argumentsProblem(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value))
    return `"arguments" must be an array of { name, description?, required? }, got ${kindOf(value)}`;
  const seen = new Set<string>();
  for (const [index, argument] of value.entries()) {
    if (!isJsonObject(argument) || typeof argument.name !== 'string' || argument.name === '')
      return `argument ${index} must be an object with a non-empty string "name"`;
    if (seen.has(argument.name)) return `argument ${JSON.stringify(argument.name)} is listed twice`;
    seen.add(argument.name);
    for (const key of ['title', 'description'] as const)
      if (argument[key] !== undefined && typeof argument[key] !== 'string')
        return `argument ${JSON.stringify(argument.name)}: "${key}" must be a string`;
    if (argument.required !== undefined && typeof argument.required !== 'boolean')
      return `argument ${JSON.stringify(argument.name)}: "required" must be true or false`;
  }
  return undefined;
}

function duplicateIssue(name: string, where: readonly string[]): ContractIssue {
  return {
    code: 'duplicate-name',
    className: '',
    message: `prompt name ${JSON.stringify(name)} is used ${where.length} times (${where.join(', ')}): names must be unique in a set; give all but one another name (@Prompt({ name: '...' }) on a class, "name" on a contract prompt)`,
  };
}

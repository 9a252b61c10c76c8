import {
  ContractError,
  isJsonObject,
  TOOL_NAME_PATTERN,
  type ContractIssue,
  type ContractTool,
  type JsonObject,
} from '../../contract/index.js';
import {
  getClaims,
  getFactsMethod,
  getPromptOptions,
  getResourceTemplateOptions,
  getStaticResourceOptions,
  getToolOptions,
  type Class,
  type ToolOptions,
} from '../../decorators/index.js';
import { generateSchema, type GeneratedSchema, type ResidualConstraint } from '../schema/index.js';
import { isPlainOutput } from '../schema/generate.js';
import { vouchForSchema } from '../validation/vouched.js';
import { kindOf, errorText } from '../../util/describe.js';
import { isPositiveInteger } from '../../util/limits.js';
import { createArgumentsPipeline, DEFAULT_MAX_DEPTH, type ArgumentsPipeline } from '../validation/index.js';
import { compileWhenFirstUsed } from '../validation/validator.js';
import { checkValidatorOption, type CompiledSchema, type SchemaValidator } from '../validation/validator.js';
import { argsClassOf } from './args-class.js';
import { lintTools, type LintProvider } from '../lint/index.js';
import { applySchemaProfile, type SchemaProfile } from '../profile/index.js';
import { checkProfile, checkRecursionDepth } from '../profile/options.js';
import { frozenHandBuilt, handBuiltIssues, looksHandBuilt } from './hand-built.js';
import { deepFrozen, frozenInPlace, recordInfo } from './info.js';
import { buildTool, type ResolveForCall } from './build-tool.js';
import { taskTimeoutConflict } from './task-claims.js';
import { instanceOf } from './instance.js';
import { inferToolName } from './name.js';
import { checkOptionsObject, invalidOption, optionKeys } from '../../util/options.js';

/** The options of `compile`. */
export interface CompileOptions {
  /**
   * Makes the instance of a tool class (default `new cls()`). It is called once per class, only
   * for a class without other problems, and must return the instance itself: `compile` is
   * synchronous, so a DI container that creates instances asynchronously resolves them first
   * and passes the instances to `compile`. A throw, a Promise or a non-object is reported as
   * `resolve-failed`.
   */
  readonly resolve?: (cls: Class) => object;
  /**
   * Makes the instance of a tool class for each call instead of once: called with the class and
   * the call's context (its session, principal and transport request), right before the class's
   * `execute` or facts method runs, after the arguments were validated and the requirements
   * checked. It may resolve asynchronously (a DI container's request-scoped providers). A
   * rejection, or an answer without an `execute` method, fails that call. With it, no instance is
   * made at compile time, and the tool has no `close`. Not together with `resolve`.
   */
  readonly resolveForCall?: ResolveForCall;
  /** What compiles the tools' schemas (default: the default validator; see `SchemaValidator`). */
  readonly validator?: SchemaValidator;
  /** The deepest nesting of arguments every compiled tool accepts, the arguments object being level 1. Default 64. */
  readonly maxDepth?: number;
  /**
   * How the tools' argument schemas are listed: `exact` (the default: the schema the tool
   * validates with), `portable` (one schema every provider's documented rules accept), or one
   * provider's profile (`openai-strict`, `gemini`, `anthropic-strict`). See `applySchemaProfile`:
   * the tools still validate every call against the exact schema.
   */
  readonly schemaProfile?: SchemaProfile;
  /** How many levels of a recursive class a profile lists (1 to 16, default 3). */
  readonly recursionDepth?: number;
  /**
   * Lints the listed schemas (after `schemaProfile`) against the providers' documented rules
   * (`true`: every provider; or a list such as `['openai-strict', 'gemini']`); each finding is a
   * `schema-lint` issue of the `ContractError`. With `true` and a `schemaProfile`, the rules the
   * profile leaves to the host by design are skipped (`PROFILE_LEAVES`: `portable` keeps
   * `additionalProperties: false`, which only raw Gemini refuses); a named list applies every
   * rule of those providers.
   */
  readonly lint?: boolean | readonly LintProvider[];
}

/** The schema of a tool that takes no arguments: only `{}` (or nothing) is accepted. */
export const NO_ARGUMENTS_SCHEMA: JsonObject = Object.freeze({
  type: 'object',
  properties: Object.freeze({}),
  additionalProperties: false,
}) as JsonObject;

const NO_RESIDUAL: readonly ResidualConstraint[] = Object.freeze([]);

/** A tool of the set while it is being compiled: its name (for the duplicate check) and where it came from. */
interface Entry {
  readonly name: string | undefined;
  readonly source: string;
  readonly tool: ContractTool | undefined;
}

/**
 * Compiles tool classes, instances of tool classes and hand-built contract tools into one frozen
 * array of frozen contract tools, in the order given.
 *
 * - A class (marked `@Tool`) is instantiated with `resolve`; an instance is used as it is.
 * - A hand-built tool (a plain object with `name`, `description` and `execute`) is checked and
 *   passed through frozen (see `frozenHandBuilt`).
 *
 * Every problem of every item is gathered first; if there is any, one `ContractError` lists them
 * all and no tool is returned. (Bad `compile` arguments themselves, a non-array or an option of
 * the wrong type, throw a `TypeError` at once.) Codes: `missing-tool-decorator`, `invalid-name`,
 * `missing-description`, `missing-execute`, `invalid-args-class`, `reflect-metadata-missing`,
 * the generator's `unknown-property-type` and `array-item-type`, `invalid-schema`,
 * `resolve-failed` and `duplicate-name`. It reads only the classes it is given (there is no
 * global registry) and compiles each validator once, with `options.validator`.
 *
 * A compiled tool's `execute(raw, ctx)` runs the arguments pipeline (see
 * `createArgumentsPipeline`), then the class's `execute(dto, ctx)`, then `outputOf` and the
 * output-schema check (see `buildTool`); a host's call core runs the same steps with the tool's
 * `@Requires`, policy and interceptors in between (see `runToolCall`). Errors the class throws
 * propagate unchanged. Its `facts(args, ctx)` (with `@Facts()`) validates the
 * arguments the same way and calls the facts method with the DTO. Its `close()` (when the
 * instance has one) calls the instance's. Every claim the decorators recorded (`getClaims`) is
 * copied onto it as it is, `annotations` included exactly as recorded.
 */
export function compile(sources: readonly unknown[], options: CompileOptions = {}): readonly ContractTool[] {
  if (!Array.isArray(sources))
    throw new TypeError(
      `compile() takes an array of tool classes, instances and contract tools, got ${kindOf(sources)}`,
    );
  checkOptions(options);
  const issues: ContractIssue[] = [];
  const entries: Entry[] = sources.map((source, index) => compileOne(source, index, options, issues));
  issues.push(...duplicateIssues(entries));
  if (issues.length > 0) throw new ContractError(issues);
  const compiled = Object.freeze(entries.map((entry) => entry.tool!));
  const listed =
    options.schemaProfile === undefined
      ? compiled
      : applySchemaProfile(compiled, options.schemaProfile, { recursionDepth: options.recursionDepth });
  if (options.lint !== undefined && options.lint !== false) {
    const findings = lintTools(
      listed,
      options.lint === true
        ? options.schemaProfile === undefined
          ? {}
          : { profile: options.schemaProfile }
        : { providers: options.lint },
    );
    if (findings.length > 0) {
      throw new ContractError(
        findings.map((f) => ({
          code: 'schema-lint' as const,
          className: '',
          message: `tool "${f.tool}" ${f.schema}${f.pointer === '' ? '' : ` ${f.pointer}`}: [${f.rule}] ${f.message}; fix: ${f.fix}`,
        })),
      );
    }
  }
  return listed;
}

const OPTION_KEYS = optionKeys<CompileOptions>()(
  'resolve',
  'resolveForCall',
  'validator',
  'maxDepth',
  'schemaProfile',
  'recursionDepth',
  'lint',
);

/** Throws a `TypeError` naming a bad compile option, before any class is read. */
function checkOptions(options: CompileOptions): void {
  checkOptionsObject('compile()', options, OPTION_KEYS);
  if (options.resolve !== undefined && typeof options.resolve !== 'function') {
    throw invalidOption('compile()', 'resolve', 'a function (cls) => instance', options.resolve);
  }
  if (options.resolveForCall !== undefined && typeof options.resolveForCall !== 'function') {
    throw invalidOption('compile()', 'resolveForCall', 'a function (cls, ctx) => instance', options.resolveForCall);
  }
  if (options.resolve !== undefined && options.resolveForCall !== undefined) {
    throw new TypeError(
      'compile(): give "resolve" (one instance per class) or "resolveForCall" (one per call), not both',
    );
  }
  checkValidatorOption(options.validator, 'compile()');
  if (options.schemaProfile !== undefined) checkProfile('compile()', options.schemaProfile);
  if (options.recursionDepth !== undefined) checkRecursionDepth('compile()', options.recursionDepth);
  if (options.lint !== undefined && typeof options.lint !== 'boolean' && !Array.isArray(options.lint)) {
    throw invalidOption('compile()', 'lint', 'true, false or a list of providers', options.lint);
  }
  if (options.maxDepth !== undefined && !isPositiveInteger(options.maxDepth)) {
    throw invalidOption(
      'compile()',
      'maxDepth',
      'a positive integer (the deepest nesting of arguments accepted)',
      options.maxDepth,
    );
  }
}

function compileOne(source: unknown, index: number, options: CompileOptions, issues: ContractIssue[]): Entry {
  if (typeof source === 'function') return compileClass(source, undefined, options, issues);
  if (isJsonObject(source)) {
    const cls = (source as { constructor?: unknown }).constructor;
    if (typeof cls === 'function' && getToolOptions(cls) !== undefined)
      return compileClass(cls, source, options, issues);
    if (looksHandBuilt(source)) return compileHandBuilt(source, index, options, issues);
    if (typeof cls === 'function') {
      issues.push(missingDecorator(cls));
      return { name: undefined, source: `class ${cls.name}`, tool: undefined };
    }
  }
  issues.push({
    code: 'missing-tool-decorator',
    className: '',
    message: `item ${index} is not a tool: expected a @Tool() class, an instance of one, or a contract tool object with name, description and execute, got ${kindOf(source)}`,
  });
  return { name: undefined, source: `item ${index}`, tool: undefined };
}

function compileHandBuilt(source: object, index: number, options: CompileOptions, issues: ContractIssue[]): Entry {
  const given = (source as { name?: unknown }).name;
  const name = typeof given === 'string' && TOOL_NAME_PATTERN.test(given) ? given : undefined;
  const label = name === undefined ? `the contract tool at item ${index}` : `contract tool "${name}"`;
  const found = handBuiltIssues(source, label, options.validator);
  issues.push(...found);
  return { name, source: label, tool: found.length === 0 ? frozenHandBuilt(source as ContractTool) : undefined };
}

function missingDecorator(cls: Function): ContractIssue {
  const base = Object.getPrototypeOf(cls) as Function | null;
  const className = cls.name || '(anonymous class)';
  if (typeof base === 'function' && getToolOptions(base) !== undefined) {
    return {
      code: 'missing-tool-decorator',
      className,
      message: `class ${className} has no @Tool() of its own (its base class ${base.name} has one, but @Tool() is not inherited): add @Tool({ description: '...' }) to ${className}`,
    };
  }
  const feature = featureDecoratorOf(cls);
  if (feature !== undefined) {
    return {
      code: 'missing-tool-decorator',
      className,
      message: `class ${className} is a ${feature.decorator}, not a tool: pass it to ${feature.compiler}() and serve it with the "${feature.option}" option, and leave it out of compile()`,
    };
  }
  return {
    code: 'missing-tool-decorator',
    className,
    message: `class ${className} has no @Tool(): add @Tool({ description: '...' }) to it, or leave it out of compile()`,
  };
}

/** The MCP feature decorator a class carries instead of `@Tool()`, with where such a class goes. */
function featureDecoratorOf(cls: Function): { decorator: string; compiler: string; option: string } | undefined {
  if (getStaticResourceOptions(cls) !== undefined)
    return { decorator: '@StaticResource()', compiler: 'compileResources', option: 'resources' };
  if (getResourceTemplateOptions(cls) !== undefined)
    return { decorator: '@ResourceTemplate()', compiler: 'compileResources', option: 'resources' };
  if (getPromptOptions(cls) !== undefined)
    return { decorator: '@Prompt()', compiler: 'compilePrompts', option: 'prompts' };
  return undefined;
}

/** Generates a schema, turning a generator that throws into an `invalid-schema` issue. */
function schemaOf(
  dto: Function,
  role: 'arguments' | 'result',
  className: string,
  issues: ContractIssue[],
): GeneratedSchema | undefined {
  try {
    const generated = generateSchema(dto, { role });
    for (let index = 0; index < generated.issues.length; index++) issues.push(generated.issues[index]!);
    return generated.issues.length === 0 ? generated : undefined;
  } catch (err) {
    issues.push({
      code: 'invalid-schema',
      className,
      message: `class ${className}: the ${role} schema of ${dto.name} could not be generated: ${errorText(err)}`,
    });
    return undefined;
  }
}

/**
 * Vouches for `frozen`, the schema `compile` froze of `generated`, when it is the generator's own
 * object, frozen in place before anyone else held it, and the generator wrote it of plain
 * keywords only (see `isPlainOutput`): its validator then compiles on the first call without
 * `isPlainSchema` walking it again. A copy (a generated schema that was not plain JSON) is walked.
 */
function vouchIfPlain(generated: GeneratedSchema | undefined, frozen: JsonObject | undefined): void {
  if (generated !== undefined && frozen === generated.schema && isPlainOutput(frozen)) vouchForSchema(frozen);
}

function compileClass(
  cls: Function,
  given: object | undefined,
  options: CompileOptions,
  issues: ContractIssue[],
): Entry {
  const toolOptions = getToolOptions(cls);
  const ownName = cls.name;
  const className = ownName || '(anonymous class)';
  if (toolOptions === undefined) {
    issues.push(missingDecorator(cls));
    return { name: undefined, source: `class ${className}`, tool: undefined };
  }
  const before = issues.length;
  const source = `class ${className}`;
  const name = nameOf(ownName, toolOptions, issues);
  if (toolOptions.description.trim() === '') {
    issues.push({
      code: 'missing-description',
      className,
      member: 'description',
      message: `class ${className}: @Tool() has a blank description: tell the model what the tool does in @Tool({ description: '...' })`,
    });
  }
  const execute = ((given ?? cls.prototype) as { execute?: unknown }).execute;
  if (typeof execute !== 'function') {
    issues.push({
      code: 'missing-execute',
      className,
      member: 'execute',
      message: `class ${className} has no execute() method: add execute(args, ctx) returning the tool's output`,
    });
  }
  // The class's own execute(), read once, when it is the one checked above (no instance given).
  const args = argsClassOf(cls, toolOptions, ownName, given === undefined ? execute : undefined);
  if (args.kind === 'issue') issues.push(args.issue);
  const dto = args.kind === 'class' ? args.dto : undefined;
  const argsSchema = dto === undefined ? undefined : schemaOf(dto, 'arguments', className, issues);
  const resultSchema =
    toolOptions.result === undefined ? undefined : schemaOf(toolOptions.result, 'result', className, issues);
  const factsMethod = getFactsMethod(cls);
  if (
    factsMethod !== undefined &&
    typeof (cls.prototype as Record<string | symbol, unknown>)[factsMethod] !== 'function'
  ) {
    issues.push({
      code: 'missing-execute',
      className,
      member: String(factsMethod),
      message: `class ${className}: @Facts() marks ${String(factsMethod)}, which is not a method: mark a method facts(args, ctx)`,
    });
  }
  const claims = getClaims(cls);
  const conflict = taskTimeoutConflict(claims, `class ${className}`);
  if (conflict !== undefined) issues.push({ ...conflict, className });
  if (issues.length > before || name === undefined) return { name, source, tool: undefined };

  // The generated schemas are fresh and compile's alone: frozen in place, not copied.
  const parameters = argsSchema === undefined ? deepFrozen(NO_ARGUMENTS_SCHEMA) : frozenInPlace(argsSchema.schema);
  const outputSchema = resultSchema === undefined ? undefined : frozenInPlace(resultSchema.schema);
  vouchIfPlain(argsSchema, parameters);
  vouchIfPlain(resultSchema, outputSchema);
  const residual = argsSchema?.residual ?? [];
  let pipeline: ArgumentsPipeline;
  let validateResult: CompiledSchema | undefined;
  try {
    pipeline = createArgumentsPipeline({
      schema: parameters,
      dto,
      residual,
      maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH,
      validator: options.validator,
    });
  } catch (err) {
    issues.push({
      code: 'invalid-schema',
      className,
      message: `class ${className}: the arguments schema${dto === undefined ? '' : ` of ${dto.name}`} does not compile: ${errorText(err)}`,
    });
    return { name, source, tool: undefined };
  }
  try {
    validateResult = outputSchema === undefined ? undefined : compileWhenFirstUsed(outputSchema, options.validator);
  } catch (err) {
    issues.push({
      code: 'invalid-schema',
      className,
      message: `class ${className}: the output schema of ${toolOptions.result!.name} does not compile: ${errorText(err)}`,
    });
    return { name, source, tool: undefined };
  }
  const perCall = given === undefined ? options.resolveForCall : undefined;
  const instance = given ?? (perCall === undefined ? instanceOf(cls, className, options, issues) : undefined);
  if (instance === undefined && perCall === undefined) return { name, source, tool: undefined };
  if (instance !== undefined && typeof (instance as { execute?: unknown }).execute !== 'function') {
    issues.push({
      code: 'missing-execute',
      className,
      member: 'execute',
      message: `class ${className}: the instance resolve() returned has no execute() method: return an instance of ${className}`,
    });
    return { name, source, tool: undefined };
  }
  const tool = buildTool({
    cls,
    className,
    instance,
    resolveForCall: perCall,
    name,
    toolOptions,
    claims,
    parameters,
    outputSchema,
    pipeline,
    validateResult,
    factsMethod,
  });
  recordInfo(tool, {
    className,
    argsClass: dto?.name,
    resultClass: toolOptions.result?.name,
    factsMethod: factsMethod === undefined ? undefined : String(factsMethod),
    residual: residual.length === 0 ? NO_RESIDUAL : (Object.freeze([...residual]) as readonly ResidualConstraint[]),
    maxDepth: pipeline.maxDepth,
  });
  return { name, source, tool };
}

/** The tool's name: the `@Tool` option, or the one inferred from `className` (the class's own `name`). */
function nameOf(className: string, toolOptions: ToolOptions, issues: ContractIssue[]): string | undefined {
  if (toolOptions.name !== undefined) return toolOptions.name;
  if (className === '') {
    issues.push({
      code: 'invalid-name',
      className: '(anonymous class)',
      message: `an anonymous class has no name to infer a tool name from: set @Tool({ name: '...' })`,
    });
    return undefined;
  }
  const inferred = inferToolName(className);
  if (!TOOL_NAME_PATTERN.test(inferred)) {
    issues.push({
      code: 'invalid-name',
      className,
      message: `class ${className}: the tool name ${JSON.stringify(inferred)} inferred from the class name is not a valid MCP tool name (1 to 128 of A-Z a-z 0-9 _ - .): set @Tool({ name: '...' })`,
    });
    return undefined;
  }
  return inferred;
}

function duplicateIssues(entries: readonly Entry[]): ContractIssue[] {
  // The first source of each name, in first-seen order; a list only for a name given again.
  const firstSource = new Map<string, string>();
  const repeated = new Map<string, string[]>();
  for (const entry of entries) {
    if (entry.name === undefined) continue;
    const first = firstSource.get(entry.name);
    if (first === undefined) firstSource.set(entry.name, entry.source);
    else {
      const sources = repeated.get(entry.name);
      if (sources === undefined) repeated.set(entry.name, [first, entry.source]);
      else sources.push(entry.source);
    }
  }
  const issues: ContractIssue[] = [];
  if (repeated.size === 0) return issues;
  for (const name of firstSource.keys()) {
    const sources = repeated.get(name);
    if (sources === undefined) continue;
    issues.push({
      code: 'duplicate-name',
      className: '',
      message: `tool name ${JSON.stringify(name)} is used ${sources.length} times (${sources.join(', ')}): names must be unique in a set; give all but one another name (@Tool({ name: '...' }) on a class, "name" on a contract tool)`,
    });
  }
  return issues;
}

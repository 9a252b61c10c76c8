import type { CallContext, ContractTool, JsonObject, ToolFacts, ToolOutput } from '../../contract/index.js';
import type { Class, ToolClaims, ToolOptions } from '../../decorators/index.js';
import { kindOf, errorText } from '../../util/describe.js';
import type { ArgumentsPipeline } from '../validation/index.js';
import { checkOutputSchema } from '../validation/output-check.js';
import type { CompiledSchema } from '../validation/validator.js';
import { resultOf } from '../../contract/index.js';
import { IDENTITY_KEYS, METHOD_KEYS } from './contract-keys.js';
import { registerCompiledEntry } from './entry.js';
import { outputOf } from './output.js';

/** Properties of a compiled tool that `compile` sets itself and a claim can never override. */
const OWN_KEYS: ReadonlySet<string> = new Set([...IDENTITY_KEYS, ...METHOD_KEYS]);

/** Makes a tool class's instance for one call (see `CompileOptions.resolveForCall`). */
export type ResolveForCall = (cls: Class, ctx: CallContext) => object | Promise<object>;

/** Everything a compiled tool is made of. */
export interface BuildParts {
  readonly cls: Function;
  readonly className: string;
  /** The instance made once at compile time, or `undefined` when `resolveForCall` makes one per call. */
  readonly instance: object | undefined;
  readonly resolveForCall: ResolveForCall | undefined;
  readonly name: string;
  readonly toolOptions: ToolOptions;
  /** What `getClaims(cls)` answered. */
  readonly claims: ToolClaims;
  readonly parameters: JsonObject;
  readonly outputSchema: JsonObject | undefined;
  readonly pipeline: ArgumentsPipeline;
  readonly validateResult: CompiledSchema | undefined;
  readonly factsMethod: string | symbol | undefined;
}

type Methods = Record<string | symbol, (...args: unknown[]) => unknown>;

/**
 * The instance of one call: the compile-time instance, or `resolveForCall(cls, ctx)`'s answer.
 * A resolver that fails rejects with `class <Name>: resolveForCall() failed: <why>` (the
 * resolver's error as `cause`); an answer that is not an object with an `execute` method rejects
 * with a `TypeError` naming what came back.
 */
async function instanceFor(parts: BuildParts, ctx: CallContext): Promise<Methods> {
  if (parts.instance !== undefined) return parts.instance as Methods;
  let made: unknown;
  try {
    made = await parts.resolveForCall!(parts.cls as Class, ctx);
  } catch (err) {
    throw new Error(`class ${parts.className}: resolveForCall() failed: ${errorText(err)}`, { cause: err });
  }
  if (typeof made !== 'object' || made === null || typeof (made as { execute?: unknown }).execute !== 'function') {
    throw new TypeError(
      `class ${parts.className}: resolveForCall() returned ${kindOf(made)} without an execute() method; return an instance of ${parts.className}`,
    );
  }
  return made as Methods;
}

/**
 * Assembles the frozen contract tool of a class: name, title, description, schemas, and every
 * recorded claim except the keys `compile` sets itself (`OWN_KEYS`), copied as recorded.
 *
 * Hosts run it through the call core, which uses its registered entry (see `CompiledEntry`):
 * validation, then the tool's `@Requires` (checked by the core, once), interceptors, then the
 * class. Its own `execute(raw, ctx)`, for a caller with no host, runs the arguments pipeline
 * (rejecting with `InvalidArgumentsError`), the class's `execute(dto, ctx)`, `outputOf`, and the
 * output-schema check (see `checkOutputSchema`); it never checks `@Requires` (no policy is there
 * to ask: run the tool through a host or `toolwright/testing` for that). `facts(raw, ctx)` (only
 * when a method is marked `@Facts()`) runs the same pipeline, then that method with the DTO.
 * `close()` (only when the compile-time instance has one) calls the instance's. Errors thrown by
 * the instance propagate unchanged.
 */
export function buildTool(parts: BuildParts): ContractTool {
  const { name, pipeline, validateResult } = parts;
  const tool: Record<string, unknown> = { name };
  if (parts.toolOptions.title !== undefined) tool.title = parts.toolOptions.title;
  tool.description = parts.toolOptions.description;
  tool.parameters = parts.parameters;
  if (parts.outputSchema !== undefined) tool.outputSchema = parts.outputSchema;
  const claims = parts.claims as Record<string, unknown>;
  const keys = Object.keys(claims);
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index]!;
    const value = claims[key];
    if (!OWN_KEYS.has(key) && value !== undefined) tool[key] = value;
  }
  const rules = { toolName: name, structured: validateResult !== undefined };
  const runWith = async (instance: Methods, args: object, ctx: CallContext): Promise<ToolOutput> =>
    outputOf(await instance.execute!.call(instance, args, ctx), rules);
  const fixed = parts.instance as Methods | undefined;
  const run = (args: object, ctx: CallContext): Promise<ToolOutput> =>
    fixed !== undefined
      ? runWith(fixed, args, ctx)
      : instanceFor(parts, ctx).then((instance) => runWith(instance, args, ctx));
  tool.execute = async (raw: unknown, ctx: CallContext): Promise<ToolOutput> => {
    const output = await run(await pipeline.parse(raw), ctx);
    if (validateResult !== undefined) checkOutputSchema(validateResult, resultOf(output));
    return output;
  };
  const factsMethod = parts.factsMethod;
  if (factsMethod !== undefined) {
    tool.facts = async (raw: JsonObject, ctx: CallContext): Promise<ToolFacts> => {
      const args = await pipeline.parse(raw);
      const instance = await instanceFor(parts, ctx);
      return (await instance[factsMethod]!.call(instance, args, ctx)) as ToolFacts;
    };
  }
  const methods = parts.instance as Methods | undefined;
  if (typeof methods?.close === 'function') {
    tool.close = async (): Promise<void> => {
      await methods.close!.call(methods);
    };
  }
  const frozen = Object.freeze(tool) as unknown as ContractTool;
  registerCompiledEntry(frozen, {
    parse: pipeline.parse,
    parseNow: pipeline.parseNow,
    run,
    validateOutput: validateResult,
  });
  return frozen;
}

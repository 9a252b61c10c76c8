import {
  InvalidArgumentsError,
  isJsonObject,
  type CallContext,
  type ContractTool,
  type JsonObject,
} from '../../contract/index.js';
import { kindOf } from '../../util/describe.js';
import { problemsOf } from '../validation/ajv.js';
import { compileSchema } from '../validation/validator.js';
import { compiledEntryOf, registerCompiledEntry, type CompiledEntry } from '../compile/entry.js';
import { compiledInfoOf, deepFrozen, recordInfo } from '../compile/info.js';
import {
  checkProfile,
  checkRecursionDepth,
  DEFAULT_RECURSION_DEPTH,
  profileRules,
  type SchemaProfile,
} from './options.js';
import { entriesToMaps, profileSchema, type EntriesPlan } from './profile-schema.js';

/** The options of `applySchemaProfile`. */
export interface SchemaProfileOptions {
  /** How many levels of a recursive class a profile lists (1 to 16, default 3). */
  readonly recursionDepth?: number;
}

/**
 * Returns the tools as a host should list them under `profile`: for `exact`, the very same
 * array. Otherwise each tool with arguments is a new frozen tool whose `parameters` is the
 * profile's listed schema (see `profileSchema`) and whose `execute`, `facts`, `replay` function
 * and `requires` subjects first turn map entries back into objects; every call is still
 * validated against the exact schema by the tool itself, so nothing the listing left out is ever
 * accepted. Output schemas stay exact (clients validate results against them). Tools without
 * `parameters` pass through unchanged. Throws a `TypeError` for an unknown profile or a bad
 * recursion depth.
 */
export function applySchemaProfile(
  tools: readonly ContractTool[],
  profile: SchemaProfile,
  options: SchemaProfileOptions = {},
): readonly ContractTool[] {
  if (!Array.isArray(tools))
    throw new TypeError(`applySchemaProfile() takes an array of contract tools, got ${kindOf(tools)}`);
  const checked = checkProfile('applySchemaProfile()', profile);
  const depth = checkRecursionDepth('applySchemaProfile()', options.recursionDepth ?? DEFAULT_RECURSION_DEPTH);
  if (checked === 'exact') return tools;
  const rules = profileRules(checked);
  return Object.freeze(
    tools.map((tool) => {
      if (!isJsonObject(tool.parameters)) return tool;
      const { schema, entries } = profileSchema(tool.parameters, rules, depth);
      return profiledTool(tool, deepFrozen(schema), entries);
    }),
  );
}

/**
 * The function a profiled tool applies to raw arguments: map entries back into objects, and,
 * for a tool `compile` did not make (a hand-built one, which a host would otherwise validate
 * against the listed, looser schema), validation against the exact schema.
 */
function adapterOf(tool: ContractTool, entries: EntriesPlan | undefined): (args: unknown) => unknown {
  const toMaps = entries === undefined ? (args: unknown) => args : (args: unknown) => entriesToMaps(args, entries);
  if (compiledEntryOf(tool) !== undefined || !isJsonObject(tool.parameters)) return toMaps;
  const validate = compileSchema(tool.parameters);
  return (args) => {
    const adapted = toMaps(args ?? {});
    if (!validate(adapted)) throw new InvalidArgumentsError(problemsOf(validate.errors));
    return adapted;
  };
}

/**
 * How the call core runs a profiled tool: it adapts the raw arguments (see `adapterOf`), then
 * runs the tool as the core would have run the original: a compiled tool through its own entry
 * (its exact schema, its DTO), a hand-built one through its `execute`. Registering it tells the
 * core the profiled tool validates its own arguments, against the exact schema, never the
 * listed one.
 */
function entryOf(tool: ContractTool, adapt: (args: unknown) => unknown): CompiledEntry {
  const inner = compiledEntryOf(tool);
  if (inner !== undefined) {
    return {
      parse: async (raw) => inner.parse(adapt(raw)),
      run: (args, ctx) => inner.run(args, ctx),
      validateOutput: inner.validateOutput,
    };
  }
  return {
    parse: async (raw) => adapt(raw) as object,
    run: async (args, ctx) => tool.execute(args, ctx),
    validateOutput: undefined,
  };
}

function profiledTool(tool: ContractTool, parameters: JsonObject, entries: EntriesPlan | undefined): ContractTool {
  const adapt = adapterOf(tool, entries);
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(tool)) copy[key] = (tool as unknown as Record<string, unknown>)[key];
  copy.parameters = parameters;
  copy.execute = async (args: unknown, ctx: CallContext) => tool.execute(adapt(args), ctx);
  if (typeof tool.facts === 'function')
    copy.facts = (args: JsonObject, ctx: CallContext) => tool.facts!(adapt(args) as JsonObject, ctx);
  if (typeof tool.replay === 'function') {
    const replay = tool.replay;
    copy.replay = (args: JsonObject, ctx: CallContext) => replay(adapt(args) as JsonObject, ctx);
  }
  if (Array.isArray(tool.requires) && entries !== undefined) {
    copy.requires = Object.freeze(
      tool.requires.map((requirement) =>
        Object.freeze({ ...requirement, subject: (args: unknown) => requirement.subject(adapt(args)) }),
      ),
    );
  }
  if (typeof tool.close === 'function') copy.close = () => tool.close!();
  const result = copy as unknown as ContractTool;
  registerCompiledEntry(result, entryOf(tool, adapt));
  const info = compiledInfoOf(tool);
  if (info !== undefined) recordInfo(result, info);
  return Object.freeze(result);
}

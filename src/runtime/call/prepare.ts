import { TOOL_NAME_PATTERN, isJsonObject, type ContractTool, type JsonObject } from '../../contract/index.js';
import { isContractTool } from '../../contract/internal.js';
import { kindOf, errorText } from '../../util/describe.js';
import { isPositiveInteger } from '../../util/limits.js';
import { compileInDialect, compiledEntryOf, unknownDialectWarning } from '../../compiler/internal.js';
import type { CompiledSchema } from '../../compiler/validation/index.js';
import { isRemoteTool } from './remote.js';
import { coreSettingsOf, type CallCoreOptions, type CoreSettings } from './options.js';
import { markPrepared, type CoreTool, type PreparedTool } from './prepared-tool.js';
import { checkTimeout } from './time-limit.js';

/**
 * Prepares one tool with checked settings. Throws an `Error` whose message starts with `label`
 * (`<where>: tool "x"`) when the name breaks MCP's rule (1 to 128 of `A-Za-z0-9_-.`), when
 * `timeoutMs` or `maxOutputChars` is not valid, when `parameters` or `outputSchema` is not an
 * object schema (`"type": "object"` at the root, which MCP requires), or when a schema cannot be
 * compiled (`<label>: schema: <the validator's message>`). A tool consumed from another server
 * (see `markRemoteTool`) is the one documented exception to validation: its schemas are never
 * compiled here, since its own server validates.
 */
export function prepareTool(tool: ContractTool, settings: CoreSettings, where: string): PreparedTool {
  const label = `${where}: tool ${JSON.stringify(tool.name)}`;
  if (!TOOL_NAME_PATTERN.test(tool.name))
    throw new Error(`${label}: the name must be 1 to 128 characters of A-Za-z0-9, "_", "-" and "."`);
  const timeoutProblem = checkTimeout(tool.timeoutMs);
  if (timeoutProblem !== undefined) throw new Error(`${label}: timeoutMs: ${timeoutProblem}`);
  if (tool.maxOutputChars !== undefined && !isPositiveInteger(tool.maxOutputChars)) {
    throw new Error(`${label}: maxOutputChars: expected a positive integer, got ${String(tool.maxOutputChars)}`);
  }
  const requires = tool.requires ?? [];
  if (!Array.isArray(requires))
    throw new Error(`${label}: requires: expected an array of requirements, got ${kindOf(requires)}`);
  const entry = compiledEntryOf(tool);
  // A remote tool's server validates its arguments and results (see `markRemoteTool`).
  const local = !isRemoteTool(tool);
  const validateArguments = schemaOf(tool.parameters, `${label}: schema`, entry === undefined && local, settings);
  const validateOutput =
    entry?.validateOutput ?? schemaOf(tool.outputSchema, `${label}: output schema`, local, settings);
  if (entry !== undefined) schemaOf(tool.outputSchema, `${label}: output schema`, false, settings);
  const prepared: CoreTool = {
    name: tool.name,
    tool,
    entry,
    validateArguments,
    validateOutput,
    requires,
    policy: settings.policy,
    interceptors: settings.interceptors,
    watches: settings.watches,
    timeoutMs: tool.timeoutMs ?? settings.timeoutMs,
    maxOutputChars: tool.maxOutputChars ?? settings.maxOutputChars,
  };
  Object.freeze(prepared);
  markPrepared(prepared);
  return prepared;
}

/**
 * The one composition point of every host: checks `tools` and `options` and prepares each tool
 * for the call core (see `runToolCall` for the fixed order of a call's steps), in order, keyed
 * by name. Hosts (`Executor`, `createServer`, `serveStdio`, `serveHttp`, the CLI) call it
 * themselves with the options they were given; call it yourself to host calls of your own. Throws
 * a `TypeError` for bad options (see `CallCoreOptions`) or when `tools` is not an array of
 * contract tools (`<where>: tools[2] is not a contract tool ...`), and an `Error` naming the tool
 * for a name listed twice or a tool that cannot be prepared (see `prepareTool`).
 */
export function prepareTools(
  tools: readonly ContractTool[],
  options: CallCoreOptions = {},
  where = 'prepareTools',
): ReadonlyMap<string, PreparedTool> {
  if (typeof options !== 'object' || options === null)
    throw new TypeError(`${where}: options must be an object, got ${kindOf(options)}`);
  const settings = coreSettingsOf(options, where);
  if (!Array.isArray(tools))
    throw new TypeError(`${where}: tools must be an array of contract tools, got ${kindOf(tools)}`);
  const prepared = new Map<string, PreparedTool>();
  tools.forEach((tool, index) => {
    if (!isContractTool(tool))
      throw new TypeError(
        `${where}: tools[${index}] is not a contract tool (it needs a string "name" and an "execute" function)`,
      );
    if (prepared.has(tool.name))
      throw new Error(`${where}: tool ${JSON.stringify(tool.name)} is listed twice; tool names must be unique`);
    prepared.set(tool.name, prepareTool(tool, settings, where));
  });
  return prepared;
}

/**
 * Checks a tool's schema and compiles it when `compile` is set; `undefined` when there is none.
 * Schemas are validated in the dialect they declare (2020-12 by default, with the host's
 * `validator`; draft-07 and draft-04 each with a validator of its own; see `compileInDialect`).
 * A schema in a dialect no validator knows is served unvalidated, never refused, and the host's
 * `log` is told `<label> declares the dialect "<uri>", which no validator here knows; it is
 * served unvalidated`.
 */
function schemaOf(
  schema: JsonObject | undefined,
  label: string,
  compile: boolean,
  settings: Pick<CoreSettings, 'validator' | 'log'>,
): CompiledSchema | undefined {
  if (schema === undefined) return undefined;
  if (!isJsonObject(schema) || schema.type !== 'object')
    throw new Error(`${label}: must be a JSON Schema object with "type": "object" at its root`);
  if (!compile) return undefined;
  let validate: CompiledSchema | undefined;
  try {
    validate = compileInDialect(schema, settings.validator);
  } catch (err) {
    throw new Error(`${label}: ${errorText(err)}`);
  }
  if (validate === undefined) settings.log(unknownDialectWarning(label, schema));
  return validate;
}

import type { Tool as McpTool } from '@modelcontextprotocol/server';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { InvalidArgumentsError, TOOL_NAME_PATTERN, isJsonObject, type ContractTool, type JsonObject } from '../../contract/index.js';
import { kindOf, messageOf } from '../../util/describe.js';
import { isPositiveInteger } from '../../util/limits.js';
import { isContractTool } from '../../contract/shapes.js';
import { problemsOf, validatesOwnArguments } from '../../compiler/validation/index.js';
import { compileInDialect } from './dialect.js';
import { checkTimeout } from '../../runtime/executor/timeout-limit.js';
import { withOutputBound } from '../../runtime/output-limits/index.js';
import { definitionOf } from './definition.js';

/** A tool ready to serve: its listed definition and its validators, compiled once. */
export interface ServedTool {
  readonly tool: ContractTool;
  readonly definition: McpTool;
  /** Validates arguments for a tool that does not validate its own; `undefined` otherwise. */
  readonly validateArguments: ValidateFunction | undefined;
  /** Validates `structuredContent` when the tool has an output schema. */
  readonly validateOutput: ValidateFunction | undefined;
}

/**
 * Checks `tools` and prepares each for serving, in order. Throws an `Error` whose message starts
 * with `where` and names the tool when: an entry is not an object with a string `name` and an
 * `execute` function; a name breaks MCP's rule (1 to 128 of `A-Za-z0-9_-.`); a name is listed
 * twice; `timeoutMs` is not a positive number of milliseconds; `parameters` or `outputSchema` is
 * not an object schema (`"type": "object"` at the root, which MCP requires); or a schema cannot be compiled (`<where>: tool "x": schema: <ajv
 * message>`). Schemas are validated in the dialect they declare (2020-12 by default, draft-07,
 * draft-04; see `compileInDialect`); a schema in a dialect no validator knows is served
 * unvalidated, never refused, and `options.log` (default: a stderr line) is told
 * `<where>: tool "x": schema declares the dialect "<uri>", which no validator here knows; it is
 * served unvalidated`. Arguments validators are compiled only for tools that do not validate their own
 * (hand-built tools); compiled tools check theirs inside `execute`. Each tool is served bounded
 * by its own `maxOutputChars` or `options.maxOutputChars` (see `withOutputBound`); a bound that is
 * not a positive integer throws.
 */
export function prepareTools(tools: readonly ContractTool[], where: string, options: { readonly maxOutputChars?: number; readonly log?: (message: string) => void } = {}): Map<string, ServedTool> {
  const warn = options.log ?? ((message: string) => void process.stderr.write(`toolwright: ${message}\n`));
  if (options.maxOutputChars !== undefined && !isPositiveInteger(options.maxOutputChars)) {
    throw new TypeError(`${where}: "maxOutputChars" must be a positive integer, got ${String(options.maxOutputChars)}`);
  }
  if (!Array.isArray(tools)) throw new TypeError(`${where}: tools must be an array of contract tools, got ${kindOf(tools)}`);
  const served = new Map<string, ServedTool>();
  tools.forEach((tool, index) => {
    if (!isContractTool(tool)) {
      throw new TypeError(`${where}: tools[${index}] is not a contract tool (it needs a string "name" and an "execute" function)`);
    }
    const label = `${where}: tool ${JSON.stringify(tool.name)}`;
    if (!TOOL_NAME_PATTERN.test(tool.name)) throw new Error(`${label}: the name must be 1 to 128 characters of A-Za-z0-9, "_", "-" and "."`);
    if (served.has(tool.name)) throw new Error(`${label} is listed twice; tool names must be unique`);
    const validateArguments = checkSchema(tool.parameters, `${label}: schema`, !validatesOwnArguments(tool), warn);
    const timeoutProblem = checkTimeout(tool.timeoutMs);
    if (timeoutProblem !== undefined) throw new Error(`${label}: timeoutMs: ${timeoutProblem}`);
    const validateOutput = checkSchema(tool.outputSchema, `${label}: output schema`, true, warn);
    let bounded: ContractTool;
    try {
      bounded = withOutputBound(tool, { maxOutputChars: options.maxOutputChars });
    } catch (err) {
      throw new Error(`${label}: ${messageOf(err)}`);
    }
    served.set(tool.name, Object.freeze({ tool: bounded, definition: definitionOf(tool), validateArguments, validateOutput }));
  });
  return served;
}

/**
 * The `invalid arguments: ...` text (every problem, see `InvalidArgumentsError`) when `args`
 * fail the schema of a tool that does not validate its own arguments; `undefined` when they
 * pass, or when the tool validates them itself inside `execute` and `facts`.
 */
export function argumentsErrorOf(served: ServedTool, args: JsonObject): string | undefined {
  const validate = served.validateArguments;
  if (validate === undefined || validate(args)) return undefined;
  return new InvalidArgumentsError(problemsOf(validate.errors)).message;
}

function checkSchema(schema: JsonObject | undefined, label: string, compile: boolean, warn: (message: string) => void): ValidateFunction | undefined {
  if (schema === undefined) return undefined;
  if (!isJsonObject(schema) || schema.type !== 'object') throw new Error(`${label}: must be a JSON Schema object with "type": "object" at its root`);
  if (!compile) return undefined;
  let validate: ValidateFunction | undefined;
  try {
    validate = compileInDialect(schema);
  } catch (err) {
    throw new Error(`${label}: ${messageOf(err)}`);
  }
  if (validate === undefined) warn(`${label} declares the dialect ${JSON.stringify(schema.$schema)}, which no validator here knows; it is served unvalidated`);
  return validate;
}

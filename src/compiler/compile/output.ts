import type { ValidateFunction } from 'ajv/dist/2020.js';
import { text, type JsonObject, type ToolOutput, type ToolResult } from '../../contract/index.js';
import { kindOf } from '../../util/describe.js';
import { isToolOutput } from '../../contract/shapes.js';
import { problemsText } from '../validation/ajv.js';

/** How a compiled tool turns what its class's `execute` returned into a `ToolOutput`. */
export interface OutputRules {
  readonly toolName: string;
  /** The compiled output schema, when the tool declares `@Tool({ result })`. */
  readonly validateResult?: ValidateFunction;
}

function checkStructured(structured: unknown, rules: OutputRules): void {
  const validate = rules.validateResult!;
  if (!validate(structured)) {
    throw new Error(`tool "${rules.toolName}": the result does not match its output schema: ${problemsText(validate.errors)}`);
  }
}

/**
 * Normalises what a tool class's `execute` returned:
 *
 * - a string, an array of content parts, or a `ToolResult` (an object with a `content` array)
 *   is returned as it is; with a result class, a `ToolResult`'s `structuredContent` is checked
 *   against the output schema;
 * - `undefined` (a tool that only acts) becomes a result with no content;
 * - with `@Tool({ result })`, any other object (an instance of the result class or a plain
 *   object) is the structured result: it is made plain JSON, checked against the output schema,
 *   and returned as `structuredContent` with its JSON text as the one text part;
 * - anything else throws `tool "<name>": execute returned <kind>; ...` naming what to return.
 *
 * A structured result that does not match the output schema throws
 * `tool "<name>": the result does not match its output schema: /count: must be integer`.
 */
export function outputOf(value: unknown, rules: OutputRules): ToolOutput {
  if (value === undefined) return { content: [] };
  if (isToolOutput(value)) {
    const structured = typeof value === 'object' && !Array.isArray(value) ? (value as ToolResult).structuredContent : undefined;
    if (rules.validateResult !== undefined && structured !== undefined) checkStructured(structured, rules);
    return value;
  }
  if (typeof value === 'object' && value !== null) {
    if (rules.validateResult !== undefined) {
      const json = JSON.stringify(value);
      const structured = JSON.parse(json) as JsonObject;
      checkStructured(structured, rules);
      return { content: [text(json)], structuredContent: structured };
    }
  }
  const hint = rules.validateResult === undefined ? ', or declare @Tool({ result: YourResult }) to return structured objects' : '';
  throw new Error(`tool "${rules.toolName}": execute returned ${kindOf(value)}; return a string, an array of content parts or a ToolResult${hint}`);
}

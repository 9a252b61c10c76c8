import { text, type JsonObject, type ToolOutput } from '../../contract/index.js';
import { kindOf } from '../../util/describe.js';
import { isToolOutput } from '../../contract/internal.js';

/** How a compiled tool turns what its class's `execute` returned into a `ToolOutput`. */
export interface OutputRules {
  readonly toolName: string;
  /** True when the tool declares `@Tool({ result })`, so a plain object is its structured result. */
  readonly structured: boolean;
}

/**
 * Normalises what a tool class's `execute` returned, without checking it against the output
 * schema (the call core does that, on every host):
 *
 * - a string, an array of content parts, or a `ToolResult` (an object with a `content` array)
 *   is returned as it is;
 * - `undefined` (a tool that only acts) becomes a result with no content;
 * - with `@Tool({ result })`, any other object (an instance of the result class or a plain
 *   object) is the structured result: it is made plain JSON and returned as
 *   `structuredContent` with its JSON text as the one text part;
 * - anything else throws `tool "<name>": execute returned <kind>; ...` naming what to return.
 */
export function outputOf(value: unknown, rules: OutputRules): ToolOutput {
  if (value === undefined) return { content: [] };
  if (isToolOutput(value)) return value;
  if (typeof value === 'object' && value !== null && rules.structured) {
    const json = JSON.stringify(value);
    const structured = JSON.parse(json) as JsonObject;
    return { content: [text(json)], structuredContent: structured };
  }
  const hint = rules.structured ? '' : ', or declare @Tool({ result: YourResult }) to return structured objects';
  throw new Error(
    `tool "${rules.toolName}": execute returned ${kindOf(value)}; return a string, an array of content parts or a ToolResult${hint}`,
  );
}

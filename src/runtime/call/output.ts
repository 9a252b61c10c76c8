import { InvalidOutputError, isJsonObject, resultOf, type ToolResult } from '../../contract/index.js';
import { kindOf } from '../../util/describe.js';

/**
 * Describes why `output` is not something `execute` may return, or `undefined` when it is: a
 * string, an array of parts, or an object with such a `content` array whose
 * `structuredContent`, when present, is a JSON object. Each part is an object with a string
 * `type` and, for the types MCP defines, the string fields MCP requires (`text`; `data` and
 * `mimeType`; `uri` and `name`; a `resource` with `uri` and `text` or `blob`), so every result
 * this approves is a valid MCP `CallToolResult` (the server does not have the SDK check it again).
 */
export function outputProblemOf(output: unknown): string | undefined {
  if (typeof output === 'string') return undefined;
  if (Array.isArray(output)) return partsProblemOf(output);
  if (typeof output !== 'object' || output === null)
    return `expected a string, an array of content parts or a result object, got ${kindOf(output)}`;
  const result = output as { content?: unknown; structuredContent?: unknown };
  if (!Array.isArray(result.content)) return 'a result object needs a "content" array';
  const partsProblem = partsProblemOf(result.content);
  if (partsProblem !== undefined) return partsProblem;
  const structured = result.structuredContent;
  if (structured !== undefined && !isJsonObject(structured)) {
    return '"structuredContent" must be a JSON object';
  }
  return undefined;
}

/** The string fields each known part type must carry; other part types are sent as JSON text. */
const REQUIRED_PART_FIELDS: ReadonlyMap<string, readonly string[]> = new Map([
  ['text', ['text']],
  ['image', ['data', 'mimeType']],
  ['audio', ['data', 'mimeType']],
  ['resource_link', ['uri', 'name']],
]);

function partsProblemOf(parts: readonly unknown[]): string | undefined {
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index] as Record<string, unknown> | null;
    if (typeof part !== 'object' || part === null || typeof part.type !== 'string')
      return `content part ${index} is not an object with a string "type"`;
    const label = `content part ${index} (${JSON.stringify(part.type)})`;
    for (const field of REQUIRED_PART_FIELDS.get(part.type) ?? []) {
      if (typeof part[field] !== 'string') return `${label} needs a string "${field}", got ${kindOf(part[field])}`;
    }
    if (part.type === 'resource') {
      const resource = part.resource;
      if (!isJsonObject(resource) || typeof resource.uri !== 'string')
        return `${label} needs a "resource" object with a string "uri"`;
      if (typeof resource.text !== 'string' && typeof resource.blob !== 'string')
        return `${label} needs a string "text" or "blob" in its "resource"`;
    }
  }
  return undefined;
}

/**
 * The result of what `execute` (or an interceptor's `after`) gave, after checking its shape (see
 * `outputProblemOf`). Throws `InvalidOutputError`:
 * `tool "<name>" returned an invalid output: <problem>`.
 */
export function checkedResult(name: string, output: unknown): ToolResult {
  const problem = outputProblemOf(output);
  if (problem !== undefined)
    throw new InvalidOutputError(`tool ${JSON.stringify(name)} returned an invalid output: ${problem}`);
  return resultOf(output as ToolResult);
}

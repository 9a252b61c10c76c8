import { ToolwrightError, type ContentPart, type ToolResult } from '../../contract/index.js';

/**
 * The structured content of a result is larger than the bound. Message:
 * `output too large: structured content is 52,340 characters, the limit is 1,000`.
 */
export class OutputTooLargeError extends ToolwrightError {
  override readonly name = 'OutputTooLargeError';
  readonly size: number;
  readonly limit: number;

  constructor(size: number, limit: number) {
    super(
      'output-too-large',
      `output too large: structured content is ${formatCount(size)} characters, the limit is ${formatCount(limit)}`,
    );
    this.size = size;
    this.limit = limit;
  }
}

/** Writes a count with `,` between groups of three digits (`52,340`), whatever the locale. */
export function formatCount(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** The marker that ends cut text: `…[truncated: showing 1,000 of 52,340 characters]`. */
export function truncationMarker(shown: number, total: number): string {
  return `…[truncated: showing ${formatCount(shown)} of ${formatCount(total)} characters]`;
}

/** The counted text of a part: text parts and embedded text resources; `undefined` for the rest. */
function countedText(part: ContentPart): string | undefined {
  // Read defensively: a malformed part (checked by the host afterwards) must not crash the bound.
  if (typeof part !== 'object' || part === null) return undefined;
  if (part.type === 'text') return typeof part.text === 'string' ? part.text : undefined;
  if (
    part.type === 'resource' &&
    typeof part.resource === 'object' &&
    part.resource !== null &&
    'text' in part.resource &&
    typeof part.resource.text === 'string'
  )
    return part.resource.text;
  return undefined;
}

function withText(part: ContentPart, value: string): ContentPart {
  if (part.type === 'text') return { ...part, text: value };
  if (part.type === 'resource' && 'text' in part.resource)
    return { ...part, resource: { ...part.resource, text: value } };
  return part;
}

/** The first `count` UTF-16 units of `value`, one fewer when the cut would split a surrogate pair. */
function cut(value: string, count: number): string {
  if (count <= 0) return '';
  const code = value.charCodeAt(count - 1);
  return value.slice(0, code >= 0xd800 && code <= 0xdbff ? count - 1 : count);
}

/**
 * Bounds what the model reads of a result to `maxChars` characters (UTF-16 units, as
 * `string.length` counts).
 *
 * - Counted: text parts and embedded text resources, across all parts in order. Images, audio,
 *   binary resources and links are neither counted nor cut (cut base64 is not an image; bound
 *   their size at the transport or with an interceptor) and keep their places.
 * - Text within the bound: the result is returned as it is (the same object).
 * - Longer text: the first `maxChars` characters are kept; the part where the bound falls ends
 *   with the marker (on a line of its own unless nothing of the part is kept), e.g.
 *   `…[truncated: showing 1,000 of 52,340 characters]`, which is not counted; later text parts
 *   are dropped.
 * - `structuredContent` is never cut, since a cut would break its output schema: when its JSON
 *   is longer than `maxChars`, this throws `OutputTooLargeError`, and the call becomes an
 *   error result. Structured content within the bound is kept whole, and only the text beside
 *   it is bounded.
 *   Structured content that cannot be serialised at all (a `BigInt`, a cycle) is not measured
 *   here: the host refuses it with its own message (over MCP: `the result cannot be sent: ...`).
 * Every other member of the result (`isError`, `record`, `details`, ...) is kept.
 */
export function boundResult(result: ToolResult, maxChars: number): ToolResult {
  if (result.structuredContent !== undefined) {
    const size = jsonLengthOf(result.structuredContent);
    if (size !== undefined && size > maxChars) throw new OutputTooLargeError(size, maxChars);
  }
  let total = 0;
  for (const part of result.content) total += countedText(part)?.length ?? 0;
  if (total <= maxChars) return result;
  let budget = maxChars;
  let cutDone = false;
  const content: ContentPart[] = [];
  for (const part of result.content) {
    const value = countedText(part);
    if (value === undefined) {
      content.push(part);
    } else if (cutDone) {
      continue;
    } else if (value.length <= budget) {
      content.push(part);
      budget -= value.length;
    } else {
      const kept = cut(value, budget);
      const shown = maxChars - budget + kept.length;
      content.push(withText(part, `${kept}${kept === '' ? '' : '\n'}${truncationMarker(shown, total)}`));
      cutDone = true;
    }
  }
  return { ...result, content };
}

/** The length of `value`'s JSON, or `undefined` when it has none (`JSON.stringify` throws). */
function jsonLengthOf(value: unknown): number | undefined {
  try {
    return JSON.stringify(value)?.length;
  } catch {
    return undefined;
  }
}

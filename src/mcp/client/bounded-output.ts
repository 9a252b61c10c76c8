import { isJsonObject } from '../../contract/index.js';

/** The text a missing result gives, as an error. */
export const NO_RESULT_TEXT = 'mcp tool returned no result';

/** The two texts of a call result: what the model reads (bounded) and what the user sees (whole). */
export interface ProjectedOutput {
  /** The model-facing text, cut to the bound (see `projectResult`). */
  readonly forLLM: string;
  /** Structured content (as JSON) and every non-empty text part, joined with newlines; never cut. */
  readonly forUser: string;
  /** True when the server marked the result `isError`, or when there was no result. */
  readonly isError: boolean;
}

/**
 * Projects an MCP call result to text in the format of the Go seed (`mcpkit`), so hosts of the
 * same contract show a model the same thing. The model-facing text joins with `\n`:
 * `mcp_error=true` (when `isError`), `structured_content=<json>` (when the result has structured
 * content), each non-empty text part, `content_part type=T mime=M bytes=N` for each part that is
 * not text (`N` the decoded size of its base64 `data` or `blob`, the UTF-8 size of an embedded
 * text resource, 0 for a link; `mime` empty when the part names none), and `ref=<ref>` only when
 * nothing else was written and the result carries a string `ref`. That text is then cut with
 * `truncateChars(text, maxLLMChars)`. A missing result (not an object) projects to
 * `mcp tool returned no result` with `isError`. It never throws.
 */
export function projectResult(result: unknown, maxLLMChars: number): ProjectedOutput {
  if (!isJsonObject(result))
    return { forLLM: truncateChars(NO_RESULT_TEXT, maxLLMChars), forUser: NO_RESULT_TEXT, isError: true };
  const isError = result.isError === true;
  const model: string[] = [];
  const user: string[] = [];
  if (isError) model.push('mcp_error=true');
  if (result.structuredContent !== undefined) {
    const json = JSON.stringify(result.structuredContent);
    model.push(`structured_content=${json}`);
    user.push(json);
  }
  const parts = Array.isArray(result.content) ? result.content : [];
  for (const part of parts) {
    if (!isJsonObject(part)) continue;
    if (part.type === 'text') {
      if (typeof part.text === 'string' && part.text !== '') {
        model.push(part.text);
        user.push(part.text);
      }
      continue;
    }
    model.push(`content_part type=${String(part.type ?? '')} mime=${mimeOf(part)} bytes=${bytesOf(part)}`);
  }
  if (model.length === 0 && typeof result.ref === 'string' && result.ref !== '') model.push(`ref=${result.ref}`);
  return { forLLM: truncateChars(model.join('\n'), maxLLMChars), forUser: user.join('\n'), isError };
}

/**
 * Cuts `text` to at most `max` characters, counting Unicode code points (so a character outside
 * the Basic Multilingual Plane, an emoji, counts once and is never split; the Go seed counts
 * bytes and can split one). Unchanged when `max` is 0 or less (no bound) or the text fits; the
 * first `max` characters when `max` is 3 or less; otherwise the first `max - 3` characters and
 * `...`. A non-integer `max` counts as its floor.
 */
export function truncateChars(text: string, max: number): string {
  if (!(max > 0)) return text;
  const bound = Math.floor(max);
  const chars = Array.from(text);
  if (chars.length <= bound) return text;
  if (bound <= 3) return chars.slice(0, bound).join('');
  return `${chars.slice(0, bound - 3).join('')}...`;
}

function mimeOf(part: Record<string, unknown>): string {
  if (typeof part.mimeType === 'string') return part.mimeType;
  const resource = part.resource;
  if (isJsonObject(resource) && typeof resource.mimeType === 'string') return resource.mimeType;
  return '';
}

function bytesOf(part: Record<string, unknown>): number {
  if (typeof part.data === 'string') return Buffer.byteLength(part.data, 'base64');
  const resource = part.resource;
  if (isJsonObject(resource)) {
    if (typeof resource.blob === 'string') return Buffer.byteLength(resource.blob, 'base64');
    if (typeof resource.text === 'string') return Buffer.byteLength(resource.text, 'utf8');
  }
  return 0;
}

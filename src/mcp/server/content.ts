import type { ContentBlock } from '@modelcontextprotocol/server';
import { isJsonObject, resultOf, type ContentPart, type JsonObject, type ToolOutput } from '../../contract/index.js';
import { kindOf } from '../../util/describe.js';

/** What `contentOf` makes of a tool's output: MCP content and, when given, structured content. */
export interface McpContent {
  content: ContentBlock[];
  structuredContent?: JsonObject;
}

/**
 * Maps one content part to MCP content, copying only the fields MCP defines for its type: text,
 * image and audio (`data`, `mimeType`), an embedded resource (`uri`, `mimeType` when set, `text`
 * or `blob`) and a resource link (`uri`, `name`, and `title`, `description`, `mimeType` when
 * set). A part of any other type becomes a text block holding its JSON, so nothing is lost and
 * nothing unknown reaches the client's schema check.
 */
export function contentBlockOf(part: ContentPart): ContentBlock {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: String(part.text) };
    case 'image':
      return { type: 'image', data: part.data, mimeType: part.mimeType };
    case 'audio':
      return { type: 'audio', data: part.data, mimeType: part.mimeType };
    case 'resource': {
      const source = part.resource as { uri: string; mimeType?: string; text?: string; blob?: string };
      const resource: Record<string, string> = { uri: source.uri };
      if (typeof source.mimeType === 'string') resource.mimeType = source.mimeType;
      if (typeof source.text === 'string') resource.text = source.text;
      else resource.blob = String(source.blob ?? '');
      return { type: 'resource', resource } as unknown as ContentBlock;
    }
    case 'resource_link': {
      const link: Record<string, string> = { type: 'resource_link', uri: part.uri, name: part.name };
      if (typeof part.title === 'string') link.title = part.title;
      if (typeof part.description === 'string') link.description = part.description;
      if (typeof part.mimeType === 'string') link.mimeType = part.mimeType;
      return link as unknown as ContentBlock;
    }
    default:
      return { type: 'text', text: jsonTextOf(part) };
  }
}

/**
 * Maps a tool's output to MCP content (§5.6 of the contract notes): a string becomes one text
 * block, parts map one to one (see `contentBlockOf`), and a `ToolResult` gives its content and
 * its `structuredContent`. A result with structured content and no content gets one text block
 * holding the structured content's JSON, as MCP recommends for clients that read only content.
 * `details`, `record`, `isError` and `terminate` are not content and are never copied here.
 */
export function contentOf(output: ToolOutput): McpContent {
  const result = resultOf(output);
  const content = result.content.map(contentBlockOf);
  if (result.structuredContent === undefined) return { content };
  if (content.length === 0) content.push({ type: 'text', text: JSON.stringify(result.structuredContent) });
  return { content, structuredContent: result.structuredContent };
}

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
  if (typeof output !== 'object' || output === null) return `expected a string, an array of content parts or a result object, got ${kindOf(output)}`;
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
    if (typeof part !== 'object' || part === null || typeof part.type !== 'string') return `content part ${index} is not an object with a string "type"`;
    const label = `content part ${index} (${JSON.stringify(part.type)})`;
    for (const field of REQUIRED_PART_FIELDS.get(part.type) ?? []) {
      if (typeof part[field] !== 'string') return `${label} needs a string "${field}", got ${kindOf(part[field])}`;
    }
    if (part.type === 'resource') {
      const resource = part.resource;
      if (!isJsonObject(resource) || typeof resource.uri !== 'string') return `${label} needs a "resource" object with a string "uri"`;
      if (typeof resource.text !== 'string' && typeof resource.blob !== 'string') return `${label} needs a string "text" or "blob" in its "resource"`;
    }
  }
  return undefined;
}

function jsonTextOf(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return '[content part that cannot be shown as JSON]';
  }
}

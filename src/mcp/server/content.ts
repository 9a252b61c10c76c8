import type { ContentBlock } from '@modelcontextprotocol/server';
import { resultOf, type ContentPart, type JsonObject, type ToolOutput } from '../../contract/index.js';

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

function jsonTextOf(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return '[content part that cannot be shown as JSON]';
  }
}

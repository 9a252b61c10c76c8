import type { CallToolResult } from '@modelcontextprotocol/server';

/**
 * Renders a `CallToolResult` for a terminal: every text block as it is; every other block as one
 * bracketed line saying what it is (`[image image/png, 95 bytes base64]`, `[resource
 * test://x (text/plain)]` followed by its text, `[resource link file:///a "a"]`). Blocks are
 * separated by newlines and the whole ends with one. Structured content is shown only through
 * the text blocks that carry it; `--json` gives the raw result.
 */
export function showResult(result: CallToolResult): string {
  const lines: string[] = [];
  for (const block of result.content ?? []) {
    switch (block.type) {
      case 'text':
        lines.push(block.text);
        break;
      case 'image':
      case 'audio':
        lines.push(`[${block.type} ${block.mimeType}, ${block.data.length} bytes base64]`);
        break;
      case 'resource': {
        const resource = block.resource as { uri: string; mimeType?: string; text?: string; blob?: string };
        const kind = resource.mimeType === undefined ? '' : ` (${resource.mimeType})`;
        if (typeof resource.text === 'string') lines.push(`[resource ${resource.uri}${kind}]`, resource.text);
        else lines.push(`[resource ${resource.uri}${kind}, ${String(resource.blob ?? '').length} bytes base64]`);
        break;
      }
      case 'resource_link':
        lines.push(`[resource link ${block.uri} ${JSON.stringify(block.name)}]`);
        break;
      default:
        lines.push(`[${String((block as { type?: unknown }).type)} content]`);
    }
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

import type { Tool as McpTool } from '@modelcontextprotocol/server';
import type { ContractTool } from '../../contract/index.js';

const LISTED_DEFINITION = Symbol.for('toolwright/mcp/listed-definition');

/**
 * Attaches to `tool` the MCP definition another server listed for it, so that serving the tool
 * again lists that definition unchanged (see `definitionOf`): title, hints, schemas (whatever
 * their dialect) and `_meta` exactly as the upstream server gave them, with no claim of
 * toolwright's added. The definition is frozen (deeply) and kept under a symbol, which `wrap`
 * forwards like any other property. Returns the same tool object.
 */
export function withListedDefinition<T extends ContractTool>(tool: T, definition: object): T {
  Object.defineProperty(tool, LISTED_DEFINITION, { value: definition, enumerable: true });
  return tool;
}

/** The upstream definition attached with `withListedDefinition`, or `undefined`. */
export function listedDefinitionOf(tool: ContractTool): McpTool | undefined {
  const found = (tool as unknown as Record<symbol, unknown>)[LISTED_DEFINITION];
  return typeof found === 'object' && found !== null ? (found as McpTool) : undefined;
}

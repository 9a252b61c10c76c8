import { TOOL_NAME_PATTERN } from '../../../contract/index.js';
import type { LintRule } from '../types.js';

/**
 * The MCP specification (2025-11-25, Server / Tools): a tool's `inputSchema` and `outputSchema`
 * are JSON Schema objects with `"type": "object"`; a schema without `$schema` is JSON Schema
 * 2020-12, and a `$schema` names the dialect; a tool name is 1 to 128 of `A-Za-z0-9_-.`.
 */
const TOOLS = 'https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool';

export const MCP_RULES: readonly LintRule[] = [
  {
    id: 'mcp/object-schema',
    provider: 'mcp',
    summary: 'inputSchema and outputSchema have "type": "object" at the root',
    citation: TOOLS,
    check({ schema, root }, target) {
      if (!root || schema.type === 'object') return [];
      return [
        {
          message: `the ${target.role === 'input' ? 'inputSchema' : 'outputSchema'} root must have "type": "object"`,
          fix: 'use a DTO class for the arguments and the result',
        },
      ];
    },
  },
  {
    id: 'mcp/schema-dialect',
    provider: 'mcp',
    summary: 'a $schema, when given, is JSON Schema 2020-12 (the default dialect)',
    citation: TOOLS,
    check({ schema, root }) {
      if (!root || schema.$schema === undefined || schema.$schema === 'https://json-schema.org/draft/2020-12/schema')
        return [];
      return [
        {
          message: `$schema ${JSON.stringify(schema.$schema)} is not JSON Schema 2020-12, which clients assume`,
          fix: 'leave $schema out, or use https://json-schema.org/draft/2020-12/schema',
          at: '/$schema',
        },
      ];
    },
  },
  {
    id: 'mcp/tool-name',
    provider: 'mcp',
    summary: 'a tool name is 1 to 128 of A-Z a-z 0-9 _ - .',
    citation: TOOLS,
    checkTool(tool, target) {
      if (target.role !== 'input' || TOOL_NAME_PATTERN.test(tool.name)) return [];
      return [
        {
          message: `tool name ${JSON.stringify(tool.name)} is not 1 to 128 of A-Z a-z 0-9 _ - .`,
          fix: "rename it with @Tool({ name: '...' })",
        },
      ];
    },
  },
];

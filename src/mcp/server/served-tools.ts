import type { Tool as McpTool } from '@modelcontextprotocol/server';
import type { ContractTool } from '../../contract/index.js';
import { prepareTools, type CallCoreOptions, type PreparedTool } from '../../runtime/call/index.js';
import { definitionOf } from './definition.js';
import { checkSchedulingOption, rememberToolList } from './scheduling.js';
import { checkReplayOption } from './replay.js';

/** A tool ready to serve: prepared for the call core, with its listed definition. */
export interface ServedTool {
  readonly prepared: PreparedTool;
  readonly definition: McpTool;
}

/**
 * Prepares `tools` for serving, in order: `prepareTools` (the one composition point of every
 * host; it throws, naming the tool, for an invalid set or bad options), then each tool's MCP
 * definition (see `definitionOf`). A malformed `scheduling` option throws too (see
 * `checkSchedulingOption`).
 */
export function servedToolsOf(
  tools: readonly ContractTool[],
  where: string,
  options: CallCoreOptions & { readonly scheduling?: unknown; readonly replay?: unknown } = {},
): Map<string, ServedTool> {
  checkSchedulingOption(options.scheduling, where);
  checkReplayOption(options.replay, where);
  const served = new Map<string, ServedTool>();
  for (const [name, prepared] of prepareTools(tools, options, where)) {
    served.set(name, Object.freeze({ prepared, definition: definitionOf(prepared.tool) }));
  }
  rememberToolList(served, tools);
  return served;
}

import type { Tool as McpTool } from '@modelcontextprotocol/server';
import type { ContractTool } from '../../contract/index.js';
import { prepareTools, type CallCoreOptions, type PreparedTool } from '../../runtime/call/index.js';
import { definitionOf } from './definition.js';
import { checkSchedulingOption } from './scheduling.js';
import { checkReplayOption } from './replay.js';
import { checkTaskOptions } from './tasks/task-options.js';

/** A tool ready to serve: prepared for the call core, with its listed definition. */
export interface ServedTool {
  readonly prepared: PreparedTool;
  readonly definition: McpTool;
}

/**
 * The tools a server serves, by name. `source` is the tool list they were prepared from (what
 * `servedToolsOf` was given): servers of one list share their principal and server scheduling
 * scopes (see `schedulingOf`); a set without one is its own list.
 */
export interface ServedTools extends ReadonlyMap<string, ServedTool> {
  readonly source?: object;
}

/**
 * Prepares `tools` for serving, in order: `prepareTools` (the one composition point of every
 * host; it throws, naming the tool, for an invalid set or bad options), then each tool's MCP
 * definition (see `definitionOf`). A malformed `scheduling` or `replay` option throws too (see
 * `checkSchedulingOption`, `checkTaskOptions`): this is where the options of every server's tools are checked, once.
 */
export function servedToolsOf(
  tools: readonly ContractTool[],
  where: string,
  options: CallCoreOptions & {
    readonly scheduling?: unknown;
    readonly replay?: unknown;
    readonly tasks?: unknown;
  } = {},
): Map<string, ServedTool> & { readonly source: object } {
  checkSchedulingOption(options.scheduling, where);
  checkReplayOption(options.replay, where);
  checkTaskOptions(options.tasks, where);
  const served = new Map<string, ServedTool>();
  for (const [name, prepared] of prepareTools(tools, options, where)) {
    served.set(name, Object.freeze({ prepared, definition: definitionOf(prepared.tool) }));
  }
  return Object.assign(served, { source: tools as object });
}

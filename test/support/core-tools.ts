import type { CallContext, ContractTool, ToolResult } from '../../src/contract/index.js';
import { prepareTools, runToolCall, type CallCoreOptions } from '../../src/runtime/call/index.js';

/**
 * A tool as a host runs it: one call through the call core, resolving the result or rejecting with
 * the call's error.
 */
export interface CoreRunner {
  readonly name: string;
  execute(args: unknown, ctx: CallContext): Promise<ToolResult>;
}

/**
 * Prepares `tool` with `options` (`prepareTools`, the one composition point) and returns a runner
 * whose `execute` runs one call through the call core, exactly as the hosts do.
 */
export function throughCore(tool: ContractTool, options: CallCoreOptions = {}): CoreRunner {
  const prepared = prepareTools([tool], options).get(tool.name)!;
  return {
    name: tool.name,
    async execute(args, ctx) {
      const end = await runToolCall(prepared, args, ctx);
      if (end.ok) return end.result;
      throw end.error;
    },
  };
}

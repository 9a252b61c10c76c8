import { createCallContext } from '../../src/runtime/index.js';
import {
  type CallContext,
  type ContractTool,
  type ElicitAnswer,
  type Elicitation,
  type ToolOutput,
} from '../../src/index.js';

/** A context for one in-process call; `elicit` answers questions when given. */
export function callContext(
  tool: string,
  args: unknown,
  elicit?: (question: Elicitation) => Promise<ElicitAnswer>,
): CallContext {
  return createCallContext({ call: { id: 'call-1', tool, args }, ...(elicit === undefined ? {} : { elicit }) });
}

/** Runs a tool once in process (a runner from `throughCore` runs it the way a host would). */
export function callTool(
  tool: Pick<ContractTool, 'name' | 'execute'>,
  args: unknown,
  elicit?: (question: Elicitation) => Promise<ElicitAnswer>,
): Promise<ToolOutput> {
  return tool.execute(args, callContext(tool.name, args, elicit));
}

export const WRITE_ARGS_SCHEMA = {
  type: 'object',
  properties: { path: { type: 'string' }, text: { type: 'string' } },
  required: ['path', 'text'],
  additionalProperties: false,
} as const;

/**
 * A hand-built file writer that checks `write` on its path imperatively, then records the write
 * in `effects` (after the check, as tools must).
 */
export function imperativeWriter(effects: string[]): ContractTool {
  return {
    name: 'write_file',
    description: 'Writes a file',
    parameters: WRITE_ARGS_SCHEMA as never,
    async execute(args: unknown, ctx: CallContext) {
      const { path } = args as { path: string; text: string };
      const granted = await ctx.requirePermission({ subject: path, capabilities: ['write'], reason: 'save the file' });
      effects.push(path);
      return `wrote ${path} with ${granted.join(', ')}`;
    },
  };
}

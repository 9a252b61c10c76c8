import type { CallContext } from './context.js';
import type { ToolOutput } from './result.js';
import type { ContractTool } from './tool.js';

/** The `execute` of a wrapper: it gets the inner tool's `execute` to call (or not). */
export type WrappedExecute = (args: unknown, ctx: CallContext, inner: ContractTool) => Promise<ToolOutput>;

/**
 * Returns a tool that behaves as `tool` in every property and runs `execute` in its place.
 * Every property is forwarded unchanged, including `facts`, `replay`, `close` and the claims,
 * so a wrapper never loses or alters what the tool says about itself. The result is frozen.
 */
export function wrap(tool: ContractTool, execute: WrappedExecute): ContractTool {
  const wrapper: Record<string | symbol, unknown> = {};
  for (const key of Reflect.ownKeys(tool)) {
    if (key === 'execute') continue;
    wrapper[key] = (tool as unknown as Record<string | symbol, unknown>)[key];
  }
  // Methods defined on a prototype (class-based hand-built tools) are forwarded bound to the tool.
  for (const key of ['facts', 'close'] as const) {
    if (!(key in wrapper) && typeof tool[key] === 'function') wrapper[key] = (tool[key] as Function).bind(tool);
  }
  if (typeof tool.replay === 'function' && !Object.prototype.hasOwnProperty.call(tool, 'replay')) {
    wrapper.replay = tool.replay.bind(tool);
  }
  wrapper.execute = (args: unknown, ctx: CallContext) => execute(args, ctx, tool);
  return Object.freeze(wrapper) as unknown as ContractTool;
}

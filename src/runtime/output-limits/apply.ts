import { resultOf, wrap, type ContractTool } from '../../contract/index.js';
import { isPositiveInteger } from '../../util/limits.js';
import { isToolOutput } from '../../contract/shapes.js';
import { boundResult } from './truncate.js';

/** Options of the output bounds wrapper. */
export interface OutputBoundsOptions {
  /** The bound for tools that state no `maxOutputChars` of their own (a positive integer; default none). */
  readonly maxOutputChars?: number;
}

/** The wrappers `withOutputBound` made, so bounding a bounded tool again changes nothing. */
const BOUNDED = new WeakSet<ContractTool>();

/**
 * Bounds one tool's final result (see `boundResult`): the tool's own `maxOutputChars`
 * (`@MaxOutput`) wins over `options.maxOutputChars`; with neither, the tool itself is returned,
 * and a tool this function already bounded is returned as it is (the first bound stays), so a host
 * may bound tools that the server or executor bounds again. The wrapper forwards every property
 * (see `wrap`). Intermediate outputs (`ctx.update`) and thrown errors are not bounded. Throws a
 * `TypeError` for a bound that is not a positive integer.
 */
export function withOutputBound(tool: ContractTool, options: OutputBoundsOptions = {}): ContractTool {
  if (options.maxOutputChars !== undefined && !isPositiveInteger(options.maxOutputChars)) {
    throw new TypeError(`applyOutputBounds: "maxOutputChars" must be a positive integer, got ${String(options.maxOutputChars)}`);
  }
  if (tool.maxOutputChars !== undefined && !isPositiveInteger(tool.maxOutputChars)) {
    throw new TypeError(`applyOutputBounds: tool ${JSON.stringify(tool.name)} has maxOutputChars ${String(tool.maxOutputChars)}, expected a positive integer`);
  }
  if (BOUNDED.has(tool)) return tool;
  const limit = tool.maxOutputChars ?? options.maxOutputChars;
  if (limit === undefined) return tool;
  // An output that is not a ToolOutput is passed on unchanged, for the host to refuse with its own message.
  const bounded = wrap(tool, async (args, ctx, inner) => {
    const output = await inner.execute(args, ctx);
    return isToolOutput(output) ? boundResult(resultOf(output), limit) : output;
  });
  BOUNDED.add(bounded);
  return bounded;
}

/**
 * Bounds every tool's output (see `withOutputBound`), in the same order. Apply it outermost,
 * after interceptors and policy, so it bounds what the model finally reads.
 */
export function applyOutputBounds(tools: Iterable<ContractTool>, options: OutputBoundsOptions = {}): ContractTool[] {
  return [...tools].map((tool) => withOutputBound(tool, options));
}

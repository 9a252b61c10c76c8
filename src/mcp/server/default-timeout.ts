import { wrap, type ContractTool } from '../../contract/index.js';
import { checkTimeout } from '../../runtime/executor/timeout-limit.js';

/**
 * Checks the server option `defaultTimeoutMs` (a positive number of milliseconds up to
 * `MAX_TIMEOUT_MS`, or `undefined` for none, the default). Throws a `TypeError` beginning with
 * `where` for anything else.
 */
export function checkDefaultTimeout(value: unknown, where: string): void {
  const problem = checkTimeout(value);
  if (problem !== undefined) throw new TypeError(`${where}: "defaultTimeoutMs": ${problem}`);
}

/**
 * `tool` with `timeoutMs` set to `defaultTimeoutMs` when it states none of its own (no
 * `@Timeout`, no `timeoutMs`): a call of it is then answered `tool "<name>" timed out after <ms>
 * ms` when the time passes, its signal aborted, as for a tool's own limit. A tool with its own
 * limit, or no default, is returned as it is. The copy forwards every other property (`wrap`).
 */
export function withDefaultTimeout(tool: ContractTool, defaultTimeoutMs: number | undefined): ContractTool {
  if (defaultTimeoutMs === undefined || tool.timeoutMs !== undefined) return tool;
  const forwarded = wrap(tool, (args, ctx, inner) => inner.execute(args, ctx));
  return Object.freeze({ ...forwarded, timeoutMs: defaultTimeoutMs });
}

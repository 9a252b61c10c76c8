import type { ToolOutput } from './result.js';
import type { ContractTool } from './tool.js';

/*
 * Internal structural checks shared by every layer (hosts check values they did not build
 * themselves). Not exported from `contract/index.ts`: they are not public API.
 */

/**
 * True when `value` can be run as a contract tool: an object with a string `name` and an
 * `execute` function. It checks nothing else (not the name rule, not the schemas).
 */
export function isContractTool(value: unknown): value is ContractTool {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { name?: unknown }).name === 'string' &&
    typeof (value as { execute?: unknown }).execute === 'function'
  );
}

/**
 * True when `value` has the outer shape of a `ToolOutput`: a string, an array, or an object with
 * a `content` array. It never inspects the parts.
 */
export function isToolOutput(value: unknown): value is ToolOutput {
  if (typeof value === 'string' || Array.isArray(value)) return true;
  return typeof value === 'object' && value !== null && Array.isArray((value as { content?: unknown }).content);
}

/** True for a promise or any other object or function with a `then` method. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

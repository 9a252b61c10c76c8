import { text, ToolError, type ToolResult } from '../../contract/index.js';
import { AmbiguousOutcomeError } from './errors.js';
import type { CallOutcome } from './types.js';

/**
 * The result to show the model for an outcome: the tool's result as it is, or for a failure one
 * text part holding the error's message, `isError: true`, the `details` of a `ToolError`, and
 * the failure's record when it carries one (as every MCP host sends it).
 * Stacks never appear.
 */
export function outcomeResult(outcome: CallOutcome): ToolResult {
  if (outcome.ok) return outcome.result;
  const details = outcome.error instanceof ToolError ? outcome.error.details : undefined;
  return {
    content: [text(outcome.error.message)],
    isError: true,
    ...(details === undefined ? {} : { details }),
    ...(outcome.record === undefined ? {} : { record: outcome.record }),
  };
}

/**
 * True when the outcome is ambiguous: the tool may have acted, but there is no result (a
 * timeout, or an `AmbiguousOutcomeError` from the tool). Only then is `retryAmbiguous` in order.
 */
export function isAmbiguous(outcome: CallOutcome): boolean {
  return !outcome.ok && outcome.error instanceof AmbiguousOutcomeError;
}

/**
 * Whether a batch asks the host's loop to stop: `all` when every call succeeded with a result
 * that sets `terminate`, `partial` when some did (report it, but keep going), `none` otherwise
 * (and for an empty batch).
 */
export function terminationOf(outcomes: readonly CallOutcome[]): 'none' | 'partial' | 'all' {
  let terminating = 0;
  for (const outcome of outcomes) if (outcome.ok && outcome.result.terminate === true) terminating += 1;
  if (terminating === 0) return 'none';
  return terminating === outcomes.length ? 'all' : 'partial';
}

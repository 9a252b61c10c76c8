import { createCallContext, type Call, type CallContext, type CallContextInit } from '../../src/contract/index.js';

/*
 * The result and context helpers every suite uses: one copy each (it imports the contract only,
 * so the mutation suites that must load little can use it too).
 */

/** An MCP result of one text block, `isError` when `isError`: what a tool's text answer becomes. */
export function textResult(
  text: string,
  isError = false,
): { content: [{ type: 'text'; text: string }]; isError?: true } {
  return isError ? { content: [{ type: 'text', text }], isError: true } : { content: [{ type: 'text', text }] };
}

/** The MCP result of a failure with `text`: one text block and `isError: true`. */
export function failedResult(text: string): { content: [{ type: 'text'; text: string }]; isError: true } {
  return { content: [{ type: 'text', text }], isError: true };
}

/**
 * The text of a result's first content block. Throws, showing the result, when that block is
 * not text (or there is none), so a test reads the failure instead of `undefined`.
 */
export function textOf(result: unknown): string {
  const first = (result as { content?: Array<{ type?: unknown; text?: unknown }> } | null)?.content?.[0];
  if (first?.type !== 'text' || typeof first.text !== 'string')
    throw new Error(`no text block first in ${JSON.stringify(result)}`);
  return first.text;
}

/** The call the contexts of `ctxOf` are made for, unless given another. */
export const TEST_CALL: Readonly<Call> = Object.freeze({ id: 'c1', tool: 't', args: {} });

/** A call context of `call` (default `TEST_CALL`) with `extra` members over the defaults. */
export function ctxOf(
  extra: Partial<Omit<CallContextInit, 'call'>> | Record<string, unknown> = {},
  call = TEST_CALL,
): CallContext {
  return createCallContext({ call, ...(extra as object) } as CallContextInit);
}

/** Resolves once `signal` aborts (at once when it already has): how a tool waits to be cancelled. */
export function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

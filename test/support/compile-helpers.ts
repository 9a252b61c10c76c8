import assert from 'node:assert/strict';
import { ContractError, InvalidArgumentsError, type CallContext, type ContractIssue } from '../../src/index.js';
import { createCallContext } from '../../src/runtime/index.js';

/** A fresh call context for a call of `tool` with `args`, with every host default. */
export function contextFor(tool: string, args: unknown = {}): CallContext {
  return createCallContext({ call: { id: 'call-1', tool, args } });
}

/** Runs `fn`, which must throw a `ContractError`, and returns its issues as plain objects. */
export function issuesOf(fn: () => unknown): ContractIssue[] {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof ContractError, `expected a ContractError, got ${String(err)}`);
    return err.issues.map((issue) => ({ ...issue }));
  }
  assert.fail('expected compile() to throw a ContractError');
}

/** Awaits `promise`, which must reject with `InvalidArgumentsError`, and returns its message. */
export async function invalidMessage(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof InvalidArgumentsError, `expected InvalidArgumentsError, got ${String(err)}`);
    return err.message;
  }
  assert.fail('expected the call to reject with InvalidArgumentsError');
}

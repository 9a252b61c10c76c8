import type { CallContext, ContractTool, ToolOutput } from '../../src/contract/index.js';
import type { CallOutcome } from '../../src/runtime/executor/index.js';

/** Claims a hand-built test tool may carry. */
export type TestClaims = Partial<Omit<ContractTool, 'name' | 'description' | 'execute'>>;

/** A hand-built contract tool: a plain object with the given name, claims and `execute`. */
export function makeTool(
  name: string,
  claims: TestClaims = {},
  execute: (args: unknown, ctx: CallContext) => Promise<ToolOutput> = async () => name,
): ContractTool {
  return { name, description: `test tool ${name}`, ...claims, execute };
}

/** A promise with its resolve and reject exposed, for tools that finish when a test says so. */
export interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
  reject(reason: unknown): void;
}

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets every pending macrotask and microtask run `turns` times. */
export async function settle(turns = 3): Promise<void> {
  for (let i = 0; i < turns; i += 1) await new Promise<void>((resolve) => setImmediate(resolve));
}

/**
 * An outcome without its times, for exact comparison; the times are checked to be numbers
 * (`startedAt` present exactly when `started`) and the error is reduced to its class name and
 * message.
 */
export function plain(outcome: CallOutcome): Record<string, unknown> {
  const { startedAt, endedAt, ...rest } = outcome;
  if (typeof endedAt !== 'number') throw new Error(`outcome ${outcome.id} has no endedAt`);
  if (outcome.started !== (typeof startedAt === 'number'))
    throw new Error(`outcome ${outcome.id}: started=${outcome.started} but startedAt=${String(startedAt)}`);
  if (rest.ok) return rest;
  const { error, ...others } = rest;
  return { ...others, error: `${error.name}: ${error.message}` };
}

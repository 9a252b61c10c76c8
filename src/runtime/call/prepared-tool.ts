import type { ContractTool, Requirement } from '../../contract/index.js';
import type { CompiledEntry } from '../../compiler/internal.js';
import type { CompiledSchema } from '../../compiler/validation/index.js';
import type { Interceptor } from '../interceptors/types.js';
import type { PermissionPolicy } from '../permissions/policy.js';
import type { CallWatch } from './call-steps.js';
import type { CallEnd } from './call-end.js';

/*
 * What the call core's two halves share: a prepared tool (made by prepare.ts, run by run.ts), how
 * a call ends, and what a host may observe of it. A leaf: it imports types only.
 */

export type { CallEnd } from './call-end.js';

/** What a host may learn of a call while the core runs it. A throw from either is ignored. */
export interface CallObserver {
  /**
   * Called right before the tool's own `execute` runs (once per call; a rewrite by an interceptor
   * runs it in its place).
   */
  started?(): void;
  /**
   * Called once with the call's own end, as if there were no time limit: when the limit ended
   * the call first, this comes later, with what the tool finally settled with (the executor's
   * replay store records it).
   */
  settled?(end: CallEnd): void;
}

/**
 * A tool ready to be called through the call core: checked once, its schemas compiled once, with
 * the host's policy, interceptors, time limit and output bound fixed. Made only by
 * `prepareTools` (and the hosts, which call it); run its calls with `runToolCall`.
 */
export interface PreparedTool {
  /** The tool's name. */
  readonly name: string;
  /** The tool as given. */
  readonly tool: ContractTool;
  /** The call's time limit in milliseconds: the tool's own `timeoutMs`, else the host's; `undefined` for none. */
  readonly timeoutMs: number | undefined;
}

/** What the core reads of a prepared tool. Internal to the call core. */
export interface CoreTool extends PreparedTool {
  /** How `compile` runs the tool step by step, or `undefined` for any other tool. */
  readonly entry: CompiledEntry | undefined;
  /** Validates a hand-built tool's arguments; `undefined` for a compiled tool or a tool without `parameters`. */
  readonly validateArguments: CompiledSchema | undefined;
  /** Validates `structuredContent`, when the tool has an output schema. */
  readonly validateOutput: CompiledSchema | undefined;
  readonly requires: readonly Requirement[];
  readonly policy: PermissionPolicy | undefined;
  readonly interceptors: readonly Interceptor[];
  readonly maxOutputChars: number | undefined;
  /** What watches this tool's calls' steps (see `CallSteps`); empty when nothing does. */
  readonly watches: readonly CallWatch[];
}

/** The prepared tools `prepareTool` made: the core runs only those (their settings were checked here). */
const madeHere = new WeakSet<object>();

/** Marks `prepared` as made by `prepareTool` (after its settings were checked). */
export function markPrepared(prepared: CoreTool): void {
  madeHere.add(prepared);
}

/** True when `value` was made by `prepareTool` (and `prepareTools`). */
export function isPreparedTool(value: unknown): value is PreparedTool {
  return madeHere.has(value as object);
}

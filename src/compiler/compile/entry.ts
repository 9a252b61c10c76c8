import type { CallContext, ContractTool, ToolOutput } from '../../contract/index.js';
import type { CompiledSchema } from '../validation/validator.js';

/**
 * How the call core runs a tool `compile` made, step by step instead of through its `execute`:
 * the core validates the arguments itself (with `parse`), checks the tool's requirements on
 * them, runs interceptors, and only then runs the class (with `run`), so nothing is validated or
 * checked twice.
 */
export interface CompiledEntry {
  /** Validates raw arguments and builds what the class's `execute` gets; rejects with `InvalidArgumentsError`. */
  parse(raw: unknown): Promise<object>;
  /** `parse` without its promise, when it runs no class-validator check (see `ArgumentsPipeline.parseNow`). */
  readonly parseNow?: ((raw: unknown) => object) | undefined;
  /**
   * Runs the class's `execute` with arguments `parse` made (resolving the instance for this call
   * first, when `compile` was given `resolveForCall`) and turns what it returned into a
   * `ToolOutput` (see `outputOf`). It never checks the output schema: the core does.
   */
  run(args: object, ctx: CallContext): Promise<ToolOutput>;
  /** The compiled output schema, when the tool declares `@Tool({ result })`. */
  readonly validateOutput: CompiledSchema | undefined;
}

/*
 * The entries of the tools `compile` made. The map is private to this module, which no package
 * export reaches, so no code outside toolwright can mark a tool as one that validates its own
 * arguments (and so switch a host's validation off): only `compile` registers tools here.
 */
const entries = new WeakMap<ContractTool, CompiledEntry>();

/** Registers the entry of a tool `compile` just made. Internal to the compiler. */
export function registerCompiledEntry(tool: ContractTool, entry: CompiledEntry): void {
  entries.set(tool, Object.freeze(entry));
}

/**
 * The entry of a tool `compile` made, or `undefined` for any other tool (hand-built, or a
 * wrapper around a compiled tool, whose `execute` the core runs as it is, after validating the
 * arguments against its `parameters`).
 */
export function compiledEntryOf(tool: ContractTool): CompiledEntry | undefined {
  return entries.get(tool);
}

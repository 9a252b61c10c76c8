import type { CallContext } from '../../contract/index.js';

/**
 * How the hosts run a resource, template or prompt `compileResources` or `compilePrompts` made,
 * step by step instead of through its own `read` or `get`: the core validates the arguments (or
 * template variables) with `parse`, checks the requirements on the plain values, and only then
 * runs the class with `run`, so nothing is validated twice.
 */
export interface FeatureEntry {
  /**
   * Turns the strings a client sent into the class's values and validates them; resolves what
   * the class method receives (`value`: its arguments class instance, or the plain values) and
   * the plain values the requirements' subjects read (`plain`). Rejects with
   * `InvalidArgumentsError`. A resource with a fixed URI takes nothing and resolves `{}`.
   */
  parse(raw: unknown): Promise<{ readonly value: object; readonly plain: Record<string, unknown> }>;
  /** Runs the class method (`read` or `messages`) with what `parse` made, on the instance of this call. */
  run(value: object, ctx: CallContext): Promise<unknown>;
}

/*
 * The entries of what the compiler made. Private to this module, which no package export
 * reaches, as the tools' entries are (see `compiledEntryOf`).
 */
const entries = new WeakMap<object, FeatureEntry>();

/** Registers the entry of a resource, template or prompt the compiler just made. Internal to the compiler. */
export function registerFeatureEntry(made: object, entry: FeatureEntry): void {
  entries.set(made, Object.freeze(entry));
}

/** The entry of a resource, template or prompt the compiler made, or `undefined` for a hand-built one. */
export function featureEntryOf(made: object): FeatureEntry | undefined {
  return entries.get(made);
}

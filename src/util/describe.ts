/*
 * Helpers for error messages, shared by every layer (src/util imports nothing of ours). Not
 * public API, except `kindOf`, which the validation index re-exports.
 */

/**
 * Names the kind of a value in words for an error message: `null`, `nothing` (undefined),
 * `an array`, `an object`, `a string`, `a number`, `a boolean`, `a function`, `a symbol`,
 * `a bigint`. It never shows the value itself.
 */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  const type = typeof value;
  return type === 'object' ? 'an object' : /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** Something thrown, as an `Error`: an `Error` as it is, anything else as `Error(String(thrown))`. */
export function asError(thrown: unknown): Error {
  return thrown instanceof Error ? thrown : new Error(String(thrown));
}

/**
 * The text of something thrown, for a message that wraps it: an `Error`'s `message`, else
 * `String(thrown)`. It never includes a stack.
 */
export function messageOf(thrown: unknown): string {
  return thrown instanceof Error ? thrown.message : String(thrown);
}

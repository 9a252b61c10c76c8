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
 * The text of something thrown, for a message that shows or wraps it: the `message` of an error
 * (of any object with a string `message`), its `name` when the message is empty (`Error` when both
 * are), else `String(thrown)`. It never includes a stack or an `Error:` prefix, and never throws:
 * a value that cannot be turned into a string gives `a thrown value that cannot be shown`. The one
 * error-text function of every layer (a tool's failure as the client reads it, a wrapped cause, a
 * log line).
 */
export function errorText(thrown: unknown): string {
  try {
    if (
      typeof thrown === 'object' &&
      thrown !== null &&
      typeof (thrown as { message?: unknown }).message === 'string'
    ) {
      const { message, name } = thrown as { message: string; name?: unknown };
      if (message !== '') return message;
      return typeof name === 'string' && name !== '' ? name : 'Error';
    }
    return String(thrown);
  } catch {
    return 'a thrown value that cannot be shown';
  }
}

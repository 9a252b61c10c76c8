import { kindOf } from './describe.js';

/*
 * The one options checker of every public entry point: one error type (`InvalidOptionError`, a
 * `TypeError` with the code `invalid-option`) and one message form, `<where>: <problem>`:
 *
 *   <where>: options must be an object, got <kind>
 *   <where>: unknown option "<key>" (known options: <a, b, c>)
 *   <where>: "<option>" must be <what is expected>, got <the value>
 *
 * Not public API; the error's code is (see `ToolwrightError`).
 */

/**
 * A bad option given to a public entry point (a programming mistake, so a `TypeError`; its
 * `name` stays `TypeError`). `code` is `invalid-option`; the message names the entry point, the
 * option, what is expected and what was given.
 */
export class InvalidOptionError extends TypeError {
  readonly code = 'invalid-option';
}

/**
 * The keys an options type `T` has, written once and checked by the compiler: the list must name
 * every key of `T` (a key left out is a type error naming it), so it cannot drift from the type.
 * Use as `optionKeys<MyOptions>()('a', 'b')`.
 */
export function optionKeys<T extends object>() {
  return <const K extends readonly (keyof T & string)[]>(
    ...keys: K &
      ([Exclude<keyof T & string, K[number]>] extends [never] ? unknown : { missing: Exclude<keyof T, K[number]> })
  ): readonly string[] => Object.freeze([...keys]);
}

/**
 * Throws an `InvalidOptionError` unless `options` is a plain object (not `null`, not an array)
 * whose own enumerable keys are all in `known`; with `known` undefined, any key is accepted.
 * Answers `options` as it is.
 */
export function checkOptionsObject<T>(where: string, options: T, known?: readonly string[]): T {
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new InvalidOptionError(`${where}: options must be an object, got ${kindOf(options)}`);
  if (known !== undefined) {
    for (const key of Object.keys(options)) {
      if (!known.includes(key))
        throw new InvalidOptionError(
          `${where}: unknown option ${JSON.stringify(key)} (known options: ${known.join(', ')})`,
        );
    }
  }
  return options;
}

/**
 * A value as an option message shows it: a number as written (`0`, `-1`, `NaN`, `Infinity`),
 * anything else by its kind (`a string`, `an object`, `nothing`, ...), so a message never echoes
 * text or secrets it was given. A site that shows more passes its own `got` to `invalidOption`.
 */
export function shownValue(value: unknown): string {
  return typeof value === 'number' ? String(value) : kindOf(value);
}

/**
 * The error for a bad option value: `<where>: "<name>" must be <expected>, got <value>` (the
 * value as `shownValue` shows it, or `got` as given when it is a string of its own).
 */
export function invalidOption(
  where: string,
  name: string,
  expected: string,
  value: unknown,
  got: string = shownValue(value),
): InvalidOptionError {
  return new InvalidOptionError(`${where}: "${name}" must be ${expected}, got ${got}`);
}

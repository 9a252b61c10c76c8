import { isJsonObject, type ArgumentProblem } from '../../contract/index.js';
import { kindOf } from '../../util/describe.js';

/** What `argumentsObject` makes of raw arguments: the object to validate, or the problem. */
export type ArgumentsShape =
  | { readonly value: object; readonly problem?: undefined }
  | { readonly value?: undefined; readonly problem: ArgumentProblem };

/**
 * Applies the contract's rules for the outer shape of raw arguments: `undefined` and `""` mean
 * `{}` (a fresh object each time); a non-array object is used as it is (never copied or
 * changed); anything else (a non-empty string, a number, a boolean, `null`, an array) is refused
 * with `expected an object, got <kind>`.
 */
export function argumentsObject(raw: unknown): ArgumentsShape {
  if (raw === undefined || raw === '') return { value: {} };
  if (isJsonObject(raw)) return { value: raw };
  return { problem: { pointer: '', message: `expected an object, got ${kindOf(raw)}` } };
}

/*
 * Internal limits and number checks shared by every layer. Not public API;
 * `MAX_TIMEOUT_MS` is public through the runtime's executor index.
 */

/** The longest delay `setTimeout` honours (a longer one fires at once): 2147483647 ms. */
export const MAX_TIMEOUT_MS = 2_147_483_647;

/** True for a whole number from 1 to `Number.MAX_SAFE_INTEGER` (a count, a size, a bound). */
export function isPositiveInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;
}

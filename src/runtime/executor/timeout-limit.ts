import { kindOf } from '../../util/describe.js';
import { MAX_TIMEOUT_MS } from '../../util/limits.js';

export { MAX_TIMEOUT_MS };

/**
 * Checks a time limit in milliseconds: `undefined` (no limit) or a positive number up to
 * `MAX_TIMEOUT_MS`. Returns what is wrong with it in words, or `undefined` when it is fine.
 */
export function checkTimeout(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > MAX_TIMEOUT_MS) {
    return `expected a positive number of milliseconds up to ${MAX_TIMEOUT_MS}, got ${typeof value === 'number' ? String(value) : kindOf(value)}`;
  }
  return undefined;
}

import type { Json } from '../../contract/index.js';
import type { JsonType } from './type-set.js';

const MAX_DEPTH = 64;

/**
 * Sets `key` on `target` as an own, enumerable, writable data property, so a key named
 * `__proto__` (or `constructor`) stays a data key and never touches a prototype. A key that
 * `target` has nowhere on its prototype chain is assigned (which makes exactly that property);
 * any other is defined.
 */
export function setDataKey(target: object, key: string, value: unknown): void {
  if (key in target)
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else (target as Record<string, unknown>)[key] = value;
}

/**
 * Returns a fresh copy of `value` when it is plain JSON (null, booleans, finite numbers,
 * strings, arrays and plain objects of those, at most 64 levels deep), else `undefined`.
 * Dates, class instances, functions, `NaN`, `undefined` and cycles are not JSON. The copy
 * never shares objects with `value`, so later changes to a default do not reach the schema.
 */
export function jsonCopyOf(value: unknown, depth = 0): Json | undefined {
  if (depth > MAX_DEPTH) return undefined;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (Array.isArray(value)) {
    const copy: Json[] = [];
    for (const item of value) {
      const itemCopy = jsonCopyOf(item, depth + 1);
      if (itemCopy === undefined) return undefined;
      copy.push(itemCopy);
    }
    return copy;
  }
  if (typeof value === 'object') {
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) return undefined;
    const copy: { [key: string]: Json } = {};
    for (const key of Object.keys(value)) {
      const itemCopy = jsonCopyOf((value as Record<string, unknown>)[key], depth + 1);
      if (itemCopy === undefined) return undefined;
      setDataKey(copy, key, itemCopy);
    }
    return copy;
  }
  return undefined;
}

/** Whether `value` is a JSON primitive a parsed argument can be `===` to (class-validator compares with `===`). */
export function isJsonPrimitive(value: unknown): value is null | boolean | number | string {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

/** The JSON Schema type of a JSON primitive; whole numbers are `integer`. */
export function jsonTypeOf(value: null | boolean | number | string): JsonType {
  if (value === null) return 'null';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as 'string' | 'boolean';
}

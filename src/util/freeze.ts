/*
 * Internal: shared by every layer, not public API.
 */

/**
 * Freezes `value` and every object and array reachable through its own enumerable members, in
 * place, and returns it. Iterative (no recursion), and safe on shared or cyclic references.
 */
export function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null || seen.has(node)) continue;
    seen.add(node);
    Object.freeze(node);
    for (const child of Object.values(node)) stack.push(child);
  }
  return value;
}

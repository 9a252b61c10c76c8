/**
 * A canonical text for a value: JSON with object keys sorted, so two argument objects that are
 * equal as JSON have the same fingerprint whatever their key order. `undefined` members are left
 * out as `JSON.stringify` leaves them out; a value JSON cannot hold (`undefined` at the top,
 * functions, symbols, bigints) is written as its type in angle brackets so it never matches a
 * JSON value. A cyclic value throws a `TypeError` naming the problem.
 */
export function fingerprint(value: unknown): string {
  return canonical(value, new Set());
}

function canonical(value: unknown, seen: Set<object>): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      break;
    default:
      return `<${typeof value}>`;
  }
  const object = value as object;
  if (seen.has(object)) throw new TypeError('cannot fingerprint the arguments: they contain a cycle');
  seen.add(object);
  try {
    if (Array.isArray(object)) {
      return `[${object.map((item) => (item === undefined || typeof item === 'function' || typeof item === 'symbol' ? 'null' : canonical(item, seen))).join(',')}]`;
    }
    const json = (object as { toJSON?: unknown }).toJSON;
    if (typeof json === 'function') return canonical(json.call(object), seen);
    const parts: string[] = [];
    for (const key of Object.keys(object).sort()) {
      const member = (object as Record<string, unknown>)[key];
      if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
      parts.push(`${JSON.stringify(key)}:${canonical(member, seen)}`);
    }
    return `{${parts.join(',')}}`;
  } finally {
    seen.delete(object);
  }
}

import { isJsonObject, type JsonObject } from '../../contract/index.js';
import { resolveLocalRef } from '../schema/local-ref.js';

/** The schema without its `null` alternative (an optional property's `null` means "left out"). */
function withoutNull(schema: JsonObject): JsonObject {
  const branches = schema.anyOf;
  if (Array.isArray(branches)) {
    const rest = branches.filter((b) => !(isJsonObject(b) && b.type === 'null'));
    if (rest.length === 1 && isJsonObject(rest[0])) {
      const { anyOf: _alternatives, ...others } = schema;
      return { ...others, ...rest[0] };
    }
  }
  return schema;
}

function range(min: unknown, max: unknown, unit: string): string | undefined {
  if (min === undefined && max === undefined) return undefined;
  if (min !== undefined && max !== undefined)
    return min === max ? `${unit} ${String(min)}` : `${unit} ${String(min)}..${String(max)}`;
  return min !== undefined ? `${unit} >= ${String(min)}` : `${unit} <= ${String(max)}`;
}

function typeWords(schema: JsonObject, root: JsonObject, seen: ReadonlySet<JsonObject>): string {
  const { schema: target, name: ref } = resolveLocalRef(withoutNull(schema), root);
  if (ref !== undefined && ref !== '(recursive)') return ref;
  if (ref !== undefined && seen.has(target)) return ref;
  if (Array.isArray(target.enum))
    return target.enum
      .filter((v) => v !== null)
      .map((v) => JSON.stringify(v))
      .join(' | ');
  if ('const' in target) return JSON.stringify(target.const);
  const types = (Array.isArray(target.type) ? target.type : target.type === undefined ? [] : [target.type]).filter(
    (t) => t !== 'null',
  );
  if (types.length === 1 && types[0] === 'array') {
    const item = isJsonObject(target.items) ? typeWords(target.items, root, seen) : 'unknown';
    return item.includes(' ') ? `(${item})[]` : `${item}[]`;
  }
  if (types.length === 1 && types[0] === 'object' && isJsonObject(target.additionalProperties))
    return `Record<string, ${typeWords(target.additionalProperties, root, seen)}>`;
  if (types.length === 0 && Array.isArray(target.anyOf))
    return target.anyOf
      .filter(isJsonObject)
      .map((b) => typeWords(b, root, seen))
      .join(' | ');
  return types.length === 0 ? 'any' : types.join(' | ');
}

function constraintWords(schema: JsonObject, root: JsonObject): string[] {
  const { schema: s } = resolveLocalRef(withoutNull(schema), root);
  const words: string[] = [];
  const numeric = range(s.minimum, s.maximum, 'value');
  if (numeric !== undefined) words.push(numeric.replace('value ', ''));
  if (s.exclusiveMinimum !== undefined) words.push(`> ${String(s.exclusiveMinimum)}`);
  if (s.exclusiveMaximum !== undefined) words.push(`< ${String(s.exclusiveMaximum)}`);
  if (s.multipleOf !== undefined) words.push(`multiple of ${String(s.multipleOf)}`);
  const length = range(s.minLength, s.maxLength, 'length');
  if (length !== undefined) words.push(length);
  const items = range(s.minItems, s.maxItems, 'items');
  if (items !== undefined) words.push(items);
  if (s.uniqueItems === true) words.push('unique');
  if (typeof s.pattern === 'string') words.push(`matching /${s.pattern}/`);
  if (typeof s.format === 'string') words.push(`format ${s.format}`);
  if (isJsonObject(s.items)) {
    const inner = constraintWords(s.items, root);
    if (inner.length > 0) words.push(`each ${inner.join(', ')}`);
  }
  if ('default' in s) words.push(`default ${JSON.stringify(s.default)}`);
  if (s.deprecated === true) words.push('deprecated');
  return words;
}

/** The object schema whose properties a property's value has, if any (through arrays and `$ref`s). */
function nestedObject(schema: JsonObject, root: JsonObject): JsonObject | undefined {
  let { schema: target } = resolveLocalRef(withoutNull(schema), root);
  if (isJsonObject(target.items)) target = resolveLocalRef(withoutNull(target.items), root).schema;
  return isJsonObject(target.properties) && Object.keys(target.properties).length > 0 ? target : undefined;
}

/**
 * Renders an object schema as one line per property, for people: `name?: type, constraints —
 * description`, where `?` marks an optional property, enums read `"a" | "b"`, arrays `string[]`,
 * and nested objects follow indented under their property. A recursive class is named, not
 * expanded again. A schema with no properties reads `(no arguments)`.
 */
export function schemaLines(schema: JsonObject, indent = ''): string[] {
  const root = schema;
  const lines: string[] = [];
  const walk = (object: JsonObject, pad: string, seen: Set<JsonObject>): void => {
    const properties = isJsonObject(object.properties) ? object.properties : {};
    const required = new Set(Array.isArray(object.required) ? (object.required as string[]) : []);
    for (const [name, value] of Object.entries(properties)) {
      if (!isJsonObject(value)) continue;
      const target = resolveLocalRef(withoutNull(value), root).schema;
      const description =
        typeof value.description === 'string'
          ? value.description
          : typeof target.description === 'string'
            ? target.description
            : undefined;
      const head = `${name}${required.has(name) ? '' : '?'}: ${[typeWords(value, root, seen), ...constraintWords(value, root)].join(', ')}`;
      lines.push(`${pad}${head}${description === undefined ? '' : ` — ${description}`}`);
      const nested = nestedObject(value, root);
      if (nested !== undefined && !seen.has(nested)) walk(nested, `${pad}  `, new Set([...seen, nested]));
    }
  };
  walk(root, indent, new Set([root]));
  if (lines.length === 0) lines.push(`${indent}(no arguments)`);
  return lines;
}

import fc from 'fast-check';

type Schema = Record<string, unknown>;

/** Bounds that keep generated values small (the fuzz suites must stay fast). */
const MAX_STRING = 40;
const MAX_ITEMS = 4;

/**
 * A fast-check arbitrary of values a JSON Schema (the 2020-12 subset toolwright generates)
 * accepts: `type` (one or a list, `null` included), `enum`, `const`, `anyOf`, local `$ref`s into
 * `$defs`, string `minLength`/`maxLength`/`pattern`, number `minimum`/`maximum`, array `items`
 * and `maxItems`/`minItems`, object `properties`/`required` (optional keys sometimes left out).
 * Throws for a keyword it cannot honour, so a fuzz run never silently generates invalid input.
 */
export function arbitraryOf(schema: Schema, root: Schema = schema): fc.Arbitrary<unknown> {
  if (typeof schema.$ref === 'string') {
    const name = /^#\/\$defs\/(.+)$/.exec(schema.$ref)?.[1];
    const target = name === undefined ? undefined : (root.$defs as Record<string, Schema> | undefined)?.[name];
    if (target === undefined) throw new Error(`arbitraryOf: cannot resolve ${schema.$ref}`);
    return arbitraryOf(target, root);
  }
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.anyOf)) return fc.oneof(...(schema.anyOf as Schema[]).map((s) => arbitraryOf(s, root)));
  const type = schema.type;
  if (Array.isArray(type)) return fc.oneof(...(type as string[]).map((t) => arbitraryOf({ ...schema, type: t }, root)));
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: numberOr(schema.minimum, -1_000_000), max: numberOr(schema.maximum, 1_000_000) });
    case 'number':
      return fc.double({
        min: numberOr(schema.minimum, -1e9),
        max: numberOr(schema.maximum, 1e9),
        noNaN: true,
        noDefaultInfinity: true,
      });
    case 'string':
      return stringOf(schema);
    case 'array': {
      const items = schema.items === undefined ? fc.jsonValue() : arbitraryOf(schema.items as Schema, root);
      return fc.array(items, {
        minLength: numberOr(schema.minItems, 0),
        maxLength: Math.min(numberOr(schema.maxItems, MAX_ITEMS), MAX_ITEMS),
      });
    }
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, value] of Object.entries(properties)) record[key] = arbitraryOf(value, root);
      return fc.record(record, { requiredKeys: (schema.required ?? []) as string[] });
    }
    default:
      throw new Error(`arbitraryOf: unsupported schema ${JSON.stringify(schema).slice(0, 200)}`);
  }
}

function stringOf(schema: Schema): fc.Arbitrary<string> {
  const minLength = numberOr(schema.minLength, 0);
  const maxLength = Math.min(numberOr(schema.maxLength, MAX_STRING), Math.max(MAX_STRING, minLength));
  if (typeof schema.format === 'string') throw new Error(`arbitraryOf: unsupported string format ${schema.format}`);
  const plain = fc.string({ minLength, maxLength, unit: 'binary' });
  if (typeof schema.pattern !== 'string') return plain;
  const pattern = new RegExp(schema.pattern, 'u');
  return fc.stringMatching(pattern).filter((s) => s.length >= minLength && s.length <= maxLength);
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' ? value : fallback;
}

/** A value of a JSON type other than the one(s) `schema` allows, for mutations, and the ajv message it earns. */
export function wrongValueFor(schema: Schema): { value: unknown; message: string } | undefined {
  const types = new Set<string>(
    Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : [],
  );
  if (types.size === 0 || schema.enum !== undefined) return undefined;
  const named = [...types].join(',');
  if (!types.has('string')) return { value: 'not the right type', message: `must be ${named}` };
  if (!types.has('integer') && !types.has('number')) return { value: 12345, message: `must be ${named}` };
  return { value: { wrong: true }, message: `must be ${named}` };
}

import { isJsonObject, type JsonObject } from '../../contract/index.js';
import { setDataKey } from '../schema/json-values.js';

/*
 * Prompt arguments and URI template variables reach a server as strings. A class with one
 * property per argument (or variable) is mapped onto them here: which properties a string can
 * carry, and how a string becomes the property's type before the class's schema validates it.
 */

/** The type a string is turned into before validation. */
export type StringKind = 'string' | 'integer' | 'number' | 'boolean';

/** One argument (or variable) a class property maps to. */
export interface StringParam {
  readonly name: string;
  readonly kind: StringKind;
  /** True for an array property (template variables only): a list of values. */
  readonly list: boolean;
  readonly required: boolean;
  readonly description: string | undefined;
  readonly title: string | undefined;
  /** The string values an enum property allows (completed from when nothing else completes it). */
  readonly choices: readonly string[] | undefined;
}

/** What a property's schema maps to: a parameter, or why it cannot be one (a clause naming what it is). */
type Mapped = { readonly ok: true; readonly param: StringParam } | { readonly ok: false; readonly why: string };

const SCALARS: ReadonlySet<string> = new Set(['string', 'integer', 'number', 'boolean']);

/**
 * The one non-null type of a schema (`"string"` for `["string", "null"]`), or `undefined` when it
 * has none or several.
 */
function typeOf(schema: JsonObject): string | undefined {
  const type = schema.type;
  if (typeof type === 'string') return type;
  if (!Array.isArray(type)) return undefined;
  const kinds = type.filter((t) => t !== 'null');
  return kinds.length === 1 && typeof kinds[0] === 'string' ? kinds[0] : undefined;
}

function describeSchema(schema: JsonObject): string {
  if (schema.$ref !== undefined) return 'a nested class';
  if (schema.anyOf !== undefined || schema.oneOf !== undefined) return 'a union';
  const type = typeOf(schema);
  if (type === 'object')
    return schema.additionalProperties !== undefined && schema.properties === undefined
      ? 'a map'
      : 'an object (a nested class)';
  if (type === 'array') return 'an array';
  if (type === undefined) return Array.isArray(schema.type) ? 'a union of types' : 'of no known type';
  return `a ${type}`;
}

function scalarKind(schema: JsonObject): StringKind | undefined {
  const type = typeOf(schema);
  if (type !== undefined && SCALARS.has(type)) return type as StringKind;
  if (type === undefined && Array.isArray(schema.enum) && schema.enum.every((value) => typeof value === 'string'))
    return 'string';
  return undefined;
}

/**
 * Maps one property schema: a string, an integer, a number, a boolean or a string enum is a
 * parameter; an array of one of those is a list parameter when `lists` is set; anything else is
 * refused with what it is.
 */
function mapProperty(name: string, schema: unknown, required: boolean, lists: boolean): Mapped {
  if (!isJsonObject(schema)) return { ok: false, why: 'of no known type' };
  const base = {
    name,
    required,
    description: typeof schema.description === 'string' ? schema.description : undefined,
    title: typeof schema.title === 'string' ? schema.title : undefined,
  };
  const kind = scalarKind(schema);
  if (kind !== undefined) return { ok: true, param: { ...base, kind, list: false, choices: stringChoices(schema) } };
  if (lists && typeOf(schema) === 'array' && isJsonObject(schema.items)) {
    const itemKind = scalarKind(schema.items);
    if (itemKind !== undefined)
      return { ok: true, param: { ...base, kind: itemKind, list: true, choices: stringChoices(schema.items) } };
    return { ok: false, why: `an array of ${describeSchema(schema.items).replace(/^an? /, '')} items` };
  }
  return { ok: false, why: describeSchema(schema) };
}

function stringChoices(schema: JsonObject): readonly string[] | undefined {
  return Array.isArray(schema.enum) && schema.enum.every((value) => typeof value === 'string')
    ? (Object.freeze([...schema.enum]) as readonly string[])
    : undefined;
}

/** The parameters of an object schema, in property order, and the properties that cannot be one. */
export function stringParamsOf(
  schema: JsonObject,
  lists: boolean,
): { readonly params: readonly StringParam[]; readonly refused: readonly { name: string; why: string }[] } {
  const properties = isJsonObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const params: StringParam[] = [];
  const refused: { name: string; why: string }[] = [];
  for (const [name, property] of Object.entries(properties)) {
    const mapped = mapProperty(name, property, required.has(name), lists);
    if (mapped.ok) params.push(mapped.param);
    else refused.push({ name, why: mapped.why });
  }
  return { params, refused };
}

const INTEGER = /^-?(?:0|[1-9][0-9]*)$/;
const NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?$/;

/** One string as `kind`; a string that is not one is kept as it is, so validation names the problem. */
function convert(value: string, kind: StringKind): unknown {
  switch (kind) {
    case 'string':
      return value;
    case 'integer': {
      if (!INTEGER.test(value)) return value;
      const number = Number(value);
      return Number.isSafeInteger(number) ? number : value;
    }
    case 'number': {
      if (!NUMBER.test(value)) return value;
      const number = Number(value);
      return Number.isFinite(number) ? number : value;
    }
    case 'boolean':
      return value === 'true' ? true : value === 'false' ? false : value;
  }
}

/**
 * Turns the strings a client sent into the values the class's schema validates: each known
 * parameter's string becomes its type (`"5"` an integer 5, `"true"` a boolean); a list parameter
 * takes a list as it is, or splits a string at commas; a value that does not read as its type,
 * and every unknown name, are kept as they are (the schema then names the problem). Never
 * changes `given`.
 */
export function fromStrings(
  params: ReadonlyMap<string, StringParam>,
  given: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(given)) {
    const param = params.get(name);
    if (param === undefined) {
      // A name such as `__proto__` stays an own key, for the schema to refuse.
      setDataKey(values, name, value);
      continue;
    }
    if (param.list) {
      const items = typeof value === 'string' ? value.split(',') : value;
      setDataKey(
        values,
        name,
        Array.isArray(items)
          ? items.map((item) => (typeof item === 'string' ? convert(item, param.kind) : item))
          : items,
      );
    } else setDataKey(values, name, typeof value === 'string' ? convert(value, param.kind) : value);
  }
  return values;
}

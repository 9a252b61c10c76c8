import { isJsonObject, type Json, type JsonObject } from '../../contract/index.js';
import { setDataKey } from '../schema/json-values.js';
import { resolveLocalRef } from '../schema/local-ref.js';
import { describeMoved } from './describe-moved.js';
import type { ProfileRules } from './options.js';

/**
 * Where, in arguments shaped by a profile's listing, a map was listed as `{ key, value }` entries:
 * a tree following the data (property names, `items`, map `values`).
 */
export interface EntriesPlan {
  /** The value here is a map listed as entries. */
  entries: boolean;
  /** The value here is listed as JSON text (`any`: a value of any type; `object`: an open object). */
  json: 'any' | 'object' | undefined;
  readonly properties: Map<string, EntriesPlan>;
  items: EntriesPlan | undefined;
  values: EntriesPlan | undefined;
}

/** What a profile made of a schema: the schema to list, and where maps became entries (`undefined`: nowhere). */
export interface ProfiledSchema {
  readonly schema: JsonObject;
  readonly entries: EntriesPlan | undefined;
}

function emptyPlan(): EntriesPlan {
  return { entries: false, json: undefined, properties: new Map(), items: undefined, values: undefined };
}

function hasEntries(plan: EntriesPlan | undefined): boolean {
  if (plan === undefined) return false;
  if (plan.entries || plan.json !== undefined) return true;
  for (const child of plan.properties.values()) if (hasEntries(child)) return true;
  return hasEntries(plan.items) || hasEntries(plan.values);
}

/** Splits `null` off a schema: the schema without it, and whether it admitted `null`. */
function withoutNull(schema: JsonObject): { readonly base: JsonObject; readonly nullable: boolean } {
  if (Array.isArray(schema.type) && schema.type.includes('null')) {
    const rest = schema.type.filter((t) => t !== 'null');
    const base: JsonObject = { ...schema, type: rest.length === 1 ? rest[0]! : rest };
    if (Array.isArray(base.enum)) base.enum = base.enum.filter((v) => v !== null);
    return { base, nullable: true };
  }
  if (Array.isArray(schema.anyOf) && schema.anyOf.some((member) => isJsonObject(member) && member.type === 'null')) {
    const members = schema.anyOf.filter((member) => !(isJsonObject(member) && member.type === 'null'));
    const { anyOf: _anyOf, ...rest } = schema;
    const base: JsonObject =
      members.length === 1 && isJsonObject(members[0]) ? { ...rest, ...members[0] } : { ...rest, anyOf: members };
    return { base, nullable: true };
  }
  if (Array.isArray(schema.enum) && schema.enum.includes(null)) {
    return { base: { ...schema, enum: schema.enum.filter((v) => v !== null) }, nullable: true };
  }
  return { base: schema, nullable: false };
}

/**
 * Adds `null` to a schema in the profile's form: a type list where the profile takes one, else
 * `anyOf [X, {"type":"null"}]` with the title and description on the wrapper. Works on a copy.
 *
 * Not the generator's `admitNull` (src/compiler/schema/render.ts), on purpose: that one builds
 * the exact schema from a property's decorator rules (it knows a nested DTO from a union) and
 * writes the exact dialect in place; this one rewrites a finished listing, knowing only the
 * JSON, in the form one provider takes, and never touches the exact schema the server validates.
 */
function admitNull(schema: JsonObject, rules: ProfileRules): JsonObject {
  if (Array.isArray(schema.anyOf)) return { ...schema, anyOf: [...schema.anyOf, { type: 'null' }] };
  if (!rules.nullThroughAnyOf && typeof schema.type === 'string') {
    const result: JsonObject = { ...schema, type: [schema.type, 'null'] };
    if (Array.isArray(result.enum)) result.enum = [...result.enum, null];
    return result;
  }
  const { description, title, ...rest } = schema;
  const wrapped: JsonObject = {};
  if (title !== undefined) wrapped.title = title;
  if (description !== undefined) wrapped.description = description;
  wrapped.anyOf = [rest, { type: 'null' }];
  return wrapped;
}

/** Appends notes to a schema's description. */
function withNotes(schema: JsonObject, notes: readonly string[]): JsonObject {
  const kept = notes.filter((note) => note !== '');
  if (kept.length === 0) return schema;
  const text = kept.join('; ');
  const current = typeof schema.description === 'string' && schema.description !== '' ? schema.description : undefined;
  return {
    ...schema,
    description: current === undefined ? `${text.charAt(0).toUpperCase()}${text.slice(1)}.` : `${current} (${text})`,
  };
}

interface Context {
  readonly root: JsonObject;
  readonly rules: ProfileRules;
  readonly recursionDepth: number;
  /** How often each `$ref` is open on the current path. */
  readonly open: Map<string, number>;
}

/** The marker for "this branch is cut because recursion went too deep". */
const CUT = Symbol('cut');

/**
 * Rewrites one schema node for the profile. Returns `CUT` where a recursive `$ref` has been
 * unrolled `recursionDepth` times (the caller leaves the property out, or lists an empty object).
 */
function transform(schema: JsonObject, context: Context, plan: EntriesPlan): JsonObject | typeof CUT {
  const { rules } = context;
  if (typeof schema.$ref === 'string') {
    const ref = schema.$ref;
    const resolved = resolveLocalRef(schema, context.root);
    if (resolved.name === undefined) return schema;
    const target = resolved.schema;
    const count = context.open.get(ref) ?? 0;
    if (count >= context.recursionDepth) return CUT;
    context.open.set(ref, count + 1);
    try {
      const { $ref: _ref, ...siblings } = schema;
      const { $defs: _defs, $schema: _schema, ...body } = target;
      return transform({ ...body, ...siblings }, context, plan);
    } finally {
      context.open.set(ref, count);
    }
  }
  const { base, nullable } = withoutNull(schema);
  const untyped = rules.untypedAsJsonText ? untypedKind(base) : undefined;
  let result = untyped === undefined ? transformBase(base, context, plan) : jsonTextSchema(base, untyped, plan);
  if (result === CUT) return CUT;
  if (nullable) result = admitNull(result, rules);
  return result;
}

/** Keywords that say nothing of a value's type: a schema of only these accepts any JSON value. */
const ANNOTATION_KEYWORDS = new Set(['title', 'description', 'default', 'examples', 'deprecated', '$comment']);

/**
 * Whether a schema is one strict providers refuse for want of a type: `any` for a value of any
 * type (`{}`, annotations at most: `@Allow()` on a union), `object` for an open object
 * (`{"type":"object"}` with no properties and no typed values: `@IsObject()` on a `Record`).
 */
function untypedKind(schema: JsonObject): 'any' | 'object' | undefined {
  const keys = Object.keys(schema);
  if (keys.every((key) => ANNOTATION_KEYWORDS.has(key))) return 'any';
  if (
    schema.type === 'object' &&
    schema.properties === undefined &&
    schema.patternProperties === undefined &&
    (schema.additionalProperties === undefined || schema.additionalProperties === true) &&
    keys.every((key) => key === 'type' || key === 'additionalProperties' || ANNOTATION_KEYWORDS.has(key))
  )
    return 'object';
  return undefined;
}

/** The listing of an untyped value: a string of JSON text, which `entriesToMaps` decodes back. */
function jsonTextSchema(schema: JsonObject, kind: 'any' | 'object', plan: EntriesPlan): JsonObject {
  plan.json = kind;
  const listed: JsonObject = { type: 'string' };
  if (schema.title !== undefined) listed.title = schema.title;
  if (schema.description !== undefined) listed.description = schema.description;
  return withNotes(listed, [
    kind === 'any'
      ? 'any JSON value, written as JSON text (the server decodes it)'
      : 'a JSON object, written as JSON text (the server decodes it)',
  ]);
}

/** The listing without `additionalProperties: false` (or `true`) anywhere, for a profile that leaves it out. */
function withoutClosedObjects(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(withoutClosedObjects);
  if (!isJsonObject(schema)) return schema;
  const result: JsonObject = {};
  for (const key of Object.keys(schema)) {
    const value = schema[key] as Json;
    if (key === 'additionalProperties' && typeof value === 'boolean') continue;
    // `properties` maps names (never keywords) to schemas; `enum`, `const`, `default` and `examples` hold data.
    if (key === 'enum' || key === 'const' || key === 'default' || key === 'examples') setDataKey(result, key, value);
    else if (key === 'properties' && isJsonObject(value)) {
      const properties: JsonObject = {};
      for (const name of Object.keys(value)) setDataKey(properties, name, withoutClosedObjects(value[name] as Json));
      result.properties = properties;
    } else setDataKey(result, key, withoutClosedObjects(value));
  }
  return result;
}

function transformBase(schema: JsonObject, context: Context, plan: EntriesPlan): JsonObject | typeof CUT {
  const { rules } = context;
  const notes: string[] = [];
  const result: JsonObject = {};
  for (const key of Object.keys(schema)) {
    const value = schema[key] as Json;
    if (key === '$defs') continue;
    if (key === '$schema') continue;
    if (rules.moved.has(key)) {
      notes.push(describeMoved(key, value));
      continue;
    }
    if (key === 'format' && typeof value === 'string' && !rules.formats.has(value)) {
      notes.push(describeMoved('format', value));
      continue;
    }
    if (key === 'const' && rules.constAsEnum) {
      result.enum = [value];
      continue;
    }
    if (key === 'enum' && rules.stringEnumsOnly && Array.isArray(value) && !value.every((v) => typeof v === 'string')) {
      notes.push(describeMoved('enum', value));
      continue;
    }
    setDataKey(result, key, value);
  }
  if (isJsonObject(schema.additionalProperties)) {
    plan.entries = true;
    plan.values ??= emptyPlan();
    const valueSchema = transform(schema.additionalProperties, context, plan.values);
    const entry: JsonObject = {
      type: 'object',
      properties: {
        key: { type: 'string' },
        value: valueSchema === CUT ? { type: 'object', properties: {}, additionalProperties: false } : valueSchema,
      },
      required: ['key', 'value'],
      additionalProperties: false,
    };
    const listed: JsonObject = { type: 'array', items: entry };
    if (schema.title !== undefined) listed.title = schema.title;
    if (schema.description !== undefined) listed.description = schema.description;
    return withNotes(listed, ['a map, listed as an array of { key, value } entries', ...notes]);
  }
  if (isJsonObject(schema.properties)) {
    const properties: JsonObject = {};
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    const listedRequired: string[] = [];
    for (const name of Object.keys(schema.properties)) {
      const child = schema.properties[name];
      if (!isJsonObject(child)) continue;
      const childPlan = plan.properties.get(name) ?? emptyPlan();
      plan.properties.set(name, childPlan);
      let listed = transform(child, context, childPlan);
      if (listed === CUT) {
        if (!required.has(name)) continue;
        listed = {
          type: 'object',
          properties: {},
          additionalProperties: false,
          description: 'Nested too deep to be listed.',
        };
      }
      if (rules.allRequired && !required.has(name) && !withoutNull(listed).nullable) listed = admitNull(listed, rules);
      setDataKey(properties, name, listed);
      if (rules.allRequired || required.has(name)) listedRequired.push(name);
    }
    result.properties = properties;
    if (listedRequired.length > 0) result.required = listedRequired;
    else delete result.required;
  }
  if (isJsonObject(schema.items)) {
    plan.items ??= emptyPlan();
    const items = transform(schema.items, context, plan.items);
    // An array of a class nested too deep is left out as a whole (or, when required, listed empty).
    if (items === CUT) return CUT;
    result.items = items;
  }
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    if (!Array.isArray(result[key])) continue;
    const members: Json[] = [];
    for (const member of result[key] as Json[]) {
      if (!isJsonObject(member)) continue;
      const listed = transform(member, context, plan);
      if (listed !== CUT) members.push(listed);
    }
    result[key] = members;
  }
  return withNotes(result, notes);
}

/**
 * Makes the listed form of `schema` under a profile's rules. The exact schema is never changed:
 * the server keeps validating with it. What the profile cannot list moves into the description
 * (`at most 80 characters`, `format uri`, `default: 20`); optional properties become required
 * and nullable where the profile wants every property required (the server reads `null` as left
 * out); `$ref`s are inlined, a recursive class unrolled to `recursionDepth` levels (deeper
 * levels are left out of the listing); a map becomes an array of `{ key, value }` entries, and
 * `entries` says where, so the server can turn them back (see `entriesToMaps`).
 */
export function profileSchema(schema: JsonObject, rules: ProfileRules, recursionDepth: number): ProfiledSchema {
  const plan = emptyPlan();
  // The root is never listed as JSON text: it stays the arguments object.
  const rootRules = untypedKind(schema) === undefined ? rules : { ...rules, untypedAsJsonText: false };
  const listed = transform(schema, { root: schema, rules: rootRules, recursionDepth, open: new Map([['#', 1]]) }, plan);
  let result: JsonObject = listed === CUT ? { type: 'object', properties: {}, additionalProperties: false } : listed;
  if (rules.dropAdditionalProperties) result = withoutClosedObjects(result) as JsonObject;
  return { schema: result, entries: hasEntries(plan) ? plan : undefined };
}

/** The value JSON text stands for; the text itself when it is not JSON (for the exact schema to judge). */
function decodedJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * Turns the `{ key, value }` entries a profile listed a map as back into the JSON object the
 * exact schema expects, wherever `plan` says a map is, and JSON text a profile listed an untyped
 * value as back into the value (a string that is not JSON text is left as it is). Never changes `value`: it copies what
 * it changes. Anything not shaped as entries is left as it is, for the exact schema to refuse
 * with its own message. Walks at most as deep as the plan.
 */
export function entriesToMaps(value: unknown, plan: EntriesPlan): unknown {
  if (plan.json !== undefined) return typeof value === 'string' ? decodedJson(value) : value;
  let current = value;
  if (
    plan.entries &&
    Array.isArray(current) &&
    current.every((item) => isJsonObject(item) && typeof item.key === 'string' && 'value' in item)
  ) {
    const object: Record<string, unknown> = {};
    for (const item of current as { key: string; value: unknown }[]) setDataKey(object, item.key, item.value);
    current = object;
  }
  if (Array.isArray(current)) {
    if (plan.items === undefined) return current;
    const items = plan.items;
    return current.map((item) => entriesToMaps(item, items));
  }
  if (!isJsonObject(current)) return current;
  let copy: Record<string, unknown> | undefined;
  const source = current as Record<string, unknown>;
  const set = (key: string, next: unknown): void => {
    if (next === source[key]) return;
    if (copy === undefined) {
      copy = {};
      for (const name of Object.keys(source)) setDataKey(copy, name, source[name]);
    }
    setDataKey(copy, key, next);
  };
  if (plan.values !== undefined) {
    for (const key of Object.keys(source)) set(key, entriesToMaps(source[key], plan.values));
  } else {
    for (const [name, child] of plan.properties)
      if (Object.prototype.hasOwnProperty.call(source, name)) set(name, entriesToMaps(source[name], child));
  }
  return copy ?? current;
}

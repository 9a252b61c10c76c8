import { isJsonObject, type Json, type JsonObject } from '../../contract/index.js';
import type { ClassModel } from './class-model.js';
import { setDataKey } from './json-values.js';
import type { PropertyModel } from './property-model.js';
import { isOnly, typeKeyword, unionTypes, typeSet } from './type-set.js';
import type { BoundKeyword, ValueRules, Variants } from './value-rules.js';

/** How a nested DTO class appears where it is used: its schema inline, or a `$ref`. */
export type ClassReference = (cls: Function) => JsonObject;

const BOUND_ORDER: readonly BoundKeyword[] = ['minimum', 'exclusiveMinimum', 'maximum', 'exclusiveMaximum', 'minLength', 'maxLength', 'minItems', 'maxItems'];

/**
 * The JSON Schema of one value's rules. Keywords come in a fixed order (type, enum, const,
 * not, format, pattern, bounds, items, uniqueItems) so equal rules give equal text. A second
 * `@Matches` or format goes into `allOf`, since a schema holds one of each keyword.
 */
export function renderRules(rules: ValueRules, reference: ClassReference, options: { readonly nullable?: boolean } = {}): JsonObject {
  const schema: JsonObject =
    rules.nested !== undefined ? { ...reference(rules.nested) }
    : rules.variants !== undefined ? { anyOf: renderVariants(rules.variants, reference) }
    : rules.unionMembers !== undefined ? { anyOf: rules.unionMembers.map((member) => renderRules(member, reference)) }
    : {};
  const stringOnly = isOnly(rules.types, 'string');
  if (rules.nested === undefined && rules.variants === undefined && rules.unionMembers === undefined && rules.types !== undefined) {
    if (rules.types.size === 0) schema.not = {};
    else schema.type = typeKeyword(rules.types);
  }
  // An empty list admits nothing, like class-validator; JSON Schema says so with `not: {}`.
  if (rules.enumValues !== undefined && rules.enumValues.length === 0) schema.not = {};
  else if (rules.enumValues !== undefined) schema.enum = [...rules.enumValues];
  if (rules.constValue !== undefined) schema.const = rules.constValue.value;
  const forbidden = [...rules.notValues];
  if (rules.notEmpty && !stringOnly && rules.nested === undefined && !forbidden.includes('')) forbidden.push('');
  const excluded = options.nullable ? forbidden.filter((value) => value !== null) : forbidden;
  if (schema.not !== undefined) {
    // Nothing passes already.
  } else if (excluded.length === 1) schema.not = { const: excluded[0]! };
  else if (excluded.length > 1) schema.not = { enum: excluded };
  if (rules.formats.length > 0) schema.format = rules.formats[0]!;
  if (rules.patterns.length > 0) schema.pattern = rules.patterns[0]!;
  for (const keyword of BOUND_ORDER) {
    const value = rules.bounds.get(keyword);
    if (value !== undefined) schema[keyword] = value;
  }
  if (rules.notEmpty && stringOnly) schema.minLength = Math.max(rules.bounds.get('minLength') ?? 0, 1);
  if (rules.items !== undefined) schema.items = renderRules(rules.items, reference);
  if (rules.uniqueItems) schema.uniqueItems = true;
  if (rules.mapValues !== undefined) schema.additionalProperties = renderRules(rules.mapValues, reference);
  const extra: JsonObject[] = [
    ...rules.formats.slice(1).map((format) => ({ format })),
    ...rules.patterns.slice(1).map((pattern) => ({ pattern })),
  ];
  if (extra.length > 0) schema.allOf = extra;
  return schema;
}

/**
 * One schema per subtype of a discriminated `@Type`: the subtype's object schema whose
 * discriminator property must be the subtype's name (`{"type":"string","const":"circle"}`,
 * added to `properties` and `required`). A subtype in `$defs` keeps its `$ref` with the
 * discriminator next to it, which holds only when the class itself declares that property.
 */
function renderVariants(variants: Variants, reference: ClassReference): JsonObject[] {
  return variants.cases.map(({ name, cls }): JsonObject => {
    const base = reference(cls);
    const discriminator: JsonObject = { type: 'string', const: name };
    if (typeof base.$ref === 'string') {
      const properties: JsonObject = {};
      setDataKey(properties, variants.property, discriminator);
      return { $ref: base.$ref, properties, required: [variants.property] };
    }
    const properties: JsonObject = { ...(base.properties as JsonObject) };
    const existing = properties[variants.property];
    setDataKey(properties, variants.property, isJsonObject(existing) ? { ...existing, const: name } : discriminator);
    const required = Array.isArray(base.required) ? [...base.required] : [];
    if (!required.includes(variants.property)) required.push(variants.property);
    return { ...base, properties, required };
  });
}

/**
 * Makes a property's schema admit `null` as well (a property that is not required): `null`
 * joins `type` and `enum`, a `const` becomes an `enum` of it and `null`, an inline nested DTO
 * becomes `"type": ["object", "null"]` (its keywords apply to objects only, and client
 * libraries keep a type list where they simplify an `anyOf` with `null` away), a `$ref` is
 * wrapped in `anyOf` with `{"type":"null"}`, and a union gets a `{"type":"null"}` member.
 * A schema without a type already admits `null`.
 */
export function admitNull(schema: JsonObject, rules: ValueRules): JsonObject {
  if (rules.nested !== undefined) return schema.type === 'object' ? { ...schema, type: ['object', 'null'] } : { anyOf: [schema, { type: 'null' }] };
  if (rules.variants !== undefined || rules.unionMembers !== undefined) return { ...schema, anyOf: [...(schema.anyOf as Json[]), { type: 'null' }] };
  const result: JsonObject = { ...schema };
  if (rules.types !== undefined && rules.types.size > 0) result.type = typeKeyword(unionTypes(rules.types, typeSet('null')));
  if (Array.isArray(result.enum) && !result.enum.includes(null)) result.enum = [...result.enum, null];
  if ('const' in result) {
    result.enum = result.const === null ? [null] : [result.const as Json, null];
    delete result.const;
  }
  return result;
}

/** The schema of one property: annotations around the value's schema. */
export function renderProperty(property: PropertyModel, reference: ClassReference): JsonObject {
  // One rule for every optional property (`@IsOptional()`, a default or an initialiser): left
  // out of `required`, and `null` admitted as "left out" (the pipeline drops it).
  const nullable = !property.required;
  const value = renderRules(property.rules, reference, { nullable });
  const body = nullable ? admitNull(value, property.rules) : value;
  const schema: JsonObject = {};
  if (property.title !== undefined) schema.title = property.title;
  if (property.description !== undefined) schema.description = property.description;
  Object.assign(schema, body);
  if (property.defaultValue !== undefined) schema.default = property.defaultValue;
  if (property.examples !== undefined) schema.examples = property.examples;
  if (property.deprecated !== undefined) schema.deprecated = property.deprecated;
  return schema;
}

/**
 * The object schema of a class: `type`, `properties`, `required` (left out when empty) and
 * `additionalProperties: false`.
 */
export function renderClass(model: ClassModel, reference: ClassReference): JsonObject {
  const properties: JsonObject = {};
  const required: string[] = [];
  for (const property of model.properties) {
    setDataKey(properties, property.name, renderProperty(property, reference));
    if (property.required) required.push(property.name);
  }
  const schema: JsonObject = { type: 'object', properties };
  if (required.length > 0) schema.required = required;
  schema.additionalProperties = false;
  return schema;
}

import { isJsonObject, type Json, type JsonObject } from '../../contract/index.js';
import type { ClassModel } from './class-model.js';
import { setDataKey } from './json-values.js';
import type { PropertyModel } from './property-model.js';
import { isOnly, nullableTypeKeyword, typeKeyword } from './type-set.js';
import type { BoundKeyword, ValueRules, Variants } from './value-rules.js';

/** How a nested DTO class appears where it is used: its schema inline, or a `$ref`. */
export type ClassReference = (cls: Function) => JsonObject;

const BOUND_ORDER: readonly BoundKeyword[] = [
  'minimum',
  'exclusiveMinimum',
  'maximum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
];

/**
 * The JSON Schema of one value's rules. Keywords come in a fixed order (type, enum, const,
 * not, format, pattern, bounds, items, uniqueItems) so equal rules give equal text. A second
 * `@Matches` or format goes into `allOf`, since a schema holds one of each keyword. With
 * `nullable`, a forbidden `null` is left out of `not` (the caller admits `null` after, see
 * `admitNull`). The keywords are added to `schema` (a fresh object by default), which is
 * answered.
 */
export function renderRules(
  rules: ValueRules,
  reference: ClassReference,
  nullable = false,
  schema: JsonObject = {},
): JsonObject {
  // Whether `not` is set, known here rather than read back from `schema`, whose shape varies
  // (a nested class's schema, the only keywords `schema` may hold already, has no `not`).
  let nothingPasses = false;
  if (rules.nested !== undefined) Object.assign(schema, reference(rules.nested));
  else if (rules.variants !== undefined) schema.anyOf = renderVariants(rules.variants, reference);
  else if (rules.unionMembers !== undefined)
    schema.anyOf = rules.unionMembers.map((member) => renderRules(member, reference));
  else if (rules.types !== undefined) {
    if (rules.types.size === 0) {
      schema.not = {};
      nothingPasses = true;
    } else schema.type = typeKeyword(rules.types);
  }
  const stringOnly = isOnly(rules.types, 'string');
  // An empty list admits nothing, like class-validator; JSON Schema says so with `not: {}`.
  if (rules.enumValues !== undefined && rules.enumValues.length === 0) {
    schema.not = {};
    nothingPasses = true;
  } else if (rules.enumValues !== undefined) schema.enum = [...rules.enumValues];
  if (rules.constValue !== undefined) schema.const = rules.constValue.value;
  if (!nothingPasses && (rules.notValues.length > 0 || rules.notEmpty)) {
    // Nothing passes already when `not` is set.
    const forbidden = [...rules.notValues];
    if (rules.notEmpty && !stringOnly && rules.nested === undefined && !forbidden.includes('')) forbidden.push('');
    const excluded = nullable ? forbidden.filter((value) => value !== null) : forbidden;
    if (excluded.length === 1) schema.not = { const: excluded[0]! };
    else if (excluded.length > 1) schema.not = { enum: excluded };
  }
  if (rules.formats.length > 0) schema.format = rules.formats[0]!;
  if (rules.patterns.length > 0) schema.pattern = rules.patterns[0]!;
  if (rules.hasBounds()) {
    for (let index = 0; index < BOUND_ORDER.length; index++) {
      const keyword = BOUND_ORDER[index]!;
      const value = rules.bounds[keyword];
      if (value !== undefined) schema[keyword] = value;
    }
  }
  if (rules.notEmpty && stringOnly) schema.minLength = Math.max(rules.bounds.minLength ?? 0, 1);
  if (rules.items !== undefined) schema.items = renderRules(rules.items, reference);
  if (rules.uniqueItems) schema.uniqueItems = true;
  if (rules.mapValues !== undefined) schema.additionalProperties = renderRules(rules.mapValues, reference);
  if (rules.formats.length > 1 || rules.patterns.length > 1) {
    schema.allOf = [
      ...rules.formats.slice(1).map((format) => ({ format })),
      ...rules.patterns.slice(1).map((pattern) => ({ pattern })),
    ];
  }
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
 * A schema without a type already admits `null`. A nested DTO's schema is answered anew (it
 * may be wrapped whole); any other is changed in place, keys keeping their places, and answered.
 *
 * Not the profiles' `admitNull` (src/compiler/profile/profile-schema.ts), on purpose: this one
 * builds the exact schema the server validates with, from the property's `ValueRules` (it knows a
 * nested DTO from a union from a scalar, and writes the exact dialect: type lists, `enum` with
 * `null`); that one rewrites a finished listing for a provider, knowing only the JSON, in the
 * form the provider takes (`anyOf` with `{"type":"null"}` where type lists are refused, the
 * title and description kept on the wrapper), and never changes the exact schema.
 */
function admitNull(schema: JsonObject, rules: ValueRules): JsonObject {
  if (rules.nested !== undefined)
    return schema.type === 'object' ? { ...schema, type: ['object', 'null'] } : { anyOf: [schema, { type: 'null' }] };
  if (rules.variants !== undefined || rules.unionMembers !== undefined) {
    schema.anyOf = [...(schema.anyOf as Json[]), { type: 'null' }];
    return schema;
  }
  if (rules.types !== undefined && rules.types.size > 0) schema.type = nullableTypeKeyword(rules.types);
  // `renderRules` wrote `enum` for a non-empty list of allowed values and `const` for one value.
  const allowed = rules.enumValues;
  if (allowed !== undefined && allowed.length > 0 && !allowed.includes(null))
    schema.enum = [...(schema.enum as Json[]), null];
  if (rules.constValue !== undefined) {
    const value = rules.constValue.value;
    schema.enum = value === null ? [null] : [value, null];
    delete schema.const;
  }
  return schema;
}

/**
 * The schema of one property: annotations (title, description) first, then the value's
 * schema, then `default`, `examples` and `deprecated`.
 */
export function renderProperty(property: PropertyModel, reference: ClassReference): JsonObject {
  // One rule for every optional property (`@IsOptional()`, a default or an initialiser): left
  // out of `required`, and `null` admitted as "left out" (the pipeline drops it).
  const nullable = !property.required;
  const rules = property.rules;
  const schema: JsonObject = {};
  if (property.title !== undefined) schema.title = property.title;
  if (property.description !== undefined) schema.description = property.description;
  if (rules.nested === undefined) {
    // The value's keywords go straight after the annotations; `null` is admitted in place.
    renderRules(rules, reference, nullable, schema);
    if (nullable) admitNull(schema, rules);
  } else {
    // A nested DTO may be wrapped whole (`anyOf` with `null`): rendered on its own first.
    const value = renderRules(rules, reference, nullable);
    Object.assign(schema, nullable ? admitNull(value, rules) : value);
  }
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
  const listed = model.properties;
  for (let index = 0; index < listed.length; index++) {
    const property = listed[index]!;
    setDataKey(properties, property.name, renderProperty(property, reference));
    if (property.required) required.push(property.name);
  }
  const schema: JsonObject = { type: 'object', properties };
  if (required.length > 0) schema.required = required;
  schema.additionalProperties = false;
  return schema;
}

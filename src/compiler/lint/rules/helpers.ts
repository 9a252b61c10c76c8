import { isJsonObject, type JsonObject } from '../../../contract/index.js';
import type { RuleViolation } from '../types.js';

/** The keywords of `schema` that are in `keywords`, as violations at `/<keyword>`. */
export function keywordsPresent(
  schema: JsonObject,
  keywords: readonly string[],
  message: (keyword: string) => string,
  fix: (keyword: string) => string,
): RuleViolation[] {
  const found: RuleViolation[] = [];
  for (const keyword of keywords) {
    if (Object.prototype.hasOwnProperty.call(schema, keyword))
      found.push({ message: message(keyword), fix: fix(keyword), at: `/${keyword}` });
  }
  return found;
}

/** The property names of an object schema. */
export function propertyNames(schema: JsonObject): string[] {
  return isJsonObject(schema.properties) ? Object.keys(schema.properties) : [];
}

/** The `required` list of an object schema. */
export function requiredNames(schema: JsonObject): string[] {
  return Array.isArray(schema.required)
    ? schema.required.filter((name): name is string => typeof name === 'string')
    : [];
}

/** The fix every "move it to the description" finding offers. */
export const PORTABLE_FIX =
  "compile or serve with schemaProfile: 'portable' (or --profile portable): the listing moves it into the description and the server still enforces it";

/** Keywords that say nothing of a value's type: a schema of only these accepts any JSON value. */
const ANNOTATIONS = new Set(['title', 'description', 'default', 'examples', 'deprecated', '$comment']);

/** Whether `schema` is a value of any type (`{}`, annotations at most), as `@Allow()` on a union lists. */
export function isUntyped(schema: JsonObject): boolean {
  return Object.keys(schema).every((key) => ANNOTATIONS.has(key));
}

/**
 * Whether `schema` is an open object: `{"type":"object"}` with no properties and no typed values
 * (any keys, any values), as `@IsObject()` on a `Record` lists.
 */
export function isOpenObject(schema: JsonObject): boolean {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return (
    types.includes('object') &&
    schema.properties === undefined &&
    schema.patternProperties === undefined &&
    (schema.additionalProperties === undefined || schema.additionalProperties === true)
  );
}

/** The fix of a value strict mode cannot type: what an author writes instead. */
export const UNTYPED_FIX =
  "give the field a type: @UnionOf([String, Number]) for a union (or the one decorator of its type, such as @IsString()); or compile or serve with schemaProfile: 'portable', which lists it as JSON text the server decodes";

/** The fix of an open object: type its values. */
export const OPEN_OBJECT_FIX =
  "type its values: @MapOf(String) for a map of strings (or a DTO class with @ValidateNested() and @Type(() => Dto)); or compile or serve with schemaProfile: 'portable', which lists it as JSON text the server decodes";

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

import { isJsonObject } from '../../contract/index.js';

/**
 * The keywords whose value is a subschema (or a boolean schema), walked by `isPlainSchema`.
 */
const SUBSCHEMA_KEYWORDS: ReadonlySet<string> = new Set([
  'items',
  'additionalProperties',
  'not',
  'contains',
  'propertyNames',
]);
/** The keywords whose value is an array of subschemas. */
const SUBSCHEMA_LIST_KEYWORDS: ReadonlySet<string> = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
/** The keywords whose value is an object of subschemas (`patternProperties`' keys are checked as patterns too). */
const SUBSCHEMA_MAP_KEYWORDS: ReadonlySet<string> = new Set(['properties', 'patternProperties']);
/** The JSON types a `type` keyword may name. */
const JSON_TYPES: ReadonlySet<string> = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

const isNonNegativeInteger = (value: unknown): boolean => Number.isInteger(value) && (value as number) >= 0;
const isString = (value: unknown): boolean => typeof value === 'string';
const isBoolean = (value: unknown): boolean => typeof value === 'boolean';
const isNumber = (value: unknown): boolean => Number.isFinite(value);
const isUniqueStrings = (value: unknown): boolean =>
  Array.isArray(value) && value.every(isString) && hasNoRepeats(value);

const isJsonType = (value: unknown): boolean => JSON_TYPES.has(value as string);

/** Whether `value` is a non-empty list of JSON type names, each once (holes skipped, as `every` skips them). */
function isTypeList(value: unknown): boolean {
  return Array.isArray(value) && value.length > 0 && value.every(isJsonType) && hasNoRepeats(value);
}

/** Whether no two items of `list` are the same (as a `Set` tells them apart); short lists without a `Set`. */
function hasNoRepeats(list: readonly unknown[]): boolean {
  if (list.length > 16) return new Set(list).size === list.length;
  for (let index = 1; index < list.length; index++)
    for (let before = 0; before < index; before++) if (list[index] === list[before]) return false;
  return true;
}
// `Number.isInteger` and `Number.isFinite` are false for anything but a number (they never convert).
const isAnything = (): boolean => true;

/**
 * Keywords that ajv compiles without a check of its own beyond the meta-schema's, each with a
 * check of its value at least as strict as the 2020-12 meta-schema's (so a value the meta-schema
 * refuses is never vouched for). Annotations are here too.
 */
const SIMPLE_KEYWORDS: ReadonlyMap<string, (value: unknown) => boolean> = new Map([
  ['type', (value: unknown) => JSON_TYPES.has(value as string) || isTypeList(value)],
  ['required', isUniqueStrings],
  ['const', isAnything],
  ['default', isAnything],
  ['examples', (value: unknown) => Array.isArray(value)],
  ...[
    'minLength',
    'maxLength',
    'minItems',
    'maxItems',
    'minContains',
    'maxContains',
    'minProperties',
    'maxProperties',
  ].map((keyword) => [keyword, isNonNegativeInteger] as const),
  ...['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'].map((keyword) => [keyword, isNumber] as const),
  ['multipleOf', (value: unknown) => isNumber(value) && (value as number) > 0],
  ...['uniqueItems', 'deprecated', 'readOnly', 'writeOnly'].map((keyword) => [keyword, isBoolean] as const),
  ...['title', 'description', '$comment', 'contentEncoding', 'contentMediaType'].map(
    (keyword) => [keyword, isString] as const,
  ),
  ['dependentRequired', (value: unknown) => isJsonObject(value) && Object.values(value).every(isUniqueStrings)],
]);

/**
 * The formats toolwright's default validator knows: those ajv-formats adds in its default
 * (full) mode. A test pins this list against the validator's own.
 */
export const DEFAULT_FORMATS: ReadonlySet<string> = new Set([
  'date',
  'time',
  'date-time',
  'iso-time',
  'iso-date-time',
  'duration',
  'uri',
  'uri-reference',
  'uri-template',
  'url',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'regex',
  'uuid',
  'json-pointer',
  'json-pointer-uri-fragment',
  'relative-json-pointer',
  'byte',
  'int32',
  'int64',
  'float',
  'double',
  'password',
  'binary',
]);

/**
 * Whether `schema` is valid JSON Schema 2020-12 that toolwright's default validator (ajv 2020-12,
 * `strict: false`, the formats of ajv-formats) compiles without fail, decided without ajv: every
 * keyword at every level is a plain validation keyword or annotation with a value the meta-schema
 * accepts (see above), or a subschema keyword whose subschemas (non-empty lists of them for
 * `anyOf`, `oneOf`, `allOf`, `prefixItems`) are plain too; every `enum` lists at least one value,
 * every `pattern` and `patternProperties` key is a regular expression with the `u` flag (as ajv
 * builds it), and every `format` is one of `knownFormats`. A schema with anything else (`$ref`,
 * `$id`, `$defs`, `$schema`, `$anchor`, `$dynamicRef`, `if`, `unevaluatedProperties`, `nullable`,
 * `discriminator`, a keyword of another vocabulary or of no vocabulary) is not plain: its compile
 * can fail (or warn) in ways only ajv knows, so it must be compiled at once. It never throws and
 * never changes the schema; a walk deeper than `maxDepth` levels answers `false`.
 */
export function isPlainSchema(
  schema: unknown,
  knownFormats: (name: string) => boolean = (name) => DEFAULT_FORMATS.has(name),
  maxDepth = 64,
): boolean {
  if (typeof schema === 'boolean') return true;
  if (!isJsonObject(schema) || maxDepth <= 0) return false;
  const keywords = Object.keys(schema);
  for (let index = 0; index < keywords.length; index++) {
    const keyword = keywords[index]!;
    const value = schema[keyword];
    const simple = SIMPLE_KEYWORDS.get(keyword);
    if (simple !== undefined) {
      if (!simple(value)) return false;
    } else if (keyword === 'enum') {
      if (!Array.isArray(value) || value.length === 0) return false;
    } else if (keyword === 'pattern') {
      if (typeof value !== 'string' || !isUnicodePattern(value)) return false;
    } else if (keyword === 'format') {
      if (typeof value !== 'string' || !knownFormats(value)) return false;
    } else if (SUBSCHEMA_KEYWORDS.has(keyword)) {
      if (!isPlainSchema(value, knownFormats, maxDepth - 1)) return false;
    } else if (SUBSCHEMA_LIST_KEYWORDS.has(keyword)) {
      if (
        !Array.isArray(value) ||
        value.length === 0 ||
        !value.every((each) => isPlainSchema(each, knownFormats, maxDepth - 1))
      )
        return false;
    } else if (SUBSCHEMA_MAP_KEYWORDS.has(keyword)) {
      if (!isJsonObject(value)) return false;
      const names = Object.keys(value);
      for (let at = 0; at < names.length; at++) {
        if (keyword === 'patternProperties' && !isUnicodePattern(names[at]!)) return false;
        if (!isPlainSchema(value[names[at]!], knownFormats, maxDepth - 1)) return false;
      }
    } else {
      return false;
    }
  }
  return true;
}

function isUnicodePattern(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}

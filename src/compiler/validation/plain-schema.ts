import { isJsonObject } from '../../contract/index.js';

/**
 * The keywords whose value is a subschema (or a boolean schema), walked by `isPlainSchema`.
 */
const SUBSCHEMA_KEYWORDS: ReadonlySet<string> = new Set(['items', 'additionalProperties', 'not', 'contains', 'propertyNames']);
/** The keywords whose value is an array of subschemas. */
const SUBSCHEMA_LIST_KEYWORDS: ReadonlySet<string> = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
/** The keywords whose value is an object of subschemas (`patternProperties`' keys are checked as patterns too). */
const SUBSCHEMA_MAP_KEYWORDS: ReadonlySet<string> = new Set(['properties', 'patternProperties']);
/**
 * Keywords that ajv compiles without a check of its own beyond the meta-schema's: once the
 * meta-schema accepted their value, compiling them cannot fail. Annotations are here too.
 */
const SIMPLE_KEYWORDS: ReadonlySet<string> = new Set([
  'type', 'required', 'const', 'minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf',
  'minItems', 'maxItems', 'uniqueItems', 'minContains', 'maxContains', 'minProperties', 'maxProperties', 'dependentRequired',
  'title', 'description', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly', '$comment', 'contentEncoding', 'contentMediaType',
]);

/**
 * Whether compiling `schema` with toolwright's default validator (ajv 2020-12, `strict: false`,
 * the formats of ajv-formats) cannot fail once ajv's meta-schema accepted it: every keyword at
 * every level is a plain validation keyword or annotation (see above) or a subschema keyword
 * whose subschemas are plain too, every `enum` lists at least one value, every `pattern` and
 * `patternProperties` key is a regular expression with the `u` flag (as ajv builds it), and every
 * `format` is one of `knownFormats`. A schema with anything else (`$ref`, `$id`, `$defs`,
 * `$schema`, `$anchor`, `$dynamicRef`, `if`, `unevaluatedProperties`, `nullable`, `discriminator`, a keyword of another
 * vocabulary or of no vocabulary) is not plain: its compile can fail (or warn) in ways only ajv
 * knows, so it must be compiled at once. It never throws and never changes the schema; a walk
 * deeper than `maxDepth` levels answers `false`.
 */
export function isPlainSchema(schema: unknown, knownFormats: (name: string) => boolean, maxDepth = 64): boolean {
  if (typeof schema === 'boolean') return true;
  if (!isJsonObject(schema) || maxDepth <= 0) return false;
  for (const [keyword, value] of Object.entries(schema)) {
    if (SIMPLE_KEYWORDS.has(keyword)) continue;
    if (keyword === 'enum') {
      if (!Array.isArray(value) || value.length === 0) return false;
    } else if (keyword === 'pattern') {
      if (typeof value !== 'string' || !isUnicodePattern(value)) return false;
    } else if (keyword === 'format') {
      if (typeof value !== 'string' || !knownFormats(value)) return false;
    } else if (SUBSCHEMA_KEYWORDS.has(keyword)) {
      if (!isPlainSchema(value, knownFormats, maxDepth - 1)) return false;
    } else if (SUBSCHEMA_LIST_KEYWORDS.has(keyword)) {
      if (!Array.isArray(value) || !value.every((each) => isPlainSchema(each, knownFormats, maxDepth - 1))) return false;
    } else if (SUBSCHEMA_MAP_KEYWORDS.has(keyword)) {
      if (!isJsonObject(value)) return false;
      for (const [name, each] of Object.entries(value)) {
        if (keyword === 'patternProperties' && !isUnicodePattern(name)) return false;
        if (!isPlainSchema(each, knownFormats, maxDepth - 1)) return false;
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

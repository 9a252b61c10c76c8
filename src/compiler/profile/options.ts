import { kindOf } from '../../util/describe.js';
import { invalidOption } from '../../util/options.js';

/**
 * The schema profiles a listing can use. `exact` (the default) lists the schema the server
 * validates with. `portable` lists a schema the strict providers' documented rules accept (OpenAI
 * strict, Anthropic standard and strict, MCP) and Gemini through a client that strips
 * `additionalProperties` (as the AI SDK's Gemini provider does); a host that hands schemas to
 * Gemini as they are takes `gemini`, which leaves `additionalProperties` out (no one listing
 * satisfies OpenAI strict, which requires it, and raw Gemini, which refuses it). The provider
 * profiles change only what that provider needs. Whatever a profile leaves out of the listing
 * moves into the description, and the server still validates every call against the exact schema.
 */
export type SchemaProfile = 'exact' | 'portable' | 'openai-strict' | 'gemini' | 'anthropic-strict';

/** Every schema profile, in the order help texts list them. */
export const SCHEMA_PROFILES: readonly SchemaProfile[] = [
  'exact',
  'portable',
  'openai-strict',
  'gemini',
  'anthropic-strict',
];

/** How deep a recursive class is listed when a profile must unroll it (`$ref` not allowed, or recursion refused). */
export const DEFAULT_RECURSION_DEPTH = 3;

/**
 * What one profile does to a schema, beyond what every profile does: every profile inlines
 * `$ref`s (unrolling recursion to `recursionDepth` levels; OpenAI strict takes `$ref`, but then a
 * map inside a recursive class could not be found to be turned back) and lists a map as an array
 * of `{ key, value }` entries (the server turns it back).
 */
export interface ProfileRules {
  /** Every property in `required`; the ones that were optional admit `null` instead. */
  readonly allRequired: boolean;
  /** `null` through `anyOf [X, {"type":"null"}]` instead of a type list. */
  readonly nullThroughAnyOf: boolean;
  /** `const` becomes a one-value `enum`. */
  readonly constAsEnum: boolean;
  /** An `enum` that is not all strings moves into the description. */
  readonly stringEnumsOnly: boolean;
  /** Keywords that move into the description. */
  readonly moved: ReadonlySet<string>;
  /** The formats that stay (others move into the description). */
  readonly formats: ReadonlySet<string>;
  /**
   * A value of any type (`{}`) and an open object (`{"type":"object"}` with no properties) are
   * listed as a string of JSON text, which the server decodes back before validating (strict
   * providers refuse both untyped forms).
   */
  readonly untypedAsJsonText: boolean;
  /** `additionalProperties: false` is left out of the listing (raw Gemini refuses the keyword). */
  readonly dropAdditionalProperties: boolean;
}

const BOUNDS = [
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'uniqueItems',
];
const ANNOTATIONS = ['default', 'examples', 'deprecated'];
const LOGIC = ['not', 'allOf', 'oneOf', 'pattern'];

/** The rules of each profile. */
export function profileRules(profile: Exclude<SchemaProfile, 'exact'>): ProfileRules {
  switch (profile) {
    case 'portable':
      return {
        allRequired: true,
        nullThroughAnyOf: true,
        constAsEnum: true,
        stringEnumsOnly: true,
        moved: new Set([...BOUNDS, ...ANNOTATIONS, ...LOGIC]),
        formats: new Set(['date-time']),
        untypedAsJsonText: true,
        dropAdditionalProperties: false,
      };
    case 'openai-strict':
      return {
        allRequired: true,
        nullThroughAnyOf: false,
        constAsEnum: false,
        stringEnumsOnly: false,
        moved: new Set(['default', 'minLength', 'maxLength', 'uniqueItems', 'not', 'allOf', 'oneOf']),
        formats: new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']),
        untypedAsJsonText: true,
        dropAdditionalProperties: false,
      };
    case 'gemini':
      return {
        allRequired: false,
        nullThroughAnyOf: true,
        constAsEnum: true,
        stringEnumsOnly: true,
        moved: new Set([
          'exclusiveMinimum',
          'exclusiveMaximum',
          'multipleOf',
          'uniqueItems',
          'examples',
          'deprecated',
          'not',
          'allOf',
          'oneOf',
        ]),
        formats: new Set(['date-time']),
        untypedAsJsonText: false,
        dropAdditionalProperties: true,
      };
    case 'anthropic-strict':
      return {
        allRequired: false,
        nullThroughAnyOf: true,
        constAsEnum: false,
        stringEnumsOnly: false,
        moved: new Set(BOUNDS),
        formats: new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'uri', 'ipv4', 'ipv6', 'uuid']),
        untypedAsJsonText: true,
        dropAdditionalProperties: false,
      };
  }
}

/** Throws a `TypeError` naming the option when `profile` is not a known profile. */
export function checkProfile(where: string, profile: unknown): SchemaProfile {
  if (typeof profile === 'string' && (SCHEMA_PROFILES as readonly string[]).includes(profile))
    return profile as SchemaProfile;
  throw new TypeError(
    `${where}: "schemaProfile" must be one of ${SCHEMA_PROFILES.join(', ')}, got ${typeof profile === 'string' ? JSON.stringify(profile) : kindOf(profile)}`,
  );
}

/** Throws a `TypeError` unless `depth` is a whole number from 1 to 16. */
export function checkRecursionDepth(where: string, depth: unknown): number {
  if (typeof depth === 'number' && Number.isInteger(depth) && depth >= 1 && depth <= 16) return depth;
  throw invalidOption(where, 'recursionDepth', 'a whole number from 1 to 16', depth);
}

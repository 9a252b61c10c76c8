import { isJsonObject } from '../../../contract/index.js';
import type { LintRule } from '../types.js';
import { isObjectSchema, isRecursive } from '../walk.js';
import { isOpenObject, isUntyped, keywordsPresent, OPEN_OBJECT_FIX, PORTABLE_FIX, UNTYPED_FIX } from './helpers.js';

/**
 * Anthropic tool use: `input_schema` is a JSON Schema object whose root is `{"type":"object"}`
 * and has no `oneOf`/`anyOf`/`allOf` at the top level ("Define tools"). Strict tool use
 * (`strict: true`, grammar-constrained) also refuses recursive schemas, numeric bounds, string
 * length bounds and array bounds other than `minItems` 0 or 1, requires
 * `additionalProperties: false` on every object, and takes `null` through `anyOf`, not a type
 * list ("Structured outputs", JSON Schema limitations).
 */
const DEFINE_TOOLS =
  'https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use#specifying-client-tools';
const STRICT_LIMITS = 'https://docs.anthropic.com/en/docs/build-with-claude/structured-outputs#json-schema-limitations';

const NUMERIC = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'];
const LENGTHS = ['minLength', 'maxLength'];
const FORMATS = ['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'uri', 'ipv4', 'ipv6', 'uuid'];

export const ANTHROPIC_RULES: readonly LintRule[] = [
  {
    id: 'anthropic/root-object',
    provider: 'anthropic',
    summary: 'input_schema is {"type":"object"} with no oneOf, anyOf or allOf at the top level',
    citation: DEFINE_TOOLS,
    check({ schema, root }) {
      if (!root) return [];
      if (
        schema.type === 'object' &&
        schema.oneOf === undefined &&
        schema.anyOf === undefined &&
        schema.allOf === undefined
      )
        return [];
      return [
        {
          message: 'the root schema must be {"type":"object"} without oneOf, anyOf or allOf',
          fix: 'make the arguments one DTO class; put a union in a property (@UnionOf)',
        },
      ];
    },
  },
];

export const ANTHROPIC_STRICT_RULES: readonly LintRule[] = [
  {
    id: 'anthropic-strict/recursion',
    provider: 'anthropic-strict',
    summary: 'no recursive schemas',
    citation: STRICT_LIMITS,
    check({ root }, target) {
      if (!root || !isRecursive(target.document)) return [];
      return [
        {
          message: 'the schema is recursive',
          fix: PORTABLE_FIX.replace('moves it into the description', 'unrolls the recursion to recursionDepth levels'),
          at: '/$defs',
        },
      ];
    },
  },
  {
    id: 'anthropic-strict/numeric-bounds',
    provider: 'anthropic-strict',
    summary: `no ${NUMERIC.join(', ')}`,
    citation: STRICT_LIMITS,
    check({ schema }) {
      return keywordsPresent(
        schema,
        NUMERIC,
        (keyword) => `"${keyword}" is not supported in strict tool use`,
        () => PORTABLE_FIX,
      );
    },
  },
  {
    id: 'anthropic-strict/length-bounds',
    provider: 'anthropic-strict',
    summary: `no ${LENGTHS.join(', ')}`,
    citation: STRICT_LIMITS,
    check({ schema }) {
      return keywordsPresent(
        schema,
        LENGTHS,
        (keyword) => `"${keyword}" is not supported in strict tool use`,
        () => PORTABLE_FIX,
      );
    },
  },
  {
    id: 'anthropic-strict/array-bounds',
    provider: 'anthropic-strict',
    summary: 'no maxItems or uniqueItems, and minItems only 0 or 1',
    citation: STRICT_LIMITS,
    check({ schema }) {
      const found = keywordsPresent(
        schema,
        ['maxItems', 'uniqueItems'],
        (keyword) => `"${keyword}" is not supported in strict tool use`,
        () => PORTABLE_FIX,
      );
      if (typeof schema.minItems === 'number' && schema.minItems > 1)
        found.push({
          message: `minItems ${schema.minItems} is not supported (only 0 or 1)`,
          fix: PORTABLE_FIX,
          at: '/minItems',
        });
      return found;
    },
  },
  {
    id: 'anthropic-strict/additional-properties',
    provider: 'anthropic-strict',
    summary: 'every object sets additionalProperties: false',
    citation: STRICT_LIMITS,
    check({ schema }) {
      if (!isObjectSchema(schema) || schema.additionalProperties === false) return [];
      const map = isJsonObject(schema.additionalProperties);
      if (!map && isOpenObject(schema))
        return [
          {
            message:
              'an open object (any keys, values of any type) is not supported; every object sets additionalProperties: false',
            fix: OPEN_OBJECT_FIX,
          },
        ];
      return [
        {
          message: map
            ? 'a map (additionalProperties with a schema) is not supported'
            : 'the object does not set additionalProperties: false',
          fix: map
            ? "compile or serve with schemaProfile: 'portable': the map is listed as an array of { key, value } entries"
            : 'add additionalProperties: false',
          at: '/additionalProperties',
        },
      ];
    },
  },
  {
    id: 'anthropic-strict/untyped',
    provider: 'anthropic-strict',
    summary: 'every value has a type (a schema of any value, {}, is refused)',
    citation: STRICT_LIMITS,
    check({ schema, root }) {
      if (root || !isUntyped(schema)) return [];
      return [{ message: 'the value has no type (any JSON value); strict tool use needs one', fix: UNTYPED_FIX }];
    },
  },
  {
    id: 'anthropic-strict/type-list',
    provider: 'anthropic-strict',
    summary: 'null is admitted through anyOf with {"type":"null"}, not a type list',
    citation: STRICT_LIMITS,
    check({ schema }) {
      if (!Array.isArray(schema.type)) return [];
      return [
        {
          message: `type ${JSON.stringify(schema.type)} is a list`,
          fix: PORTABLE_FIX.replace('moves it into the description', 'writes anyOf [X, {"type":"null"}]'),
          at: '/type',
        },
      ];
    },
  },
  {
    id: 'anthropic-strict/format',
    provider: 'anthropic-strict',
    summary: `format is one of ${FORMATS.join(', ')}`,
    citation: STRICT_LIMITS,
    check({ schema }) {
      if (typeof schema.format !== 'string' || FORMATS.includes(schema.format)) return [];
      return [
        { message: `format "${schema.format}" is not supported in strict tool use`, fix: PORTABLE_FIX, at: '/format' },
      ];
    },
  },
];

import { isJsonObject } from '../../../contract/index.js';
import type { LintRule } from '../types.js';
import { keywordsPresent, PORTABLE_FIX } from './helpers.js';

/**
 * Gemini function declarations: `parameters` is a Schema, "a select subset of an OpenAPI 3.0
 * schema object" (Gemini API reference, Schema): `type` is one type name, `enum` lists strings,
 * `format` is `enum` or `date-time` for strings, and there is no `const`, `$ref`/`$defs`,
 * `oneOf`/`allOf`/`not`, `additionalProperties` or `uniqueItems`. A host that passes an MCP schema
 * to Gemini as it is gets `400 Invalid JSON payload received. Unknown name "additionalProperties"`
 * (reported against Gemini 2.0 to 3.1 by several public MCP clients), so the keyword is reported
 * in every form: `false` (the `gemini` profile leaves it out), and a map (which loses its type).
 */
const SCHEMA_REFERENCE = 'https://ai.google.dev/api/caching#Schema';
const FUNCTION_CALLING = 'https://ai.google.dev/gemini-api/docs/function-calling';

const UNSUPPORTED = [
  'const',
  'oneOf',
  'allOf',
  'not',
  'uniqueItems',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'patternProperties',
  'propertyNames',
  'if',
  'then',
  'else',
  'examples',
  'deprecated',
];

export const GEMINI_RULES: readonly LintRule[] = [
  {
    id: 'gemini/type-list',
    provider: 'gemini',
    summary: 'type is a single type name, never a list such as ["string","null"]',
    citation: SCHEMA_REFERENCE,
    check({ schema }) {
      if (!Array.isArray(schema.type)) return [];
      return [
        {
          message: `type ${JSON.stringify(schema.type)} is a list; Gemini takes one type (null through anyOf or nullable)`,
          fix: PORTABLE_FIX.replace('moves it into the description', 'writes anyOf [X, {"type":"null"}]'),
          at: '/type',
        },
      ];
    },
  },
  {
    id: 'gemini/enum-strings',
    provider: 'gemini',
    summary: 'enum lists strings only (no numbers, no null)',
    citation: SCHEMA_REFERENCE,
    check({ schema }) {
      if (!Array.isArray(schema.enum) || schema.enum.every((value) => typeof value === 'string')) return [];
      return [
        {
          message: `enum ${JSON.stringify(schema.enum)} holds values that are not strings`,
          fix: PORTABLE_FIX,
          at: '/enum',
        },
      ];
    },
  },
  {
    id: 'gemini/ref',
    provider: 'gemini',
    summary: 'no $ref or $defs (recursive classes cannot be expressed)',
    citation: FUNCTION_CALLING,
    check({ schema }) {
      return keywordsPresent(
        schema,
        ['$ref', '$defs'],
        (keyword) => `"${keyword}" is not supported`,
        () =>
          PORTABLE_FIX.replace(
            'moves it into the description',
            'inlines it, unrolling recursion to recursionDepth levels',
          ),
      );
    },
  },
  {
    id: 'gemini/format',
    provider: 'gemini',
    summary: 'a string format is enum or date-time',
    citation: SCHEMA_REFERENCE,
    check({ schema }) {
      if (typeof schema.format !== 'string' || schema.format === 'date-time' || schema.format === 'enum') return [];
      return [
        {
          message: `format "${schema.format}" is not supported (strings take enum or date-time)`,
          fix: PORTABLE_FIX,
          at: '/format',
        },
      ];
    },
  },
  {
    id: 'gemini/map',
    provider: 'gemini',
    summary: 'no additionalProperties with a schema (a map loses its value type)',
    citation: SCHEMA_REFERENCE,
    check({ schema }) {
      if (!isJsonObject(schema.additionalProperties)) return [];
      return [
        {
          message: 'a map (additionalProperties with a schema) cannot be expressed',
          fix: "compile or serve with schemaProfile: 'portable': the map is listed as an array of { key, value } entries",
          at: '/additionalProperties',
        },
      ];
    },
  },
  {
    id: 'gemini/additional-properties',
    provider: 'gemini',
    summary: 'no additionalProperties, not even false (raw Gemini answers 400 Unknown name "additionalProperties")',
    citation: SCHEMA_REFERENCE,
    check({ schema }) {
      if (typeof schema.additionalProperties !== 'boolean') return [];
      return [
        {
          message: `additionalProperties: ${String(schema.additionalProperties)} is refused by Gemini when the schema reaches it as it is`,
          fix: "compile or serve with schemaProfile: 'gemini' (or --profile gemini): the listing leaves it out and the server still refuses unknown properties (hosts whose Gemini adapter strips it, as the AI SDK's does, may keep 'portable')",
          at: '/additionalProperties',
        },
      ];
    },
  },
  {
    id: 'gemini/unsupported-keyword',
    provider: 'gemini',
    summary: `no ${UNSUPPORTED.join(', ')}`,
    citation: SCHEMA_REFERENCE,
    check({ schema }) {
      return keywordsPresent(
        schema,
        UNSUPPORTED,
        (keyword) => `"${keyword}" is not part of Gemini's schema subset`,
        () => PORTABLE_FIX,
      );
    },
  },
];

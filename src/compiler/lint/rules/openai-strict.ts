import { isJsonObject } from '../../../contract/index.js';
import type { LintRule } from '../types.js';
import { isObjectSchema } from '../walk.js';
import {
  isOpenObject,
  isUntyped,
  keywordsPresent,
  OPEN_OBJECT_FIX,
  PORTABLE_FIX,
  propertyNames,
  requiredNames,
  UNTYPED_FIX,
} from './helpers.js';

/**
 * OpenAI strict mode (`strict: true` on a function tool, which the Agents SDK and the AI SDK's
 * OpenAI provider turn on when a schema allows it), from "Supported schemas" in the Structured
 * Outputs guide: every object lists every property in `required` and sets
 * `additionalProperties: false`; optional values are emulated with a union with `null`; the root
 * is an object, not `anyOf`; some keywords are not supported; `format` takes only the listed
 * formats; at most 10 levels of object nesting.
 */
const SUPPORTED_SCHEMAS = 'https://platform.openai.com/docs/guides/structured-outputs#supported-schemas';
const STRICT_MODE = 'https://platform.openai.com/docs/guides/function-calling#strict-mode';

/**
 * Keywords strict mode does not support (Structured Outputs guide, "Some type-specific keywords are
 * not yet supported").
 */
const UNSUPPORTED = [
  'default',
  'minLength',
  'maxLength',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'patternProperties',
  'propertyNames',
  'unevaluatedProperties',
  'contains',
  'not',
  'oneOf',
  'allOf',
  'if',
  'then',
  'else',
  'dependentRequired',
  'dependentSchemas',
];

/** The string formats strict mode supports. */
const FORMATS = ['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid'];

export const OPENAI_STRICT_RULES: readonly LintRule[] = [
  {
    id: 'openai-strict/all-required',
    provider: 'openai-strict',
    summary: 'every property of every object is listed in required (an optional one is required and admits null)',
    citation: SUPPORTED_SCHEMAS,
    check({ schema }) {
      if (!isObjectSchema(schema)) return [];
      const required = requiredNames(schema);
      return propertyNames(schema)
        .filter((name) => !required.includes(name))
        .map((name) => ({
          message: `property "${name}" is not in required; strict mode requires every property`,
          fix: PORTABLE_FIX.replace('moves it into the description', 'makes it required and nullable'),
          at: `/properties/${name}`,
        }));
    },
  },
  {
    id: 'openai-strict/additional-properties',
    provider: 'openai-strict',
    summary: 'every object sets additionalProperties: false (so a map with typed values cannot be expressed)',
    citation: SUPPORTED_SCHEMAS,
    check({ schema }) {
      if (!isObjectSchema(schema) || schema.additionalProperties === false) return [];
      const map = isJsonObject(schema.additionalProperties);
      if (!map && isOpenObject(schema))
        return [
          {
            message:
              'an open object (any keys, values of any type) cannot be expressed; strict mode requires additionalProperties: false',
            fix: OPEN_OBJECT_FIX,
          },
        ];
      return [
        {
          message: map
            ? 'a map (additionalProperties with a schema) cannot be expressed; strict mode requires additionalProperties: false'
            : 'the object does not set additionalProperties: false',
          fix: map
            ? "compile or serve with schemaProfile: 'portable': the map is listed as an array of { key, value } entries and the server turns it back into the object"
            : 'add additionalProperties: false (toolwright adds it to every DTO class)',
          at: '/additionalProperties',
        },
      ];
    },
  },
  {
    id: 'openai-strict/untyped',
    provider: 'openai-strict',
    summary: 'every value has a type (a schema of any value, {}, is refused)',
    citation: SUPPORTED_SCHEMAS,
    check({ schema, root }) {
      if (root || !isUntyped(schema)) return [];
      return [{ message: 'the value has no type (any JSON value); strict mode needs one', fix: UNTYPED_FIX }];
    },
  },
  {
    id: 'openai-strict/root-object',
    provider: 'openai-strict',
    summary: 'the root schema is an object, never anyOf',
    citation: SUPPORTED_SCHEMAS,
    check({ schema, root }) {
      if (!root) return [];
      if (schema.type === 'object' && schema.anyOf === undefined) return [];
      return [
        {
          message: 'the root schema must be {"type":"object"} without anyOf',
          fix: 'make the arguments one DTO class; put a union in a property (@UnionOf)',
        },
      ];
    },
  },
  {
    id: 'openai-strict/unsupported-keyword',
    provider: 'openai-strict',
    summary: `strict mode does not support ${UNSUPPORTED.join(', ')}`,
    citation: SUPPORTED_SCHEMAS,
    check({ schema }) {
      return keywordsPresent(
        schema,
        UNSUPPORTED,
        (keyword) => `"${keyword}" is not supported in strict mode`,
        () => PORTABLE_FIX,
      );
    },
  },
  {
    id: 'openai-strict/format',
    provider: 'openai-strict',
    summary: `format is one of ${FORMATS.join(', ')}`,
    citation: SUPPORTED_SCHEMAS,
    check({ schema }) {
      if (typeof schema.format !== 'string' || FORMATS.includes(schema.format)) return [];
      return [
        {
          message: `format "${schema.format}" is not supported in strict mode (supported: ${FORMATS.join(', ')})`,
          fix: PORTABLE_FIX,
          at: '/format',
        },
      ];
    },
  },
  {
    id: 'openai-strict/nesting-depth',
    provider: 'openai-strict',
    summary: 'at most 10 levels of object nesting',
    citation: STRICT_MODE,
    check({ schema, objectDepth }) {
      if (!isObjectSchema(schema) || objectDepth <= 10) return [];
      return [
        {
          message: `the object is nested ${objectDepth} levels deep; strict mode allows 10`,
          fix: 'flatten the arguments, or lower the recursion depth of the portable profile (recursionDepth)',
        },
      ];
    },
  },
];

import assert from 'node:assert/strict';
import type { JsonObject } from '../../src/index.js';
import { generateSchema, type GeneratedSchema, type GenerateSchemaOptions } from '../../src/compiler/schema/index.js';
import { compileSchema } from '../../src/compiler/validation/validator.js';

/**
 * Generates the schema of `dto` and compiles it with the shared Ajv, so every schema a test
 * looks at is also proven to be valid JSON Schema 2020-12 (ajv throws otherwise).
 */
export function generated(dto: Function, options: GenerateSchemaOptions = {}): GeneratedSchema {
  const result = generateSchema(dto, options);
  compileSchema(result.schema);
  return result;
}

/** The schema of a DTO that must have no issues and no residual constraints. */
export function cleanSchema(dto: Function): JsonObject {
  const result = generated(dto);
  assert.deepEqual(result.issues, [], 'expected no issues');
  assert.deepEqual(result.residual, [], 'expected no residual constraints');
  return result.schema;
}

/** The object schema the generator makes for a class: properties, required (when any), no extras. */
export function objectSchema(properties: JsonObject, required: string[] = Object.keys(properties)): JsonObject {
  return required.length === 0
    ? { type: 'object', properties, additionalProperties: false }
    : { type: 'object', properties, required, additionalProperties: false };
}

/** The schema of the single property `value` of a DTO with no issues and no residual constraints. */
export function valueSchema(dto: Function): JsonObject {
  const schema = cleanSchema(dto);
  return (schema.properties as JsonObject).value as JsonObject;
}

/** Whether `value` passes the compiled schema of `dto`. */
export function accepts(dto: Function, value: unknown): boolean {
  return compileSchema(generateSchema(dto).schema)(value) === true;
}

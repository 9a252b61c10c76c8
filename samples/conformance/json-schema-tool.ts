import { compileSchema, problemsOf } from '../../src/compiler/index.js';
import { InvalidArgumentsError, type ContractTool, type JsonObject } from '../../src/index.js';

/**
 * The inputSchema of the conformance scenario json-schema-2020-12, exactly as it must be listed:
 * `$schema` 2020-12, a `$defs` entry used through `$ref`, and `additionalProperties: false`.
 */
const SCHEMA: JsonObject = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: {
      type: 'object',
      properties: {
        street: { type: 'string' },
        city: { type: 'string' },
      },
    },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
  },
  additionalProperties: false,
};

const validate = compileSchema(SCHEMA);

/**
 * A hand-built contract tool (a plain object, no decorators) whose schema uses JSON Schema
 * 2020-12 features a DTO class does not produce. It validates its own arguments with the shared
 * Ajv instance, as every contract tool must, and rejects bad ones with `InvalidArgumentsError`.
 */
export const jsonSchema2020Tool: ContractTool = Object.freeze({
  name: 'json_schema_2020_12_tool',
  description: 'Tool with JSON Schema 2020-12 features',
  parameters: SCHEMA,
  async execute(args: unknown): Promise<string> {
    if (!validate(args)) throw new InvalidArgumentsError(problemsOf(validate.errors));
    const { name, address } = args as { name?: string; address?: { street?: string; city?: string } };
    return `Received: name=${name ?? '(none)'}, address=${JSON.stringify(address ?? {})}`;
  },
});

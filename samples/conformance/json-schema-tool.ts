import { compileSchema, problemsOf } from '../../src/compiler/index.js';
import { InvalidArgumentsError, type ContractTool, type JsonObject } from '../../src/index.js';

/**
 * The inputSchema of the conformance scenario json-schema-2020-12, exactly as it must be listed:
 * `$schema` 2020-12, a `$defs` entry (with an `$anchor`) used through `$ref`, composition
 * (`allOf`/`anyOf`) and conditional (`if`/`then`/`else`) keywords, and
 * `additionalProperties: false` (the 0.2.0-alpha.11 suite checks all of them; 0.1.16 the first).
 */
const SCHEMA: JsonObject = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: {
      $anchor: 'addressDef',
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
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  then: { required: ['phone'] },
  else: { required: ['email'] },
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

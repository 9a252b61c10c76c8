import { isJsonObject, type Json, type JsonObject } from '../../contract/index.js';
import { generateSchema } from '../../compiler/schema/index.js';

const FORM_FORMATS: ReadonlySet<string> = new Set(['email', 'uri', 'date', 'date-time']);

/**
 * Builds the flat form schema of an elicitation (`ctx.elicit({message, schema})`) from a DTO class,
 * with the same generator that makes tools' argument schemas: `{"type":"object",
 * "properties":{...},"required":[...]}` (`required` left out when empty). Each property keeps what
 * the generator said of it (description, bounds, enum, default, format); an optional property's
 * `["T","null"]` type becomes `"T"` and `null` leaves its `enum` (a form sends no nulls; leaving a
 * field out is how it says nothing). Throws an `Error` naming the class and property when the class
 * cannot be read (the generator's issues), or when a property is not something a form can ask: MCP
 * forms hold only strings (formats `email`, `uri`, `date`, `date-time`), numbers, integers,
 * booleans, string enums and arrays of string enums (multi-select); nested objects are refused.
 */
export function formSchemaOf(dto: Function): JsonObject {
  const label = `formSchemaOf(${typeof dto === 'function' && dto.name !== '' ? dto.name : 'anonymous class'})`;
  const generated = generateSchema(dto, { role: 'arguments' });
  if (generated.issues.length > 0)
    throw new Error(`${label}: ${generated.issues.map((issue) => issue.message).join(' ')}`);
  const source = generated.schema;
  const properties: JsonObject = {};
  for (const [name, schema] of Object.entries(isJsonObject(source.properties) ? source.properties : {})) {
    properties[name] = formFieldOf(schema, `${label}: property ${JSON.stringify(name)}`);
  }
  const form: JsonObject = { type: 'object', properties };
  if (Array.isArray(source.required) && source.required.length > 0) form.required = source.required;
  return form;
}

function formFieldOf(schema: Json, label: string): JsonObject {
  const refused = `${label} cannot be a form field: elicitation forms hold only strings, numbers, integers, booleans and string enums`;
  if (!isJsonObject(schema)) throw new Error(refused);
  const field: JsonObject = { ...schema };
  if (Array.isArray(field.type)) {
    const types = field.type.filter((type) => type !== 'null');
    if (types.length !== 1) throw new Error(refused);
    field.type = types[0]!;
  }
  // An optional enum admits null in argument schemas; a form leaves the field out instead.
  if (Array.isArray(field.enum)) field.enum = field.enum.filter((value) => value !== null);
  switch (field.type) {
    case 'string':
      if (Array.isArray(field.enum) && !field.enum.every((value) => typeof value === 'string'))
        throw new Error(refused);
      if (field.format !== undefined && !FORM_FORMATS.has(String(field.format))) {
        throw new Error(
          `${label} has format ${JSON.stringify(field.format)}, which elicitation forms cannot state (only email, uri, date, date-time)`,
        );
      }
      return field;
    case 'number':
    case 'integer':
      if (field.enum !== undefined) throw new Error(refused);
      return field;
    case 'boolean':
      return field;
    case 'array': {
      const items = field.items;
      if (
        !isJsonObject(items) ||
        items.type !== 'string' ||
        !Array.isArray(items.enum) ||
        !items.enum.every((value) => typeof value === 'string')
      )
        throw new Error(refused);
      return field;
    }
    default:
      throw new Error(refused);
  }
}

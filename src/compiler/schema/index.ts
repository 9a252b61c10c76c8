export type { ResidualConstraint, GeneratedSchema, GenerateSchemaOptions } from './types.js';
export { generateSchema } from './generate.js';
export { optionalPropertiesOf } from './optional.js';

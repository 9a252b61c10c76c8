export { problemsOf } from './ajv.js';
export { compileSchema, createValidator, type SchemaValidator, type CompiledSchema } from './validator.js';
export { DEFAULT_MAX_DEPTH, depthProblem } from './depth.js';
export { argumentsObject, type ArgumentsShape } from './shape.js';
export { kindOf } from '../../util/describe.js';
export { createArgumentsPipeline, type ArgumentsPipeline, type ArgumentsPipelineOptions } from './pipeline.js';

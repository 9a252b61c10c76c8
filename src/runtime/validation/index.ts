export { sharedAjv, compileSchema, problemsOf, markSelfValidating, validatesOwnArguments } from './ajv.js';
export { DEFAULT_MAX_DEPTH, depthProblem } from './depth.js';
export { argumentsObject, type ArgumentsShape } from './shape.js';
export { kindOf } from '../../contract/describe.js';
export { createArgumentsPipeline, type ArgumentsPipeline, type ArgumentsPipelineOptions } from './pipeline.js';

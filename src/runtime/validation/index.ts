export { sharedAjv, compileSchema, problemsOf, markSelfValidating, validatesOwnArguments } from './ajv.js';
export { DEFAULT_MAX_DEPTH, depthProblem } from './depth.js';
export { argumentsObject, kindOf, type ArgumentsShape } from './shape.js';
export { createArgumentsPipeline, type ArgumentsPipeline, type ArgumentsPipelineOptions } from './pipeline.js';

// markSelfValidating stays internal (compile marks its own tools): a public one would let any
// tool switch off the MCP edge's argument validation.
export { sharedAjv, compileSchema, problemsOf, validatesOwnArguments } from './ajv.js';
export { DEFAULT_MAX_DEPTH, depthProblem } from './depth.js';
export { argumentsObject, type ArgumentsShape } from './shape.js';
export { kindOf } from '../../util/describe.js';
export { createArgumentsPipeline, type ArgumentsPipeline, type ArgumentsPipelineOptions } from './pipeline.js';

export { compile, NO_ARGUMENTS_SCHEMA, type CompileOptions } from './compile.js';
export type { ResolveForCall } from './build-tool.js';
export { inferToolName } from './name.js';
export { inspectTool, explainTools, formatDefinitions, type ToolInspection, type FormatOptions } from './inspect.js';
export { schemaLines } from './schema-text.js';
export type { CompiledToolInfo } from './info.js';
export { compileResources } from './compile-resources.js';
export { compilePrompts } from './compile-prompts.js';
export type { FeatureCompileOptions } from './feature-options.js';

export { Tool, defineTool } from './tool.js';
export {
  ReadOnly,
  Destructive,
  Idempotent,
  OpenWorld,
  Sequential,
  Barrier,
  Resource,
  Flow,
  Replay,
  defineClaims,
} from './claims.js';
export { Timeout, defineTimeout } from './timeout.js';
export { TaskSupport, defineTaskSupport, type TaskSupportOptions } from './task-support.js';
export { Requires, defineRequires } from './requires.js';
export { MaxOutput, defineMaxOutput } from './max-output.js';
export { Scopes, defineScopes } from './scopes.js';
export { Facts, Args, Description, Field, defineFacts, defineDescription, defineField } from './members.js';
export { MapOf, UnionOf, defineMapOf, defineUnionOf, type DiscriminatedUnion } from './shapes.js';
export { StaticResource, defineStaticResource } from './static-resource.js';
export { ResourceTemplate, defineResourceTemplate } from './resource-template.js';
export { Prompt, definePrompt } from './prompt.js';
export { Complete, defineComplete } from './complete.js';
export {
  getStaticResourceOptions,
  getResourceTemplateOptions,
  getPromptOptions,
  getCompleters,
  featureKindOf,
  DECORATOR_OF,
  type StaticResourceOptions,
  type ResourceTemplateOptions,
  type PromptOptions,
  type FeatureKind,
} from './feature-metadata.js';
export {
  getToolOptions,
  getClaims,
  getFactsMethod,
  getArgsParameter,
  getArgsClass,
  getFieldOptions,
  getShapes,
} from './metadata.js';
export type {
  Class,
  ToolOptions,
  FieldOptions,
  ToolClaims,
  ShapeOptions,
  ValueType,
  ValueTypeRef,
} from './metadata.js';

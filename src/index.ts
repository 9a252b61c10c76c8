/**
 * The package root: what a tool author needs to write, compile and serve a tool. Everything else
 * sits behind a named subpath: `toolwright/compiler` (schemas, inspection), `toolwright/runtime`
 * (the executor, permissions, interceptors, output limits, the contract's readers),
 * `toolwright/mcp` (the MCP edge: servers, transports, wire helpers) and `toolwright/testing`.
 * A test pins this list (test/exports.test.ts); the README lists every entry point.
 *
 * @module toolwright
 */
// reflect-metadata must be loaded before any decorated class is evaluated: TypeScript's
// emitted `__metadata` helper silently does nothing without it. Importing toolwright loads it.
import 'reflect-metadata';

export {
  Tool,
  ReadOnly,
  Destructive,
  Idempotent,
  OpenWorld,
  Sequential,
  Barrier,
  Resource,
  Flow,
  Replay,
  Facts,
  Args,
  Description,
  Field,
  Timeout,
  TaskSupport,
  Requires,
  MaxOutput,
  MapOf,
  UnionOf,
  Scopes,
  defineTool,
  defineClaims,
  defineDescription,
  defineFacts,
  defineField,
  defineMaxOutput,
  defineRequires,
  defineTimeout,
  defineTaskSupport,
  defineMapOf,
  defineUnionOf,
  defineScopes,
  StaticResource,
  ResourceTemplate,
  Prompt,
  Complete,
  defineStaticResource,
  defineResourceTemplate,
  definePrompt,
  defineComplete,
  type StaticResourceOptions,
  type ResourceTemplateOptions,
  type PromptOptions,
  type ToolOptions,
  type TaskSupportOptions,
  type FieldOptions,
  type DiscriminatedUnion,
  type ValueType,
  type ValueTypeRef,
} from './decorators/index.js';
export { compile, type CompileOptions } from './compiler/compile/compile.js';
export { compileResources } from './compiler/compile/compile-resources.js';
export { compilePrompts } from './compiler/compile/compile-prompts.js';
export type { FeatureCompileOptions } from './compiler/compile/feature-options.js';
export { serveStdio, type ServeStdioOptions, type ServeStdioHandle } from './mcp/transports/serve-stdio.js';
export { serveHttp } from './mcp/transports/serve-http-lazy.js';
export type { ServeHttpOptions, ServeHttpHandle } from './mcp/transports/serve-http.js';
export type { ServedSet, SetChange, CacheHints, CacheHint, CacheScope, CacheableMethod } from './mcp/server/index.js';
export type { HttpHandle } from './mcp/transports/http/listen-http.js';
export type { StdioHandle } from './mcp/transports/stdio/connect-stdio.js';
export type { ServerInfo } from './mcp/server/index.js';
export {
  text,
  image,
  audio,
  embeddedText,
  embeddedBlob,
  resourceLink,
  userMessage,
  assistantMessage,
} from './contract/index.js';
export {
  ToolwrightError,
  ContractError,
  DecoratorError,
  InvalidArgumentsError,
  ToolError,
  ResourceNotFoundError,
  type ContractIssue,
  type ContractIssueCode,
  type ArgumentProblem,
} from './contract/index.js';
export { PermissionDeniedError } from './runtime/permissions/errors.js';
export type {
  ContractTool,
  CallContext,
  Call,
  Session,
  Json,
  JsonObject,
  ToolOutput,
  ToolResult,
  ToolRecord,
  ContentPart,
  TextPart,
  ImagePart,
  AudioPart,
  ResourcePart,
  ResourceLinkPart,
  Annotations,
  ToolFlow,
  ToolReplay,
  ToolTaskClaim,
  TaskSupportMode,
  TaskTerms,
  ToolFacts,
  FactCall,
  Requirement,
  LogLevel,
  ProgressUpdate,
  Elicitation,
  ElicitAnswer,
  Root,
  ElicitAction,
  SamplingRequest,
  SamplingResult,
  PermissionRequest,
  PermissionSubject,
  PathSubjects,
  Principal,
  TransportRequest,
  StateScope,
  ContractResource,
  ContractResourceTemplate,
  ContractResources,
  ContractPrompt,
  ResourceContent,
  TextResourceContent,
  BlobResourceContent,
  ResourceOutput,
  ResourceContext,
  ResourceAnnotations,
  ListedResource,
  TemplateVariables,
  PromptArgument,
  PromptMessage,
  PromptResult,
  PromptOutput,
  CompletionRequest,
  CompletionAnswer,
  CompletionOutput,
} from './contract/index.js';

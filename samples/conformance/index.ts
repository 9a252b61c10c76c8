/**
 * The tool set the MCP conformance suite expects of a server (@modelcontextprotocol/conformance
 * 0.1.16, and 0.2.0-alpha.11 with `--spec-version 2026-07-28`), written with toolwright: decorated
 * classes with class-validator DTOs, plus one hand-built contract tool. Serve it with
 *
 *   toolwright serve dist/samples/conformance/index.js --http 3000
 *
 * and run `node scripts/conformance.mjs` to hold it to the suite. `echo` is extra: the
 * Inspector tests and the server benchmark call it. `resources` and `prompts` are the suite's
 * resources, template and prompts, which `toolwright serve` serves beside the tools; `onServe`
 * takes the served set, which the list-change triggers change (see `list-change-tools.ts`).
 */
import {
  TestAudioContent,
  TestEmbeddedResource,
  TestImageContent,
  TestMultipleContentTypes,
  TestSimpleText,
} from './content-tools.js';
import {
  TestElicitation,
  TestErrorHandling,
  TestSampling,
  TestToolWithLogging,
  TestToolWithProgress,
} from './context-tools.js';
import { TestElicitationSep1034Defaults, TestElicitationSep1330Enums } from './elicitation-tools.js';
import { Echo } from './echo-tool.js';
import { jsonSchema2020Tool } from './json-schema-tool.js';
import {
  TestInputRequiredCapabilities,
  TestInputRequiredElicitation,
  TestInputRequiredMultiRound,
  TestInputRequiredRequestState,
  TestInputRequiredSampling,
  TestInputRequiredTamperedState,
  TestLoggingTool,
  TestMissingCapability,
  TestStreamingElicitation,
  testCustomHeaders,
  TestInputRequiredListRoots,
  TestInputRequiredMultipleInputs,
} from './input-round-tools.js';
import { StaticBinaryResource, StaticTextResource, TemplateDataResource, WatchedResource } from './resources.js';
import { TestTriggerPromptChange, TestTriggerToolChange } from './list-change-tools.js';
import {
  ConfirmDelete,
  FailingJob,
  Greet,
  MultiInput,
  ProtocolErrorJob,
  SlowCompute,
  TestToolWithTask,
} from './task-tools.js';
import {
  TestInputRequiredResultPrompt,
  TestPromptWithArguments,
  TestPromptWithEmbeddedResource,
  TestPromptWithImage,
  TestSimplePrompt,
} from './prompts.js';

export {
  TestAudioContent,
  TestEmbeddedResource,
  TestImageContent,
  TestMultipleContentTypes,
  TestSimpleText,
} from './content-tools.js';
export {
  TestElicitation,
  TestErrorHandling,
  TestSampling,
  TestToolWithLogging,
  TestToolWithProgress,
} from './context-tools.js';
export { TestElicitationSep1034Defaults, TestElicitationSep1330Enums } from './elicitation-tools.js';
export { Echo } from './echo-tool.js';
export { jsonSchema2020Tool } from './json-schema-tool.js';
export * from './input-round-tools.js';
export * from './resources.js';
export * from './prompts.js';
export * from './task-tools.js';
export { onServe, TestTriggerToolChange, TestTriggerPromptChange } from './list-change-tools.js';

/** Every tool of the set, in listing order: classes for `compile`, and the hand-built tool. */
export const tools = [
  TestSimpleText,
  TestImageContent,
  TestAudioContent,
  TestEmbeddedResource,
  TestMultipleContentTypes,
  TestToolWithLogging,
  TestToolWithProgress,
  TestErrorHandling,
  TestSampling,
  TestElicitation,
  TestElicitationSep1034Defaults,
  TestElicitationSep1330Enums,
  jsonSchema2020Tool,
  Echo,
  TestInputRequiredElicitation,
  TestInputRequiredSampling,
  TestInputRequiredRequestState,
  TestInputRequiredMultiRound,
  TestInputRequiredTamperedState,
  TestInputRequiredCapabilities,
  TestMissingCapability,
  TestStreamingElicitation,
  TestLoggingTool,
  testCustomHeaders,
  TestInputRequiredListRoots,
  TestInputRequiredMultipleInputs,
  TestTriggerToolChange,
  TestTriggerPromptChange,
  Greet,
  SlowCompute,
  FailingJob,
  ProtocolErrorJob,
  ConfirmDelete,
  MultiInput,
  TestToolWithTask,
] as const;

/** The resources and the template, in listing order (see `compileResources`). */
export const resources = [StaticTextResource, StaticBinaryResource, TemplateDataResource, WatchedResource] as const;

/** The prompts, in listing order (see `compilePrompts`). */
export const prompts = [
  TestSimplePrompt,
  TestPromptWithArguments,
  TestPromptWithEmbeddedResource,
  TestPromptWithImage,
  TestInputRequiredResultPrompt,
] as const;

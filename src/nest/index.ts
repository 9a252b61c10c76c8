/**
 * `toolwright/nest`: the NestJS module (`ToolwrightModule`) and what an application provides to it.
 * Needs the optional peers `@nestjs/common` and `@nestjs/core` (11 or 12).
 *
 * @module toolwright/nest
 */
// reflect-metadata must be loaded before any decorated class is evaluated.
import 'reflect-metadata';

export { ToolwrightModule } from './toolwright.module.js';
export { ToolwrightServer } from './toolwright-server.js';
export {
  TOOLWRIGHT_OPTIONS,
  TOOLWRIGHT_POLICY,
  TOOLWRIGHT_OUTPUT_LIMITS,
  TOOLWRIGHT_COMPILE_OPTIONS,
  TOOLWRIGHT_CALL_OPTIONS,
  TOOLWRIGHT_VALIDATOR,
  DEFAULT_MCP_PATH,
  type ToolwrightModuleOptions,
  type ToolwrightModuleAsyncOptions,
  type ToolwrightModuleRootOptions,
  type ToolwrightOptionsFactory,
  type ToolwrightTransport,
  type ToolwrightOutputLimits,
  type ToolwrightCallOptions,
} from './options.js';
export { SHUTTING_DOWN_TEXT, SHUT_DOWN_MID_CALL_TEXT } from './drain.js';
export { toolCallOf, TOOL_CALL_CONTEXT_TYPE, type NestToolCall, type ToolCallArgs } from './tool-call.js';
export { StderrLogger } from './stderr-logger.js';

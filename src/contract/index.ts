export * from './json.js';
export * from './result.js';
export * from './errors.js';
export * from './context.js';
export {
  createCallContext,
  SamplingUnavailableError,
  RootsUnavailableError,
  NoPermissionPolicyError,
  type CallContextInit,
} from './call-context.js';
export * from './tool.js';
export * from './task.js';
export * from './resource.js';
export * from './prompt.js';
export * from './completion.js';
export * from './readers.js';
export * from './wrap.js';
export * from './scope.js';
export * from './principal-key.js';

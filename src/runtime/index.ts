/**
 * `toolwright/runtime`: running contract tools in a host of your own. The batch executor, the
 * permission policy, interceptors, output limits, and the contract's readers and helpers a host
 * needs (claims, facts, replay, call contexts, wrapping).
 *
 * @module toolwright/runtime
 */
export * from './executor/index.js';
export * from './permissions/index.js';
export * from './interceptors/index.js';
export * from './output-limits/index.js';
export * from './scheduler/index.js';
export * from './call/index.js';
export * from './features/index.js';
export * from './tasks/index.js';
export * from './telemetry/index.js';
export {
  isSequential,
  isBarrier,
  resourceOf,
  isReadOnly,
  isFactual,
  taskTermsOf,
  taskClaimProblem,
  DEFAULT_TASK_TTL_MS,
  MAX_TASK_TTL_MS,
  DEFAULT_TASK_POLL_INTERVAL_MS,
  type TaskTerms,
  claimsReplay,
  replayOf,
  factsOf,
  type FactsAnswer,
  createCallContext,
  type CallContextInit,
  type StateScope,
  STATE_SCOPES,
  isStateScope,
  principalKey,
  wrap,
  type WrappedExecute,
  resultOf,
  textOf,
  TOOL_NAME_PATTERN,
  isJsonObject,
  SamplingUnavailableError,
  NoPermissionPolicyError,
  UnknownToolError,
  InvalidOutputError,
  OutputSchemaMismatchError,
  TransportError,
} from '../contract/index.js';

export { Executor } from './executor.js';
export { planBatch, type BatchPlan } from './plan.js';
export {
  MemoryReplayStore,
  LostOutcomeError,
  type MemoryReplayStoreOptions,
  type ReplayStore,
  type ReplayBegin,
  type ReplayClaim,
  type ReplayOutcome,
} from './replay-store.js';
export { outcomeResult, isAmbiguous, terminationOf } from './outcome.js';
export {
  InvalidBatchError,
  CallCancelledError,
  AmbiguousOutcomeError,
  CallTimeoutError,
  UnknownOutcomeError,
  IdempotencyConflictError,
} from './errors.js';
export { MAX_TIMEOUT_MS } from '../call/time-limit.js';
export type {
  BatchCall,
  CallOutcome,
  CallSucceeded,
  CallFailed,
  OutcomeBase,
  ContextOverrides,
  ContextSource,
  OnStart,
  OnUpdate,
  OnProgress,
  OnComplete,
  RunOptions,
  ExecutorOptions,
} from './types.js';

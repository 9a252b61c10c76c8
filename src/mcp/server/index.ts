export { FACTS_METHOD, FACTS_CAPABILITY, TOOL_META_KEY, RECORD_META_KEY, IDEMPOTENCY_KEY_META } from './constants.js';
export { createServer, type ServerInfo } from './create-server.js';
export { addTools, servedSetOf, type ServerOptions } from './add-tools.js';
export type { ServedSet } from './served-set.js';
export { SetChangeError, type SetChange } from './set-change.js';
export type { CacheHints, CacheHint, CacheScope, CacheableMethod } from './cache-hints.js';
export { definitionOf, annotationsFor, toolMetaOf, type ToolMeta } from './definition.js';
export { contentOf, type McpContent } from './content.js';
export { wireRecordOf, type WireRecord } from './record.js';
export { sessionFrom, sessionId } from './session.js';
export type { FactsWireAnswer, WireFactCall } from './facts.js';
export { formSchemaOf } from './form-schema.js';
export { DEFAULT_MAX_CONCURRENT_CALLS, type SchedulingOptions, type SchedulingOption } from './scheduling.js';
export type { InputRoundOptions } from './input-rounds/options.js';
export {
  DEFAULT_MAX_INPUT_REQUESTS,
  DEFAULT_ABANDON_AFTER_MS,
  DEFAULT_RELAY_TIMEOUT_MS,
  DEFAULT_MAX_PARKED_PER_CLIENT,
} from './input-rounds/options.js';
export {
  STALE_STATE_TEXT,
  InputRoundLimitError,
  InputRoundStoppedError,
  ParkedRunLimitError,
  relayFailedText,
  tooManyParkedMessage,
} from './input-rounds/errors.js';
export { MemoryRelayBus, type RelayBus, type RelayListener } from './input-rounds/relay-bus.js';
export { ServerChanges, isServerChanges, type ChangeListener } from './server-changes.js';
export { DEFAULT_LIST_PAGE_SIZE, type FeatureOptions } from './features.js';
export { resourceDefinitionOf, templateDefinitionOf, promptDefinitionOf } from './feature-wire.js';
export type { TaskOptions } from './tasks/task-options.js';
export {
  TASKS_EXTENSION,
  RELATED_TASK_META,
  SERVER_STOPPED_TEXT,
  DEFAULT_TASK_DRAIN_MS,
  TASK_LIST_PAGE_SIZE,
  ttlPassedText,
} from './tasks/constants.js';

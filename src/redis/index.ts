/**
 * `toolwright/redis`: shared state for several toolwright processes, kept in Redis. Nothing here
 * is loaded by `toolwright`, `toolwright/runtime` or `toolwright/mcp`; import this subpath (and
 * install the optional peer `@redis/client`) only when a deployment runs more than one process.
 *
 * @module toolwright/redis
 */
export {
  connectRedis,
  RedisConnection,
  redactedRedisUrl,
  DEFAULT_REDIS_URL,
  DEFAULT_REDIS_TIMEOUT_MS,
  DEFAULT_REDIS_KEY_PREFIX,
  type ConnectRedisOptions,
  type RedisCommandClient,
} from './connection.js';
export { RedisUnavailableError, RedisBadReplyError } from './errors.js';
export {
  checkRedisDurability,
  RedisDurabilityError,
  RedisClusterUnsupportedError,
  type RedisDurability,
  type RedisDurabilityMode,
} from './durability.js';
export { RedisGeneration, guardedScript, type RedisLoss } from './generation.js';
export { RedisScript, runScript, type ScriptSender } from './script.js';
export { redisRelayBus, type RedisRelayBus, type RedisRelayBusOptions, type RedisSubscriber } from './relay-bus.js';
export {
  RedisReplayStore,
  DEFAULT_REPLAY_TTL_MS,
  DEFAULT_REPLAY_LEASE_MS,
  DEFAULT_MAX_OUTCOME_BYTES,
  type RedisReplayStoreOptions,
} from './replay-store.js';
export { StoredFailure, outcomeToJson, outcomeFromJson } from './outcome-json.js';
export {
  RedisDecisionStore,
  DEFAULT_SESSION_DECISIONS_TTL_MS,
  type RedisDecisionStoreOptions,
} from './decision-store.js';
export {
  RedisSchedulingStore,
  DEFAULT_TURN_LEASE_MS,
  DEFAULT_TURN_POLL_MS,
  type RedisSchedulingStoreOptions,
} from './scheduling-store.js';
export {
  RedisTaskStore,
  DEFAULT_TASK_LEASE_MS,
  DEFAULT_TASK_TICK_MS,
  TASK_STATE_LOST_TEXT,
  leaseLapsedText,
  type RedisTaskStoreOptions,
} from './task-store.js';

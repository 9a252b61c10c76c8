import type { Session } from '../../contract/index.js';
import type { CallCoreOptions } from '../../runtime/call/index.js';
import type { ReplayStore } from '../../runtime/index.js';
import type { CacheHints } from './cache-hints.js';
import type { FeatureOptions } from './features.js';
import type { InputRoundOptions } from './input-rounds/options.js';
import type { SchedulingOption } from './scheduling.js';
import type { TaskOptions } from './tasks/task-options.js';

/**
 * Options for `createServer` and `addTools`: the call-core options every host takes (`policy`,
 * `interceptors`, `timeoutMs`, `maxOutputChars`, `validator`; see `CallCoreOptions`), the
 * transport kind, and what is served besides tools (`resources`, `prompts`, `changes`,
 * `listPageSize`; see `FeatureOptions`; `addTools` serves tools only).
 */
export interface ServerOptions extends CallCoreOptions, FeatureOptions {
  /**
   * The kind of transport the server will be connected to, reported as `session.transport` to
   * every call (`'stdio'`, `'http'`, `'memory'`); default `'other'`. The transports set it.
   */
  readonly transport?: Session['transport'];
  /**
   * How the server schedules the calls it receives by their tools' `sequential`, `barrier` and
   * `resource` claims (see `SchedulingOptions`; default: on, per session, 16 calls at once), or
   * `false` to switch enforcement off for a host that schedules calls itself (the claims are
   * still listed in `_meta`).
   */
  readonly scheduling?: SchedulingOption;
  /**
   * When `true`, `tools/list` leaves out the tools whose `scopes` the caller's token lacks (only
   * where there is a principal: HTTP served with `auth`). Default `false`: every tool is listed,
   * and a call without the scopes is refused.
   */
  readonly hideForbiddenTools?: boolean;
  /**
   * Bounds of the 2026-07-28 era's input rounds: how many requests one call may take, how long a
   * parked call waits, the node id in front of its `requestState` (see `InputRoundOptions`).
   */
  readonly inputRounds?: InputRoundOptions;
  /**
   * Where the calls of `keyed` tools are deduplicated by the idempotency key a request carries
   * in `_meta[IDEMPOTENCY_KEY_META]` (a `MemoryReplayStore` for one process, a `RedisReplayStore`
   * shared by several): a retry with the key gets the first outcome, a key still running or
   * reused with other arguments is refused (see `callOnce`). Default: none, and calls are not
   * deduplicated (the key still reaches the tool as `ctx.call.idempotencyKey`). A call without a
   * key is never deduplicated.
   */
  readonly replay?: ReplayStore;
  /**
   * How the calls of `@TaskSupport` tools run as MCP tasks: the task store (in memory by default)
   * and the drain time of a stopping server (see `TaskOptions`). Only read when a tool has the
   * claim; every server of one endpoint shares its tasks.
   */
  readonly tasks?: TaskOptions;
  /**
   * The caching hints (`ttlMs`, `cacheScope`) of `tools/list`, `prompts/list`, `resources/list`,
   * `resources/templates/list` and `resources/read` results in the 2026-07-28 era (see
   * `CacheHints`). Default: `ttlMs` 0, and each result's scope by what it is.
   */
  readonly cacheHints?: CacheHints;
}

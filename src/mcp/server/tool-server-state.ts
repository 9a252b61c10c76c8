import type { LiveSet } from './live-set.js';
import type { ServerOptions } from './server-options.js';
import type { ParkedRuns } from './input-rounds/parked-runs.js';
import { schedulingOf } from './scheduling.js';
import type { ServerState } from './state.js';

/**
 * The state of one server serving `live`, made outside `serveTools` so that what holds the state
 * (a call's context, a 2026-07-28 call parked while it waits for the client's answers) holds the
 * served set and nothing else of the server: on stateless HTTP every request has a server of its
 * own, which a parked call must not keep alive. A class, so `tools` is one accessor on the
 * prototype: an accessor of its own would keep every state in V8's dictionary mode. The log
 * levels and subscriptions (2025-era session state) are made when first read, so the server of
 * a 2026-07-28 request never makes them.
 */
export class ToolServerState implements ServerState {
  readonly scheduling: ServerState['scheduling'];
  readonly transport: ServerState['transport'];
  readonly validator: ServerState['validator'];
  readonly replay: ServerState['replay'];
  session: ServerState['session'] = undefined;
  readonly traced: boolean;
  private levels: ServerState['logLevels'] | undefined;
  private subscriptions: ServerState['subscribed'] | undefined;

  constructor(
    private readonly live: LiveSet,
    options: ServerOptions,
    readonly runs: ParkedRuns,
    readonly logging: boolean,
  ) {
    this.scheduling = schedulingOf(live.source, options.scheduling, live.tools);
    this.transport = options.transport ?? 'other';
    this.validator = options.validator;
    this.replay = options.replay;
    this.traced = options.telemetry !== false;
  }

  get tools(): ServerState['tools'] {
    return this.live.tools;
  }

  get logLevels(): ServerState['logLevels'] {
    this.levels ??= new Map();
    return this.levels;
  }

  get subscribed(): ServerState['subscribed'] {
    this.subscriptions ??= new Set();
    return this.subscriptions;
  }
}

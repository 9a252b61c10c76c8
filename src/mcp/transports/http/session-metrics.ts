import { metricsOf, otelNames, type Metrics } from '../../../runtime/internal.js';

/**
 * The session metrics of one HTTP endpoint, when a meter provider is registered: an open session
 * adds one to `toolwright.sessions.open`, a closed one takes it back and records its seconds in
 * `mcp.server.session.duration` (both with `network.transport` `tcp`). A session opened while no
 * provider was registered is not counted when it closes either.
 */
export class SessionMetrics {
  private readonly opened_ = new WeakMap<object, { readonly at: number; readonly metrics: Metrics }>();

  opened(session: object): void {
    const metrics = metricsOf();
    if (metrics === undefined) return;
    this.opened_.set(session, { at: performance.now(), metrics });
    metrics.sessionsOpen.add(1, ATTRIBUTES);
  }

  closed(session: object): void {
    const opened = this.opened_.get(session);
    if (opened === undefined) return;
    this.opened_.delete(session);
    opened.metrics.sessionsOpen.add(-1, ATTRIBUTES);
    opened.metrics.sessionDuration.record((performance.now() - opened.at) / 1000, ATTRIBUTES);
  }
}

const ATTRIBUTES = { [otelNames.ATTR_NETWORK_TRANSPORT]: 'tcp' };

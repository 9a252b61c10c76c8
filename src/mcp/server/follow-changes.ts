import type { Server, ServerCapabilities } from '@modelcontextprotocol/server';
import type { ProtocolEra } from './extra.js';
import type { LiveSet } from './live-set.js';
import type { ServerState } from './state.js';

/** The SDK `Server` members a followed server is told through. */
type FollowedServer = Pick<
  Server,
  'sendToolListChanged' | 'sendPromptListChanged' | 'sendResourceListChanged' | 'sendResourceUpdated'
> & {
  readonly transport?: unknown;
  getCapabilities(): ServerCapabilities;
  onclose?: () => void;
};

/**
 * Tells the client of `server` what changes on `live` while the server is connected, as its era
 * defines: a 2025-era connection (stdio, an HTTP session) gets `notifications/tools/list_changed`,
 * `notifications/prompts/list_changed` and `notifications/resources/list_changed` for the kinds
 * its capabilities declare (`listChanged`), and `notifications/resources/updated` for the URIs it
 * subscribed to (`state.subscribed`); a 2026-07-28 stdio connection gets every one of them, and
 * the SDK's listen router sends each to the `subscriptions/listen` streams that asked for it. A
 * 2026-07-28 HTTP server lives for one request and is never told: its endpoint's change bus tells
 * the listen streams (see `changeBusOf`). Sending is best effort. The server is held weakly and
 * stops listening when it closes, so a server that is made and dropped unconnected (a probe) costs
 * nothing once collected.
 */
export function followChanges(server: Server, live: LiveSet, state: ServerState, era: ProtocolEra | undefined): void {
  if (era === 'modern' && state.transport === 'http') return;
  const held = new WeakRef(server as unknown as FollowedServer);
  const forwardAll = era === 'modern';
  let stop: () => void = () => undefined;
  /** The server when it is connected, else `undefined` (and it stops listening once it was collected). */
  const connected = (): FollowedServer | undefined => {
    const target = held.deref();
    if (target === undefined) stop();
    return target?.transport === undefined ? undefined : target;
  };
  const send = (sending: (target: FollowedServer) => Promise<void>, declared: (c: ServerCapabilities) => boolean) => {
    const target = connected();
    if (target === undefined || !declared(target.getCapabilities())) return;
    void sending(target).catch(() => undefined);
  };
  stop = live.changes.listen({
    toolsChanged: () =>
      send(
        (t) => t.sendToolListChanged(),
        (c) => c.tools?.listChanged === true,
      ),
    promptsChanged: () =>
      send(
        (t) => t.sendPromptListChanged(),
        (c) => c.prompts?.listChanged === true,
      ),
    resourcesChanged: () =>
      send(
        (t) => t.sendResourceListChanged(),
        (c) => c.resources?.listChanged === true,
      ),
    resourceUpdated: (uri) => {
      if (!forwardAll && !state.subscribed.has(uri)) return;
      send(
        (t) => t.sendResourceUpdated({ uri }),
        (c) => c.resources !== undefined,
      );
    },
  });
  const target = server as unknown as FollowedServer;
  const previous = target.onclose;
  target.onclose = () => {
    stop();
    previous?.();
  };
}

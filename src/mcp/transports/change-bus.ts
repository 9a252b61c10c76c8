import { InMemoryServerEventBus, type ServerEventBus } from '@modelcontextprotocol/server';
import type { LiveSet } from '../server/live-set.js';

/**
 * The change bus of an HTTP endpoint serving `live`: `given` (the endpoint's `changeEvents`),
 * else a fresh one, told of every change of the set and every change the application announces
 * (tools, prompts and resources list changes, resource updates), so the endpoint's 2026-07-28
 * `subscriptions/listen` streams hear of them (the SDK's listen router sends each to the streams
 * whose filter asked for it), and the function that stops telling it.
 */
export function changeBusOf(live: LiveSet, given?: ServerEventBus): { readonly bus: ServerEventBus; stop(): void } {
  const bus = given ?? new InMemoryServerEventBus();
  const stop = live.changes.listen({
    resourceUpdated: (uri) => bus.publish({ kind: 'resource_updated', uri }),
    resourcesChanged: () => bus.publish({ kind: 'resources_list_changed' }),
    toolsChanged: () => bus.publish({ kind: 'tools_list_changed' }),
    promptsChanged: () => bus.publish({ kind: 'prompts_list_changed' }),
  });
  return { bus, stop };
}

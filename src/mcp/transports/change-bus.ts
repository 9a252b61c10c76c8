import { InMemoryServerEventBus, type ServerEventBus } from '@modelcontextprotocol/server';
import type { ServedFeatures } from '../server/features.js';

/**
 * The change bus of an HTTP endpoint whose resources announce changes (`changes` among its
 * features): `given` (the endpoint's `changeEvents`), else a fresh one, told of every announced
 * change (so the endpoint's 2026-07-28 `subscriptions/listen` streams hear of them), and the
 * function that stops telling it. `undefined` when there are no resources or no `changes`.
 */
export function changeBusOf(
  features: ServedFeatures | undefined,
  given?: ServerEventBus,
): { readonly bus: ServerEventBus; stop(): void } | undefined {
  const changes = features?.changes;
  if (changes === undefined || features?.resources === undefined) return undefined;
  const bus = given ?? new InMemoryServerEventBus();
  const stop = changes.listen({
    resourceUpdated: (uri) => bus.publish({ kind: 'resource_updated', uri }),
    resourcesChanged: () => bus.publish({ kind: 'resources_list_changed' }),
  });
  return { bus, stop };
}

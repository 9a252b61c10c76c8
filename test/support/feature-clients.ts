import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  ERA_CLIENT_KINDS,
  connectRawEraClient,
  plainResult,
  type EraClientKind,
  type EraTarget,
} from './nest-era-clients.js';

export { ERA_CLIENT_KINDS, type EraClientKind, type EraTarget };

/** One connected client, whichever SDK line and era, driving resources, prompts and completion. */
export interface FeatureClient {
  readonly kind: EraClientKind;
  /** A request's result without what only one era stamps on it (server info, `resultType`, the caching hints). */
  request(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>>;
  /**
   * Subscribes to `uri` (2025: `resources/subscribe`; 2026-07-28: `subscriptions/listen`);
   * `updates` fills as they come.
   */
  subscribe(uri: string): Promise<{ readonly updates: string[]; close(): Promise<void> }>;
  close(): Promise<void>;
}

/** `plainResult` without the 2026-07-28 caching hints (`ttlMs`, `cacheScope`) either. */
export function withoutEraFields(result: unknown): Record<string, unknown> {
  const { ttlMs: _ttl, cacheScope: _scope, ...rest } = plainResult(result) as Record<string, unknown>;
  return rest;
}

const ANY = { parse: (value: unknown) => value, safeParse: (value: unknown) => ({ success: true, data: value }) };
const ANY_V2 = { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) } };

/**
 * Connects a client of `kind` to `target` (see `connectRawEraClient`). Elicitations are answered
 * `accept` with `{ answer }`, `answer(message)` (default `yes`); the 2.x client answers a
 * 2026-07-28 input round the same way.
 */
export async function connectFeatureClient(
  kind: EraClientKind,
  target: EraTarget,
  answer: (message: string) => string = () => 'yes',
): Promise<FeatureClient> {
  const connected = await connectRawEraClient(kind, target, answer);
  const updates: string[] = [];
  if (connected.line === 1) {
    const client = connected.client;
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (note) => void updates.push(note.params.uri));
    return {
      kind,
      request: async (method, params) =>
        withoutEraFields(
          await client.request({ method, ...(params === undefined ? {} : { params }) } as never, ANY as never),
        ),
      subscribe: async (uri) => {
        await client.subscribeResource({ uri });
        return { updates, close: async () => void (await client.unsubscribeResource({ uri })) };
      },
      close: () => client.close(),
    };
  }
  const { client, era } = connected;
  client.setNotificationHandler('notifications/resources/updated', (note) => {
    updates.push(String((note.params as { uri?: unknown }).uri));
  });
  return {
    kind,
    request: async (method, params) =>
      withoutEraFields(
        await client.request(
          { method, ...(params === undefined ? {} : { params }) } as never,
          ANY_V2 as never,
          {
            timeout: 30_000,
          } as never,
        ),
      ),
    subscribe: async (uri) => {
      if (era === '2025-11-25') {
        await client.subscribeResource({ uri });
        return { updates, close: async () => void (await client.unsubscribeResource({ uri })) };
      }
      const subscription = await client.listen({ resourceSubscriptions: [uri] });
      return { updates, close: () => subscription.close() };
    },
    close: () => client.close(),
  };
}

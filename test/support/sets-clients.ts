import assert from 'node:assert/strict';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  connectRawEraClient,
  plainResult,
  type ConnectedEraClient,
  type EraClientKind,
  type EraTarget,
} from './nest-era-clients.js';

/*
 * A client of the served-set tests, whichever SDK line and era (see `EraClientKind`): it counts
 * the `notifications/tools/list_changed` it hears (a 2026-07-28 client on the
 * `subscriptions/listen` stream it opens for `toolsListChanged`), lists and calls.
 */

const ANY = { parse: (value: unknown) => value, safeParse: (value: unknown) => ({ success: true, data: value }) };
const ANY_V2 = { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) } };

/** One client, whichever line and era, as these tests drive it. */
export interface SetClient {
  readonly kind: EraClientKind;
  /** How many `notifications/tools/list_changed` it heard. */
  readonly told: () => number;
  /** The raw `tools/list` result (no client cache), with what only one era stamps kept. */
  rawList(): Promise<Record<string, unknown>>;
  /** The names `listTools()` gives (the 2.x client's cache included). */
  names(): Promise<string[]>;
  call(name: string, args?: Record<string, unknown>): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

export async function connectSetClient(kind: EraClientKind, target: EraTarget): Promise<SetClient> {
  const connected: ConnectedEraClient = await connectRawEraClient(kind, target);
  let told = 0;
  if (connected.line === 1) {
    const client = connected.client;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void (told += 1));
    return {
      kind,
      told: () => told,
      rawList: async () => (await client.request({ method: 'tools/list' } as never, ANY as never)) as never,
      names: async () => (await client.listTools()).tools.map((tool) => tool.name),
      call: async (name, args = {}) =>
        plainResult(await client.callTool({ name, arguments: args }, undefined, { timeout: 30_000 })),
      close: () => client.close(),
    };
  }
  const { client, era } = connected;
  client.setNotificationHandler('notifications/tools/list_changed', () => void (told += 1));
  const subscription = era === '2026-07-28' ? await client.listen({ toolsListChanged: true }) : undefined;
  if (subscription !== undefined) assert.deepEqual(subscription.honoredFilter, { toolsListChanged: true });
  return {
    kind,
    told: () => told,
    rawList: async () => (await client.request({ method: 'tools/list' } as never, ANY_V2 as never)) as never,
    names: async () => (await client.listTools()).tools.map((tool) => tool.name),
    call: async (name, args = {}) =>
      plainResult(await client.callTool({ name, arguments: args }, { timeout: 30_000 } as never)),
    close: async () => {
      await subscription?.close();
      await client.close();
    },
  };
}

/** The text of a result's first content part. */
export const textOf = (result: Record<string, unknown>): string =>
  ((result.content as { text?: string }[] | undefined)?.[0]?.text ?? JSON.stringify(result)) as string;

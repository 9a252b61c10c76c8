import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1StdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2StdioTransport } from '@modelcontextprotocol/client/stdio';
import { ERA_CLIENT_KINDS, plainResult, type EraClientKind, type EraTarget } from './nest-era-clients.js';
import { REPO_ROOT } from './cli-paths.js';

export { ERA_CLIENT_KINDS, type EraClientKind, type EraTarget };

/** One connected client, whichever SDK line and era, driving resources, prompts and completion. */
export interface FeatureClient {
  readonly kind: EraClientKind;
  /** A request's result without what only one era stamps on it (server info, `resultType`, the caching hints). */
  request(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Subscribes to `uri` (2025: `resources/subscribe`; 2026-07-28: `subscriptions/listen`); `updates` fills as they come. */
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
 * Connects a client of `kind` to `target`. Elicitations are answered `accept` with `{ answer }`,
 * `answer(message)` (default `yes`); the 2.x client answers a 2026-07-28 input round the same way.
 */
export async function connectFeatureClient(
  kind: EraClientKind,
  target: EraTarget,
  answer: (message: string) => string = () => 'yes',
): Promise<FeatureClient> {
  const info = { name: 'feature-test', version: '1.0.0' };
  const capabilities = { elicitation: { form: {} } };
  const reply = (params: { message?: unknown }) => ({
    action: 'accept' as const,
    content: { answer: answer(String(params.message)) },
  });
  if (kind === 'sdk 1.x (2025-11-25)') {
    const client = new V1Client(info, { capabilities });
    client.setRequestHandler(ElicitRequestSchema, async (request) => reply(request.params));
    const updates: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (note) => void updates.push(note.params.uri));
    await client.connect(
      'url' in target
        ? new V1HttpTransport(target.url)
        : new V1StdioTransport({ command: target.command, args: [...target.args], cwd: REPO_ROOT, stderr: 'ignore' }),
    );
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
  const era = kind === 'sdk 2.x (2026-07-28)' ? '2026-07-28' : '2025-11-25';
  const client = new V2Client(info, {
    capabilities,
    ...(era === '2026-07-28' ? { versionNegotiation: { mode: { pin: era } } } : {}),
  });
  client.setRequestHandler(
    'elicitation/create',
    async (request) => reply(request.params as { message?: unknown }) as never,
  );
  const updates: string[] = [];
  client.setNotificationHandler('notifications/resources/updated', (note) => {
    updates.push(String((note.params as { uri?: unknown }).uri));
  });
  await client.connect(
    'url' in target
      ? new V2HttpTransport(target.url)
      : new V2StdioTransport({ command: target.command, args: [...target.args], cwd: REPO_ROOT, stderr: 'ignore' }),
  );
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

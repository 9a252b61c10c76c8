import { requestIdKey } from '../jsonrpc-error.js';
import type { PostBody } from './post-body.js';

/**
 * The request methods whose answering leaves nothing of the client on a toolwright server but
 * what `forgetConnection` forgets (the session object its calls saw). Left out on purpose:
 * `initialize` (the SDK keeps the client's capabilities and version), `logging/setLevel` (a
 * level kept per server), `resources/subscribe` and `resources/unsubscribe` (subscriptions),
 * the task methods, and every method toolwright does not know.
 */
const HANDS_NOTHING_ON: ReadonlySet<string> = new Set([
  'ping',
  'tools/list',
  'tools/call',
  'execution/facts',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'prompts/list',
  'prompts/get',
  'completion/complete',
]);

/** The notifications that leave nothing on a server (a cancellation only aborts a call of the same POST). */
const NOTIFICATIONS_HANDING_NOTHING_ON: ReadonlySet<string> = new Set([
  'notifications/initialized',
  'notifications/cancelled',
]);

/**
 * Whether serving `body` (a 2025-era POST without a session) can leave nothing of its client on
 * the server that answers it, so that the server may answer a later POST (see
 * `createStatelessLeg`): every message is a request of a method in `HANDS_NOTHING_ON` or one of
 * the notifications above. A response (the client answering the server), anything malformed and
 * every other method say no.
 */
export function handsNothingOn(body: PostBody): boolean {
  if (body.messages.length === 0) return false;
  for (const message of body.messages) {
    if (typeof message !== 'object' || message === null) return false;
    const { method, id } = message as { method?: unknown; id?: unknown };
    if (typeof method !== 'string') return false;
    const isRequest = typeof id === 'string' || typeof id === 'number';
    if (!(isRequest ? HANDS_NOTHING_ON : NOTIFICATIONS_HANDING_NOTHING_ON).has(method)) return false;
  }
  return true;
}

/** The SDK `Protocol`'s per-connection maps that hold what is still owed on a connection. */
const OWED = [
  '_requestHandlerAbortControllers',
  '_responseHandlers',
  '_progressHandlers',
  '_timeoutInfo',
  '_pendingDebouncedNotifications',
] as const;

/**
 * Whether the SDK holds nothing more for `server`'s last client: no request handler running, no
 * request of the server's awaiting the client's answer, no progress handler, timeout or debounced
 * notification. These are the SDK `Protocol`'s private maps: when one cannot be read (another
 * SDK version), the answer is `false` and the server is never handed on.
 */
export function sdkHoldsNothing(server: object): boolean {
  for (const key of OWED) {
    const owed = (server as Record<string, unknown>)[key];
    if (!(owed instanceof Map || owed instanceof Set) || owed.size > 0) return false;
  }
  return true;
}

/** The ids (by `requestIdKey`) of the requests in `body`. */
export function requestIdsOf(body: PostBody): string[] {
  const ids: string[] = [];
  for (const message of body.messages) {
    const id = (message as { id?: unknown }).id;
    if (typeof id === 'string' || typeof id === 'number') ids.push(requestIdKey(id));
  }
  return ids;
}

import type { RequestId } from '@modelcontextprotocol/server';
import { requestIdKey } from '../jsonrpc-error.js';
import type { TrackedHttpTransport } from './tracked-transport.js';

/** The requests one POST carried, answered on that POST's SSE stream. */
export interface PostGroup {
  readonly pending: Map<string, RequestId>;
  readonly cancelled: RequestId[];
  closed: boolean;
}

/** The reason sent with the cancellation a hang-up injects. */
export const CLIENT_GONE_REASON = 'client disconnected';

/**
 * Tracks, for one session, which requests of which POST are still unanswered, to fix two gaps
 * of SDK 1.32.2's streamable HTTP transport:
 *
 * - A request cancelled with `notifications/cancelled` is (rightly) never answered, and the SDK
 *   keeps its POST's SSE stream open until every request on it has a response, so the stream
 *   would hang until the client's timeout. Once every request of the POST is answered or
 *   cancelled, this closes the stream (`closeSSEStream`).
 * - A client that hangs up mid-call does not abort the handler in the SDK. On a hang-up this
 *   injects `notifications/cancelled` (reason `client disconnected`) for each unanswered request
 *   of that POST into the server, which aborts their signals exactly as a client cancel would.
 *
 * It never answers a request itself. (The SDK keeps one small map entry per cancelled request
 * until the session ends; it offers no public way to drop it.)
 */
export class InFlightCalls {
  private readonly byRequest = new Map<string, PostGroup>();

  constructor(private readonly transport: TrackedHttpTransport) {
    transport.onResponseSent = (id) => this.answered(id);
  }

  /** Registers the requests of one POST, before the transport sees them. */
  open(ids: readonly RequestId[]): PostGroup {
    const group: PostGroup = { pending: new Map(), cancelled: [], closed: false };
    for (const id of ids) {
      const key = requestIdKey(id);
      group.pending.set(key, id);
      this.byRequest.set(key, group);
    }
    return group;
  }

  /** Notes that the client cancelled `id` (after the server saw the cancellation). */
  cancelled(id: RequestId): void {
    const key = requestIdKey(id);
    const group = this.byRequest.get(key);
    if (group === undefined) return;
    this.byRequest.delete(key);
    group.pending.delete(key);
    group.cancelled.push(id);
    this.settle(group);
  }

  /** The POST's connection closed before its response finished: cancel what is still open. */
  hungUp(group: PostGroup): void {
    group.closed = true;
    const open = [...group.pending.values()];
    group.pending.clear();
    for (const id of open) {
      this.byRequest.delete(requestIdKey(id));
      this.transport.onmessage?.({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: id, reason: CLIENT_GONE_REASON },
      });
    }
  }

  private answered(id: RequestId): void {
    const key = requestIdKey(id);
    const group = this.byRequest.get(key);
    if (group === undefined) return;
    this.byRequest.delete(key);
    group.pending.delete(key);
    this.settle(group);
  }

  private settle(group: PostGroup): void {
    if (group.closed || group.pending.size > 0 || group.cancelled.length === 0) return;
    group.closed = true;
    this.transport.closeSSEStream(group.cancelled[0]!);
  }
}

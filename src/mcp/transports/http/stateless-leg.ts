import type { Server } from '@modelcontextprotocol/server';
import { generationOf, type ServerFactory } from '../server-factory.js';
import { hasClosed } from './http-session.js';
import type { HttpLeg } from './http-leg.js';
import { connectsAsTheSdk } from '../direct-dispatch.js';
import { authInfoOf, NodeHttpServerTransport, type NodeHttpServerTransportOptions } from './node-http-transport.js';
import { handsNothingOn, requestIdsOf, sdkHoldsNothing } from './reusable-post.js';
import { forgetConnection } from '../../server/state.js';

/** The most idle servers a stateless leg keeps for the next POSTs; beyond them a server is closed. */
export const MAX_IDLE_STATELESS_SERVERS = 64;

/** The most POSTs one server answers before it is closed (it remembers every request id it answered). */
export const MAX_POSTS_PER_STATELESS_SERVER = 1000;

/** A server, the transport it is connected to, and the request ids (by `requestIdKey`) it has answered. */
interface Connected {
  readonly server: Server;
  readonly transport: NodeHttpServerTransport;
  readonly answered: Set<string>;
  /** The served set's generation when the server was built (see `withResettableServers`). */
  readonly generation: number;
  posts: number;
}

/**
 * Serves 2025-era POSTs without sessions (`stateless: true`) for `createHttpHandler`: each POST
 * is served by a server from `factory` on a transport of its own (`sessionIdGenerator:
 * undefined`, see `NodeHttpServerTransport`): the call's logging and progress notifications
 * reach the client within that response. When the POST's response ends or the client hangs up,
 * the server is closed, which aborts whatever still runs for it.
 *
 * One exception, for speed (building and closing a server per POST is most of a stateless
 * POST's cost): when `factory` builds resettable servers (see `withResettableServers`, as
 * `serveHttp`'s does), a POST that leaves nothing of its client on the server (see
 * `handsNothingOn`: requests such as `tools/call` and `tools/list`, never `initialize`,
 * `logging/setLevel`, subscriptions or responses) hands its server, once the SDK holds nothing
 * more for it (no call running, no request awaiting an answer) and toolwright forgot its session
 * (see `forgetConnection`), to a later POST, up to `MAX_IDLE_STATELESS_SERVERS` idle ones. A
 * server serves one POST at a time, never answers the same request id twice (so what a tool
 * sends after its call was answered is dropped, never written to a later client's answer) and
 * is closed after `MAX_POSTS_PER_STATELESS_SERVER` POSTs or once the served set changed (its
 * handlers and capabilities are the set's when it was built); a later POST's calls get a session
 * object of their own: nothing one client was granted or stored on a session reaches another.
 */
export function createStatelessLeg(
  factory: ServerFactory,
  transportOptions: Omit<NodeHttpServerTransportOptions, 'sessionIdGenerator' | 'reusable'>,
): HttpLeg {
  const servers = new Set<Server>();
  const idle: Connected[] = [];
  const generation = generationOf(factory);
  const reusable = generation !== undefined;
  let closed = false;

  const connectOne = async (): Promise<Connected> => {
    const server = factory();
    const transport = new NodeHttpServerTransport({ ...transportOptions, sessionIdGenerator: undefined, reusable });
    servers.add(server);
    await server.connect(transport);
    if (connectsAsTheSdk(server)) transport.dispatchDirectlyTo(server);
    return { server, transport, answered: new Set(), generation: generation?.() ?? 0, posts: 0 };
  };

  /**
   * An idle server that never answered any of `ids`, taken out of the idle list. A message a
   * tool sends after its call was answered names that call's request id: on a server that
   * never answers an id twice, it can never reach a later client's answer (it is dropped).
   */
  const takeIdle = (ids: readonly string[]): Connected | undefined => {
    const current = generation?.();
    for (let index = idle.length - 1; index >= 0; index--) {
      const candidate = idle[index]!;
      if (candidate.generation !== current) {
        // Built for a set that has changed since (its handlers and capabilities are that set's).
        idle.splice(index, 1);
        closeOne(candidate);
        continue;
      }
      if (ids.some((id) => candidate.answered.has(id))) continue;
      idle.splice(index, 1);
      return candidate;
    }
    return undefined;
  };

  const closeOne = (connected: Connected): void => {
    servers.delete(connected.server);
    void connected.server.close().catch(() => undefined);
  };

  /** After a POST: keeps its server for the next one when nothing of this client stays on it, else closes it. */
  const release = (connected: Connected, handsOn: boolean): void => {
    if (
      handsOn &&
      !closed &&
      idle.length < MAX_IDLE_STATELESS_SERVERS &&
      connected.posts < MAX_POSTS_PER_STATELESS_SERVER &&
      connected.generation === generation?.() &&
      connected.transport.quiet &&
      sdkHoldsNothing(connected.server) &&
      forgetConnection(connected.server)
    )
      idle.push(connected);
    else closeOne(connected);
  };

  return {
    async serve(req, res, body) {
      const handsOn = reusable && handsNothingOn(body);
      const ids = handsOn ? requestIdsOf(body) : [];
      const connected = (handsOn ? takeIdle(ids) : undefined) ?? (await connectOne());
      connected.posts++;
      for (const id of ids) connected.answered.add(id);
      if (hasClosed(res)) {
        // The client left while the server was being connected; 'close' has already fired.
        release(connected, handsOn);
        return;
      }
      res.once('close', () => release(connected, handsOn));
      await connected.transport.handle(req, res, body.value, authInfoOf(req));
    },
    async close() {
      closed = true;
      idle.length = 0;
      await Promise.all([...servers].map((server) => server.close().catch(() => undefined)));
    },
  };
}

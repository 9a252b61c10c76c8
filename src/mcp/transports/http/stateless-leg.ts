import type { Server } from '@modelcontextprotocol/server';
import type { ServerFactory } from '../server-factory.js';
import { hasClosed } from './http-session.js';
import type { HttpLeg } from './http-leg.js';
import { connectsAsTheSdk } from '../direct-dispatch.js';
import { authInfoOf, NodeHttpServerTransport, type NodeHttpServerTransportOptions } from './node-http-transport.js';

/**
 * Serves 2025-era POSTs without sessions (`stateless: true`) for `createHttpHandler`: each POST
 * gets a fresh server from `factory` and a transport of its own (`sessionIdGenerator:
 * undefined`, see `NodeHttpServerTransport`): the call's logging and progress notifications
 * reach the client within that response. The server is closed when the response ends or the
 * client hangs up, which aborts whatever still runs for it.
 */
export function createStatelessLeg(
  factory: ServerFactory,
  transportOptions: Omit<NodeHttpServerTransportOptions, 'sessionIdGenerator'>,
): HttpLeg {
  const servers = new Set<Server>();
  return {
    async serve(req, res, body) {
      const server = factory();
      const transport = new NodeHttpServerTransport({ ...transportOptions, sessionIdGenerator: undefined });
      servers.add(server);
      res.on('close', () => {
        servers.delete(server);
        void server.close().catch(() => undefined);
      });
      await server.connect(transport);
      if (connectsAsTheSdk(server)) transport.dispatchDirectlyTo(server);
      if (hasClosed(res)) {
        // The client left while the server was being connected; 'close' has already fired.
        servers.delete(server);
        await server.close();
        return;
      }
      await transport.handle(req, res, body.value, authInfoOf(req));
    },
    async close() {
      await Promise.all([...servers].map((server) => server.close().catch(() => undefined)));
    },
  };
}

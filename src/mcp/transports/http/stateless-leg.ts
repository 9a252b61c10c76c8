import type { Server } from '@modelcontextprotocol/server';
import type { ServerFactory } from '../server-factory.js';
import { hasClosed } from './http-session.js';
import type { HttpLeg } from './http-leg.js';
import { TrackedHttpTransport, type TrackedHttpTransportOptions } from './tracked-transport.js';
import { authOf, sendWebResponse, toWebRequest } from './web-bridge.js';

/**
 * Serves 2025-era POSTs without sessions (`stateless: true`) for `createHttpHandler`: each POST
 * gets a fresh server from `factory` and a transport of its own (`sessionIdGenerator:
 * undefined`), answered as an SSE stream so that the call's logging and progress notifications
 * reach the client within that response. The server is closed when the response ends or the
 * client hangs up, which aborts whatever still runs for it.
 */
export function createStatelessLeg(
  factory: ServerFactory,
  transportOptions: Omit<TrackedHttpTransportOptions, 'sessionIdGenerator'>,
): HttpLeg {
  const servers = new Set<Server>();
  return {
    async serve(req, res, body) {
      const server = factory();
      const transport = new TrackedHttpTransport({ ...transportOptions, sessionIdGenerator: undefined });
      servers.add(server);
      res.on('close', () => {
        servers.delete(server);
        void server.close().catch(() => undefined);
      });
      await server.connect(transport);
      if (hasClosed(res)) {
        // The client left while the server was being connected; 'close' has already fired.
        servers.delete(server);
        await server.close();
        return;
      }
      const response = await transport.handleRequest(toWebRequest(req), { parsedBody: body.value, ...authOf(req) });
      await sendWebResponse(res, response);
    },
    async close() {
      await Promise.all([...servers].map((server) => server.close().catch(() => undefined)));
    },
  };
}

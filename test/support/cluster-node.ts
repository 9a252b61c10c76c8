/**
 * The cluster tests' node process: the cluster sample's node (`startClusterNode`), configured from
 * its environment: `PORT`, `NODE_ID`, `REDIS_URL`, `REPLAY_LEASE_MS` (the replay claim lease),
 * `TURN_LEASE_MS` (the scheduling turn lease), and
 * `DEV_AUTH=1` for a bearer-token gate that takes `Bearer dev-<principal>` as the principal
 * `<principal>` (for the principal-binding tests; every other token is refused).
 */
import { invalidToken } from '../../src/mcp/index.js';
import type { ServeHttpOptions } from '../../src/index.js';
import { runNodeProcess, startClusterNode } from '../../samples/cluster/node.js';

const nodeId = process.env.NODE_ID ?? `node-${process.pid}`;
const port = Number(process.env.PORT ?? '0');

const serve: ServeHttpOptions = {
  ...(process.env.DEV_AUTH === '1'
    ? {
        auth: {
          issuer: 'http://127.0.0.1/dev-issuer',
          resource: process.env.RESOURCE ?? 'http://127.0.0.1/mcp',
          verifier: async (token: string) => {
            if (!token.startsWith('dev-')) throw invalidToken('not a dev token');
            return {
              clientId: token.slice(4),
              scopes: [],
              expiresAt: Math.floor(Date.now() / 1000) + 3600,
              audience: [process.env.RESOURCE ?? 'http://127.0.0.1/mcp'],
              claims: {},
            };
          },
        },
      }
    : {}),
};

runNodeProcess(nodeId, () =>
  startClusterNode({
    nodeId,
    port,
    ...(process.env.REDIS_URL ? { redisUrl: process.env.REDIS_URL } : {}),
    ...(process.env.REPLAY_LEASE_MS ? { replayLeaseMs: Number(process.env.REPLAY_LEASE_MS) } : {}),
    ...(process.env.TURN_LEASE_MS ? { turnLeaseMs: Number(process.env.TURN_LEASE_MS) } : {}),
    serve,
  }),
);

/**
 * One node of the cluster sample, as a process: `node dist/samples/cluster/node-main.js`.
 * `PORT` (default 0: a free one), `NODE_ID` (default `node-<pid>`) and `REDIS_URL` (the shared
 * Redis; default none) configure it; it prints
 * `{"port":...,"pid":...,"node":...}` once listening and stops on SIGTERM (see `runNodeProcess`).
 */
import { runNodeProcess, startClusterNode } from './node.js';

const nodeId = process.env.NODE_ID ?? `node-${process.pid}`;
const port = Number(process.env.PORT ?? '0');
runNodeProcess(nodeId, () =>
  startClusterNode({ nodeId, port, ...(process.env.REDIS_URL ? { redisUrl: process.env.REDIS_URL } : {}) }),
);

/**
 * One node of the cluster sample, as a process: `node dist/samples/cluster/node-main.js`.
 * `PORT` (default 0: a free one) and `NODE_ID` (default `node-<pid>`) configure it; it prints
 * `{"port":...,"pid":...,"node":...}` once listening and stops on SIGTERM (see `runNodeProcess`).
 */
import { runNodeProcess, startClusterNode } from './node.js';

const nodeId = process.env.NODE_ID ?? `node-${process.pid}`;
const port = Number(process.env.PORT ?? '0');
runNodeProcess(nodeId, () => startClusterNode({ nodeId, port }));

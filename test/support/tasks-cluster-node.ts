/**
 * The task cluster test's node process: the task tools (see task-tools.ts) and `count_run`, a
 * required task tool that records each run in Redis (`tasks-test:runs:<label>` gets the node id
 * appended) and then waits `ms` milliseconds, served over HTTP on `PORT` with a `RedisTaskStore`
 * on `REDIS_URL` (lease `TASK_LEASE_MS`, default 300 ms; tick 50 ms).
 */
import { serveHttp, type ContractTool } from '../../src/index.js';
import { connectRedis, RedisTaskStore } from '../../src/redis/index.js';
import { runNodeProcess } from '../../samples/cluster/node.js';
import { taskTools } from './task-tools.js';

const nodeId = process.env.NODE_ID ?? `node-${process.pid}`;

runNodeProcess(nodeId, async () => {
  const redis = await connectRedis({ url: process.env.REDIS_URL!, durability: 'off', log: () => undefined });
  const store = new RedisTaskStore(redis, { leaseMs: Number(process.env.TASK_LEASE_MS ?? '300'), tickMs: 50 });
  const countRun: ContractTool = {
    name: 'count_run',
    description: 'Records its run, then waits',
    task: { support: 'required', pollIntervalMs: 20 },
    execute: async (args, ctx) => {
      const { label, ms } = args as { label: string; ms: number };
      await redis.command(['RPUSH', `tasks-test:runs:${label}`, nodeId]);
      await new Promise((resolve, reject) => {
        const timer = setTimeout(resolve, ms);
        ctx.signal.addEventListener('abort', () => (clearTimeout(timer), reject(ctx.signal.reason as Error)), {
          once: true,
        });
      });
      return `${label} done on ${nodeId}`;
    },
  };
  return serveHttp({ name: nodeId, version: '1.0.0' }, [...taskTools().tools, countRun], {
    port: Number(process.env.PORT ?? '0'),
    host: '127.0.0.1',
    tasks: { store, drainMs: 0 },
  });
});

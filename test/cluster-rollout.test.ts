import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { NodeProcesses } from '../samples/cluster/processes.js';
import { CLUSTER_NODE_SCRIPT } from './support/cluster.js';
import { ERA_CLIENT_KINDS } from './support/nest-era-clients.js';
import { redisSkip, startRedisServer, type RedisServer } from './support/redis-server.js';
import { connectSetClient, textOf } from './support/sets-clients.js';
import { until } from './support/server-harness.js';

/*
 * Each process of a cluster changes its own set and tells its own clients. The cluster sample
 * changes every process at once with a message each one applies (`rollout`, on Redis): a client of
 * one process calls it, and the clients of both eras connected to another process are told and
 * list the new set there. Two node processes of the sample and a real redis-server; no balancer.
 */

let redis: RedisServer | undefined;
let nodes: NodeProcesses | undefined;
before(async () => {
  if (redisSkip !== undefined) return;
  redis = await startRedisServer();
  nodes = await NodeProcesses.start({ count: 2, script: CLUSTER_NODE_SCRIPT, env: { REDIS_URL: redis.url } });
});
after(async () => {
  await nodes?.stop();
  await redis?.stop();
});

test(
  'cluster: a rollout called on one process changes every process; the clients of another are told and list the new set',
  { skip: redisSkip, timeout: 60_000 },
  async () => {
    const [first, second] = nodes!.nodes;
    const caller = await connectSetClient('sdk 2.x (2026-07-28)', { url: new URL(first!.url) });
    const watchers = await Promise.all(
      ERA_CLIENT_KINDS.map((kind) => connectSetClient(kind, { url: new URL(second!.url) })),
    );
    try {
      for (const watcher of watchers) assert.ok(!(await watcher.names()).includes('report'), watcher.kind);
      assert.equal(textOf(await caller.call('rollout', { reports: true })), 'published to every process');
      await until(() => watchers.every((watcher) => watcher.told() === 1), 2000);
      for (const watcher of watchers) {
        assert.equal((await watcher.names()).at(-1), 'report', watcher.kind);
        assert.equal(textOf(await watcher.call('report')), `report from ${second!.nodeId}`, watcher.kind);
      }
      await until(() => caller.told() === 1, 2000);
      assert.equal(textOf(await caller.call('report')), `report from ${first!.nodeId}`);

      assert.equal(textOf(await watchers[0]!.call('rollout', { reports: false })), 'published to every process');
      await until(() => watchers.every((watcher) => watcher.told() === 2) && caller.told() === 2, 2000);
      for (const watcher of watchers) assert.ok(!(await watcher.names()).includes('report'), watcher.kind);
      await assert.rejects(caller.call('report'), { code: -32602, message: /Unknown tool: report$/ });
    } finally {
      await Promise.all([caller, ...watchers].map((client) => client.close()));
    }
  },
);

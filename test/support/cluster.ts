import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NodeProcesses, type NodeProcessesOptions } from '../../samples/cluster/processes.js';
import { startHaproxy, type TestBalancer } from './haproxy.js';
import { textOf } from './text.js';

/** The compiled node script the cluster tests run (the sample's node, with test-only options). */
export const CLUSTER_NODE_SCRIPT = join(fileURLToPath(new URL('.', import.meta.url)), 'cluster-node.js');

/** N toolwright processes behind a real HAProxy. */
export interface TestCluster {
  /** The MCP endpoint through the balancer. */
  readonly url: string;
  readonly processes: NodeProcesses;
  readonly balancer: TestBalancer;
  /** Stops the balancer and every process. */
  stop(): Promise<void>;
}

/**
 * Starts `count` processes of `CLUSTER_NODE_SCRIPT` (node ids `node-1` ... `node-<count>`,
 * `env` added to theirs; `more` options of `NodeProcesses`, such as `supervise`) and a HAProxy in
 * front of them. Check `haproxySkipReason()` first.
 */
export async function startCluster(
  count: number,
  env: NodeJS.ProcessEnv = {},
  more: Omit<NodeProcessesOptions, 'count' | 'script' | 'env'> = {},
): Promise<TestCluster> {
  const processes = await NodeProcesses.start({ ...more, count, script: CLUSTER_NODE_SCRIPT, env });
  let balancer: TestBalancer;
  try {
    balancer = await startHaproxy(processes.nodes);
  } catch (error) {
    await processes.stop();
    throw error;
  }
  return {
    url: balancer.url,
    processes,
    balancer,
    stop: async () => {
      await balancer.stop();
      await processes.stop();
    },
  };
}

/** Who answered a `whoami`, `slow` or `confirm` call of the cluster sample. */
export interface Answerer {
  readonly pid: number;
  readonly node: string;
}

/** The text of a tool result's first content block (throws when it has none). */
export { textOf };

/** The process a `whoami` or `slow` result names (its pid and node id). */
export function answererOf(result: unknown): Answerer {
  const { pid, node } = JSON.parse(textOf(result)) as Answerer;
  return { pid, node };
}

/** How many of `answerers` each node id answered, as `{ node: count }` with the keys sorted. */
export function countByNode(answerers: readonly Answerer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const node of answerers.map((a) => a.node).sort()) counts[node] = (counts[node] ?? 0) + 1;
  return counts;
}

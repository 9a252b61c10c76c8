import { haproxyBinary, runHaproxy, startBalancer, type Balancer } from '../../samples/cluster/balancer.js';
import { freePort } from '../../samples/cluster/free-port.js';

/**
 * Why the HAProxy tests cannot run here (`haproxy` is not installed), as the message a skipped
 * test shows, or `undefined` when they can. `.ci/run` installs HAProxy on CI, so there a skip never
 * happens; a developer without it is told how to get it.
 */
export function haproxySkipReason(): string | undefined {
  return haproxyBinary() === undefined
    ? 'haproxy is not installed: apt-get install haproxy (brew install haproxy on macOS), or set HAPROXY to its path'
    : undefined;
}

/** A running HAProxy for a test: the MCP URL through it, and how to stop it. */
export interface TestBalancer {
  readonly url: string;
  stop(): Promise<void>;
}

/**
 * Starts a real HAProxy (foreground, configuration in a temporary folder, a free port on
 * 127.0.0.1) in front of the toolwright processes `nodes` (each process's node id and port):
 * round robin, sessions routed by the node id in front of their id, a readiness check every
 * 200 ms so a dead, frozen or draining process is skipped within a fraction of a second (see
 * `haproxyConfig`). Rejects when HAProxy is missing: check
 * `haproxySkipReason()` first.
 */
export async function startHaproxy(
  nodes: readonly { readonly nodeId: string; readonly port: number }[],
): Promise<TestBalancer & { readonly balancer: Balancer }> {
  const balancer = await startBalancer({
    backends: nodes.map((node, i) => ({ name: `node${i + 1}`, nodeId: node.nodeId, port: node.port })),
    checkIntervalMs: 200,
  });
  return { url: balancer.url, stop: () => balancer.stop(), balancer };
}

/**
 * Starts a real HAProxy (a free port on 127.0.0.1) in front of one toolwright process on
 * `backendPort`, as a balancer that tells the process who its clients are: `option forwardfor`
 * appends each client's address to `X-Forwarded-For`, and HAProxy connects to the backend from
 * `sourceAddress` (another loopback address, so the backend can trust it and nobody else).
 * Rejects when HAProxy is missing: check `haproxySkipReason()` first.
 */
export async function startForwardingHaproxy(backendPort: number, sourceAddress: string): Promise<TestBalancer> {
  const binary = haproxyBinary();
  if (binary === undefined) throw new Error(haproxySkipReason());
  const port = await freePort();
  const config = [
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 1m',
    '  timeout server 1m',
    '  option forwardfor',
    '',
    'frontend mcp',
    `  bind 127.0.0.1:${port}`,
    '  default_backend toolwright',
    '',
    'backend toolwright',
    `  server node1 127.0.0.1:${backendPort} source ${sourceAddress}`,
    '',
  ].join('\n');
  const { stop } = await runHaproxy(binary, port, config);
  return { url: `http://127.0.0.1:${port}/mcp`, stop };
}

/**
 * `npm run cluster` (or `node dist/samples/cluster/start.js`): the cluster sample on one machine.
 * Starts a `redis-server` (unless `REDIS_URL` names one), N toolwright processes serving the
 * sample tools (`whoami`, `slow`, `confirm`; see `node.ts`) and HAProxy in front of them, prints
 * the endpoint and the balancer configuration, and runs until Ctrl-C (or SIGTERM), when it stops
 * everything it started and exits 0.
 *
 * Options: `--processes N` (or `PROCESSES`, default 3, 1 to 64), `--port P` (or `PORT`, the
 * balancer's port, default 8080; 0 picks a free one) and `--node-ports P1,P2,...` (or
 * `NODE_PORTS`, the processes' ports in order; default free ones). A supervisor restarts a
 * process that exits (a crash, `kill -9`) on its port, at most 5 times in a row. Without
 * `redis-server` installed it runs without Redis and says so: stateless calls and sticky
 * sessions work, but a parked call's retry must then reach the process that parked it.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBalancer, type Balancer } from './balancer.js';
import { freePort } from './free-port.js';
import { NodeProcesses } from './processes.js';
import { redisServerBinary, startLocalRedis, type LocalRedis } from './redis.js';

const NODE_SCRIPT = join(fileURLToPath(new URL('.', import.meta.url)), 'node-main.js');

/** The value of `--name N` in `argv`, else `fallback`. */
function option(argv: readonly string[], name: string, fallback: string | undefined): string | undefined {
  const at = argv.indexOf(`--${name}`);
  return at !== -1 && argv[at + 1] !== undefined ? argv[at + 1] : fallback;
}

async function main(argv: readonly string[]): Promise<void> {
  const count = Number(option(argv, 'processes', process.env.PROCESSES ?? '3'));
  const wanted = Number(option(argv, 'port', process.env.PORT ?? '8080'));
  if (!Number.isInteger(count) || count < 1 || count > 64)
    throw new Error(
      `--processes must be a whole number from 1 to 64, got ${String(option(argv, 'processes', process.env.PROCESSES))}`,
    );
  if (!Number.isInteger(wanted) || wanted < 0 || wanted > 65535)
    throw new Error(
      `--port must be a port number (0 for a free one), got ${String(option(argv, 'port', process.env.PORT))}`,
    );

  const portsText = option(argv, 'node-ports', process.env.NODE_PORTS);
  const ports = portsText === undefined || portsText === '' ? [] : portsText.split(',').map(Number);
  if (ports.some((port) => !Number.isInteger(port) || port < 1 || port > 65535) || ports.length > count)
    throw new Error(
      `--node-ports must be at most ${count} port numbers (1 to 65535) separated by commas, got ${JSON.stringify(portsText)}`,
    );

  let redis: LocalRedis | undefined;
  let redisUrl = process.env.REDIS_URL;
  let note: string;
  if (redisUrl !== undefined && redisUrl !== '') note = `Redis: ${redisUrl} (REDIS_URL)`;
  else if (redisServerBinary() !== undefined) {
    redis = await startLocalRedis();
    redisUrl = redis.url;
    note = `Redis: ${redis.url} (started for this run)`;
  } else {
    redisUrl = undefined;
    note =
      "Redis: none (redis-server is not installed: apt-get install redis-server); a parked call's retry must reach the process that parked it";
  }
  let processes: NodeProcesses | undefined;
  let balancer: Balancer | undefined;
  const stopAll = async (): Promise<void> => {
    await balancer?.stop();
    await processes?.stop();
    await redis?.stop();
  };
  try {
    processes = await NodeProcesses.start({
      count,
      script: NODE_SCRIPT,
      env: redisUrl === undefined ? {} : { REDIS_URL: redisUrl },
      ports,
      supervise: true,
      onRestart: (message) => process.stderr.write(`toolwright cluster sample: ${message}\n`),
    });
    balancer = await startBalancer({
      port: wanted === 0 ? await freePort() : wanted,
      backends: processes.nodes.map((node) => ({ name: node.nodeId, port: node.port })),
    });
  } catch (error) {
    await stopAll();
    throw error;
  }
  const lines = [
    `toolwright cluster sample: ${count} processes behind HAProxy (Ctrl-C stops everything)`,
    '',
    `  endpoint  ${balancer.url}`,
    ...processes.nodes.map((node) => `  ${node.nodeId.padEnd(8)}  ${node.url} (pid ${node.pid})`),
    `  ${note}`,
    '',
    'Try it (each call says which process answered it):',
    `  npx mcp-inspector --cli ${balancer.url} --method tools/call --tool-name whoami`,
    '',
    'HAProxy configuration:',
    ...balancer.config
      .trimEnd()
      .split('\n')
      .map((line) => `  ${line}`),
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  const shut = (): void => void stopAll().then(() => process.exit(0));
  process.once('SIGINT', shut);
  process.once('SIGTERM', shut);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`toolwright cluster sample: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

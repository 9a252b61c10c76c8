import { freePort } from './free-port.js';
import { findBinary, startServiceProcess } from './service-process.js';

/** Where `redis-server` is looked for when it is not on `PATH`. */
const REDIS_PLACES = ['/usr/bin/redis-server', '/usr/local/bin/redis-server', '/opt/homebrew/bin/redis-server'];

/** The `redis-server` binary: the first on `PATH` or in the usual places, else `undefined` (not installed). */
export function redisServerBinary(): string | undefined {
  return findBinary('redis-server', REDIS_PLACES);
}

/** A `redis-server` the cluster sample started for itself. */
export interface LocalRedis {
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string;
  /** Stops it (SIGTERM, SIGKILL after 5 s) and removes its folder. Idempotent. */
  stop(): Promise<void>;
}

/**
 * Starts `redis-server` on 127.0.0.1 (a free port unless `port` is given) the way toolwright's
 * shared stores need it (see docs/cluster.md, "Redis"): the append-only file on, written to disk
 * once a second (`--appendonly yes --appendfsync everysec`, no snapshots), no eviction
 * (`--maxmemory-policy noeviction`), its working folder in a fresh temporary folder (removed by
 * `stop()`), and resolves once it accepts connections.
 * Rejects with `redis-server is not installed (...)` when there is none, with its output when it
 * exits at start, and after 10 s without it listening.
 */
export async function startLocalRedis(port?: number): Promise<LocalRedis> {
  const binary = redisServerBinary();
  if (binary === undefined)
    throw new Error(
      'redis-server is not installed (looked on PATH and in /usr/bin, /usr/local/bin, /opt/homebrew/bin); on Debian or Ubuntu: apt-get install redis-server',
    );
  const chosen = port ?? (await freePort());
  const { stop } = await startServiceProcess({
    label: 'redis-server',
    binary,
    args: (dir) => [
      '--port',
      String(chosen),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'yes',
      '--appendfsync',
      'everysec',
      '--maxmemory-policy',
      'noeviction',
      '--dir',
      dir,
    ],
    port: chosen,
    dirPrefix: 'toolwright-cluster-redis-',
  });
  return { url: `redis://127.0.0.1:${chosen}`, stop };
}

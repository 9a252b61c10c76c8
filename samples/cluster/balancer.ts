import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './free-port.js';
import { haproxyConfig, type Backend } from './haproxy-config.js';
import { findBinary, startServiceProcess, type ServiceProcess } from './service-process.js';

/** Where HAProxy is looked for when `haproxy` is not on `PATH` (Debian installs it in /usr/sbin). */
const HAPROXY_PLACES = [
  '/usr/sbin/haproxy',
  '/usr/local/sbin/haproxy',
  '/usr/bin/haproxy',
  '/usr/local/bin/haproxy',
  '/opt/homebrew/bin/haproxy',
];

/**
 * The HAProxy binary to run: `$HAPROXY` when set, else the first of the usual places that exists,
 * else `undefined` (not installed).
 */
export function haproxyBinary(): string | undefined {
  const given = process.env.HAPROXY;
  if (given !== undefined && given !== '') return given;
  return findBinary('haproxy', HAPROXY_PLACES);
}

/** Options of `startBalancer`. */
export interface BalancerOptions {
  readonly backends: readonly Backend[];
  /** The port clients connect to; default a free one. */
  readonly port?: number;
  /** How often backends are checked (see `haproxyConfig`); default 1000 ms. */
  readonly checkIntervalMs?: number;
  /** The HAProxy binary; default `haproxyBinary()`. */
  readonly binary?: string;
}

/** A running HAProxy in front of toolwright processes. */
export interface Balancer {
  /** The MCP endpoint through the balancer, `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  readonly port: number;
  /** The configuration it runs with. */
  readonly config: string;
  /** Stops HAProxy (SIGTERM, then SIGKILL after 5 s) and removes its configuration folder. Idempotent. */
  stop(): Promise<void>;
}

/**
 * Starts HAProxy in the foreground (`-db`: no daemon, no master-worker) on 127.0.0.1 with the
 * configuration of `haproxyConfig` written to a fresh temporary folder, and resolves once it
 * accepts connections. Rejects with `HAProxy is not installed (looked for ...)` when there is no
 * binary, with its own error output when it exits at start (a bad configuration, a port taken),
 * and after 10 s without it listening.
 */
export async function startBalancer(options: BalancerOptions): Promise<Balancer> {
  const binary = options.binary ?? haproxyBinary();
  if (binary === undefined)
    throw new Error(
      `HAProxy is not installed (looked for haproxy on PATH and in ${HAPROXY_PLACES.join(', ')}); on Debian or Ubuntu: apt-get install haproxy`,
    );
  const port = options.port ?? (await freePort());
  const config = haproxyConfig({
    port,
    backends: options.backends,
    ...(options.checkIntervalMs !== undefined ? { checkIntervalMs: options.checkIntervalMs } : {}),
  });
  const { stop } = await runHaproxy(binary, port, config);
  return { url: `http://127.0.0.1:${port}/mcp`, port, config, stop };
}

/**
 * Runs HAProxy `binary` in the foreground with the configuration text `config` (written to a
 * fresh temporary folder) and resolves once it accepts connections on `127.0.0.1:port`; rejects
 * as `startServiceProcess` does.
 */
export function runHaproxy(binary: string, port: number, config: string): Promise<ServiceProcess> {
  return startServiceProcess({
    label: 'HAProxy',
    binary,
    // The configuration is written into the process's own folder before HAProxy reads it.
    args: (dir) => {
      const file = join(dir, 'haproxy.cfg');
      writeFileSync(file, config);
      return ['-db', '-f', file];
    },
    port,
    dirPrefix: 'toolwright-haproxy-',
  });
}

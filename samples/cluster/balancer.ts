import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';
import { haproxyConfig, type Backend } from './haproxy-config.js';
import { waitForPort } from './wait-for-port.js';

/** Where HAProxy is looked for when `haproxy` is not on `PATH` (Debian installs it in /usr/sbin). */
const HAPROXY_PLACES = ['/usr/sbin/haproxy', '/usr/local/sbin/haproxy', '/usr/bin/haproxy', '/usr/local/bin/haproxy', '/opt/homebrew/bin/haproxy'];

/**
 * The HAProxy binary to run: `$HAPROXY` when set, else the first of the usual places that exists,
 * else `undefined` (not installed).
 */
export function haproxyBinary(): string | undefined {
  const given = process.env.HAPROXY;
  if (given !== undefined && given !== '') return given;
  for (const dir of (process.env.PATH ?? '').split(':')) if (dir !== '' && existsSync(join(dir, 'haproxy'))) return join(dir, 'haproxy');
  return HAPROXY_PLACES.find((place) => existsSync(place));
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
  if (binary === undefined) throw new Error(`HAProxy is not installed (looked for haproxy on PATH and in ${HAPROXY_PLACES.join(', ')}); on Debian or Ubuntu: apt-get install haproxy`);
  const port = options.port ?? (await freePort());
  const config = haproxyConfig({ port, backends: options.backends, ...(options.checkIntervalMs !== undefined ? { checkIntervalMs: options.checkIntervalMs } : {}) });
  const dir = mkdtempSync(join(tmpdir(), 'toolwright-haproxy-'));
  const file = join(dir, 'haproxy.cfg');
  writeFileSync(file, config);
  const child: ChildProcess = spawn(binary, ['-db', '-f', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  let ended: string | undefined;
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', (code, signal) => ((ended = `exit ${code ?? signal}: ${stderr.trim()}`), resolve())));
  child.once('error', (error) => (ended = error.message));
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      if (ended === undefined) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    })());
  try {
    await waitForPort('HAProxy', '127.0.0.1', port, 10_000, () => ended);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `http://127.0.0.1:${port}/mcp`, port, config, stop };
}

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';
import { waitForPort } from './wait-for-port.js';

/** Where `redis-server` is looked for when it is not on `PATH`. */
const REDIS_PLACES = ['/usr/bin/redis-server', '/usr/local/bin/redis-server', '/opt/homebrew/bin/redis-server'];

/** The `redis-server` binary: the first on `PATH` or in the usual places, else `undefined` (not installed). */
export function redisServerBinary(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(':')) if (dir !== '' && existsSync(join(dir, 'redis-server'))) return join(dir, 'redis-server');
  return REDIS_PLACES.find((place) => existsSync(place));
}

/** A `redis-server` the cluster sample started for itself. */
export interface LocalRedis {
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string;
  /** Stops it (SIGTERM, SIGKILL after 5 s) and removes its folder. Idempotent. */
  stop(): Promise<void>;
}

/**
 * Starts `redis-server` on 127.0.0.1 (a free port unless `port` is given) with persistence off
 * and its working folder in a fresh temporary folder, and resolves once it accepts connections.
 * Rejects with `redis-server is not installed (...)` when there is none, with its output when it
 * exits at start, and after 10 s without it listening.
 */
export async function startLocalRedis(port?: number): Promise<LocalRedis> {
  const binary = redisServerBinary();
  if (binary === undefined) throw new Error('redis-server is not installed (looked on PATH and in /usr/bin, /usr/local/bin, /opt/homebrew/bin); on Debian or Ubuntu: apt-get install redis-server');
  const chosen = port ?? (await freePort());
  const dir = mkdtempSync(join(tmpdir(), 'toolwright-cluster-redis-'));
  const child = spawn(binary, ['--port', String(chosen), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  let ended: string | undefined;
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output = (output + chunk).slice(-2000)));
  const exited = new Promise<void>((resolve) => child.once('exit', (code, signal) => ((ended = `exit ${code ?? signal}: ${output.trim()}`), resolve())));
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
    await waitForPort('redis-server', '127.0.0.1', chosen, 10_000, () => ended);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `redis://127.0.0.1:${chosen}`, stop };
}

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitForPort } from './wait-for-port.js';

/**
 * The binary `name`: the first found on `PATH`, else the first of `places` that exists, else
 * `undefined` (not installed). Never runs it.
 */
export function findBinary(name: string, places: readonly string[]): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(':'))
    if (dir !== '' && existsSync(join(dir, name))) return join(dir, name);
  return places.find((place) => existsSync(place));
}

/** What `startServiceProcess` runs. */
export interface ServiceProcessOptions {
  /** How errors name the service (`HAProxy`, `redis-server`). */
  readonly label: string;
  readonly binary: string;
  /** Its arguments, given the fresh temporary folder it owns. */
  readonly args: (dir: string) => readonly string[];
  /** The 127.0.0.1 port it listens on once ready. */
  readonly port: number;
  /** The temporary folder's name prefix. */
  readonly dirPrefix: string;
}

/** A service process `startServiceProcess` started. */
export interface ServiceProcess {
  /** The temporary folder it owns (removed by `stop`). */
  readonly dir: string;
  /** Stops it (SIGTERM, SIGKILL after 5 s) and removes its folder. Idempotent. */
  stop(): Promise<void>;
}

/**
 * Starts a service (HAProxy, redis-server) in the foreground with a fresh temporary folder and
 * resolves once it accepts connections on `127.0.0.1:port`. Rejects with `<label> ended before
 * it accepted connections ...: <its last error output>` when it exits at start, and after 10 s
 * without it listening; either way the process is stopped and its folder removed.
 */
export async function startServiceProcess(options: ServiceProcessOptions): Promise<ServiceProcess> {
  const dir = mkdtempSync(join(tmpdir(), options.dirPrefix));
  const child = spawn(options.binary, [...options.args(dir)], { stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  let ended: string | undefined;
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output = (output + chunk).slice(-4000)));
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => ((ended = `exit ${code ?? signal}: ${output.trim()}`), resolve())),
  );
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
    await waitForPort(options.label, '127.0.0.1', options.port, 10_000, () => ended);
  } catch (error) {
    await stop();
    throw error;
  }
  return { dir, stop };
}

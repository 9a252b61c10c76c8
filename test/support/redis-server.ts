import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './ports.js';

/**
 * A real `redis-server` for the tests: started on a free 127.0.0.1 port in a temporary folder
 * (removed by `stop()`), with the append-only file on by default (`--appendonly yes
 * --appendfsync everysec`, no snapshots), as toolwright's stores require, so a `restart()` keeps
 * its data; `startRedisServer({ persistence: false })` starts one without (`--appendonly no`),
 * which a restart empties.
 */
export interface RedisServer {
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string;
  readonly port: number;
  /** Stops the server (SIGTERM, then SIGKILL after 5 s) and removes its folder. Idempotent. */
  stop(): Promise<void>;
  /** Stops the server and starts it again on the same port (empty without persistence). */
  restart(): Promise<void>;
  /** Stops the server without removing its folder, so `start()` may bring it back on the same port. */
  down(): Promise<void>;
  /** Starts the server again after `down()`, on the same port. */
  up(): Promise<void>;
  /** Freezes the server (SIGSTOP): connections stay open and nothing answers, as a hung Redis. */
  pause(): void;
  /** Thaws a paused server (SIGCONT). */
  resume(): void;
}

/** Why the Redis tests are skipped, or `undefined` when `redis-server` is on PATH. */
export const redisSkip: string | undefined =
  spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).error === undefined
    ? undefined
    : 'redis-server is not installed: run `apt-get install redis-server` (.ci/run does)';

/**
 * Starts `redis-server` on `port` and resolves once it accepts connections (rejects after 10 s or
 * when it exits first).
 */
function launch(port: number, dir: string, options: RedisServerOptions): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        ...(options.persistence === false
          ? ['--appendonly', 'no']
          : ['--appendonly', 'yes', '--appendfsync', 'everysec']),
        '--dir',
        dir,
        '--protected-mode',
        'yes',
        ...(options.args ?? []),
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`redis-server on port ${port} was not ready within 10 s:\n${output}`));
    }, 10_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        child.stdout!.resume();
        resolve(child);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server on port ${port} exited with ${String(code)} before it was ready:\n${output}`));
    });
  });
}

/** Ends `child` (SIGTERM, SIGKILL after 5 s) and resolves when it has exited. */
function end(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGCONT');
    child.kill('SIGTERM');
  });
}

/** How `startRedisServer` configures the server. */
export interface RedisServerOptions {
  /** The append-only file (default true); false starts it with persistence off. */
  readonly persistence?: boolean;
  /** More `redis-server` arguments (`--maxmemory-policy allkeys-lru`, `--user ...`). */
  readonly args?: readonly string[];
}

/**
 * Starts a real `redis-server` (see `RedisServer`). A port taken between the probe and the
 * start is retried on another port, up to 5 times. Check `redisSkip` first.
 */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'toolwright-redis-'));
  let port = 0;
  let child: ChildProcess | undefined;
  let lastProblem: unknown;
  for (let attempt = 0; attempt < 5 && child === undefined; attempt += 1) {
    port = await freePort();
    try {
      child = await launch(port, dir, options);
    } catch (problem) {
      lastProblem = problem;
    }
  }
  if (child === undefined) {
    rmSync(dir, { recursive: true, force: true });
    throw lastProblem;
  }
  let current: ChildProcess | undefined = child;
  let stopped = false;
  const server: RedisServer = {
    url: `redis://127.0.0.1:${port}`,
    port,
    async down() {
      if (current !== undefined) await end(current);
      current = undefined;
    },
    async up() {
      if (stopped) throw new Error('redis-server: up() after stop()');
      if (current === undefined) current = await launch(port, dir, options);
    },
    async restart() {
      await server.down();
      await server.up();
    },
    pause() {
      current?.kill('SIGSTOP');
    },
    resume() {
      current?.kill('SIGCONT');
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.down();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return server;
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { REPO_ROOT } from './cli-paths.js';
import { runProcess, type ProcessOutcome } from './run-process.js';
import { startLockRegistry, type LockRegistry } from './lock-registry.js';

/**
 * A scratch folder holding the tarball `npm pack` makes of this repository, and an npm that
 * installs into folders there as a user's would, without the network: every package name
 * resolves through a registry on 127.0.0.1 that serves what package-lock.json locks (its
 * workspaces' packages included: that is how the test fixtures' Nest 12 and TypeScript 6 are
 * there), from the npm cache `npm install` or `npm ci` filled (see lock-registry.ts), into a
 * fresh npm cache of its own.
 */
export interface PackedProject {
  /** The scratch folder (removed by `close`). */
  readonly work: string;
  /** The packed toolwright tarball, inside `work`. */
  readonly tarball: string;
  /** The environment npm and the commands run with (the local registry, a fresh cache, no audit or fund). */
  readonly env: NodeJS.ProcessEnv;
  /** Runs `script` with `sh -ec` in `cwd`, bounded by `timeoutMs`. */
  sh(script: string, cwd: string, timeoutMs: number): Promise<ProcessOutcome>;
  /** Stops the registry and removes `work`. */
  close(): Promise<void>;
}

/** Packs the repository into a fresh scratch folder named `<prefix>...` and starts the registry. */
export async function packedProject(prefix: string): Promise<PackedProject> {
  const work = mkdtempSync(join(tmpdir(), prefix));
  let registry: LockRegistry | undefined;
  try {
    const cacheDir = (await runProcess('npm', ['config', 'get', 'cache'], { timeoutMs: 60_000 })).stdout.trim();
    const npmRoot = (await runProcess('npm', ['root', '-g'], { timeoutMs: 60_000 })).stdout.trim();
    registry = await startLockRegistry({
      lockPath: join(REPO_ROOT, 'package-lock.json'),
      cacheDir: join(cacheDir, '_cacache'),
      npmRoot,
    });
    // NODE_TEST_CONTEXT is left out: with it, a project's own `node --test` would report to this
    // test runner instead of printing its results.
    const { NODE_TEST_CONTEXT: _context, ...parent } = process.env;
    const env: NodeJS.ProcessEnv = {
      ...parent,
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
      npm_config_loglevel: 'error',
      npm_config_registry: registry.url,
      npm_config_cache: join(work, 'npm-cache'),
      npm_config_prefer_online: 'true',
    };
    const packed = await runProcess('npm', ['pack', '--silent', '--pack-destination', work], {
      cwd: REPO_ROOT,
      timeoutMs: 120_000,
      env: { ...process.env, npm_config_loglevel: 'error' },
    });
    assert.equal(packed.code, 0, packed.stderr);
    const tarball = join(work, packed.stdout.trim().split('\n').pop()!);
    const opened = registry;
    return {
      work,
      tarball,
      env,
      sh: (script, cwd, timeoutMs) => runProcess('sh', ['-ec', script], { cwd, timeoutMs, env }),
      close: async () => {
        await opened.close();
        rmSync(work, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await registry?.close();
    rmSync(work, { recursive: true, force: true });
    throw error;
  }
}

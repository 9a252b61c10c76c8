import type { CliIo } from '../../src/cli/io.js';
import { runCli } from '../../src/cli/run.js';
import assert from 'node:assert/strict';
import { REPO_ROOT } from './cli-paths.js';

/** What one in-process CLI run returned and wrote. */
export interface CliRun {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/**
 * Runs the CLI in this process with `argv`, capturing stdout and stderr as strings, with paths
 * resolved against the repository root. `stop` resolves the run's `stopRequested` (for `serve
 * --http`); by default it never resolves.
 */
export async function runCliCaptured(
  argv: readonly string[],
  stop: Promise<void> = new Promise(() => {}),
): Promise<CliRun> {
  let out = '';
  let err = '';
  const io: CliIo = {
    out: (text) => void (out += text),
    err: (text) => void (err += text),
    cwd: REPO_ROOT,
    stopRequested: () => stop,
  };
  const code = await runCli(argv, io);
  return { code, out, err };
}

/** The message V8 gives for `JSON.parse(text)` (its wording differs between Node versions). */
export function jsonParseMessage(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  assert.fail(`${text} parsed`);
}

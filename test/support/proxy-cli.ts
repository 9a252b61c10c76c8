import { spawn } from 'node:child_process';
import { CLI_PATH } from './cli-paths.js';

/** A `toolwright proxy --http` child: the URL it printed, its stderr so far, and how to stop it. */
export interface ProxyCli {
  readonly url: string;
  stderr(): string;
  /** Sends SIGTERM and resolves the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Spawns `toolwright proxy <args>` (args must serve over `--http`) and resolves once it printed
 * the URL it listens on (waiting at most 30 s, in 10 ms steps); a child that exits or prints no
 * URL in time rejects with its stderr.
 */
export async function startProxyCli(args: readonly string[]): Promise<ProxyCli> {
  const child = spawn(process.execPath, [CLI_PATH, 'proxy', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve((exitCode = code))));
  for (let i = 0; i < 3000 && exitCode === undefined && !/http:\/\/\S+\/mcp/.test(stderr); i++)
    await new Promise((resolve) => setTimeout(resolve, 10));
  const url = /(http:\/\/\S+\/mcp)/.exec(stderr)?.[1];
  if (url === undefined) {
    child.kill('SIGTERM');
    throw new Error(`toolwright proxy printed no URL: ${stderr}`);
  }
  return {
    url,
    stderr: () => stderr,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

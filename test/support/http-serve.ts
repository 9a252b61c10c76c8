import { spawn, type ChildProcess } from 'node:child_process';
import { CLI_PATH } from './cli-paths.js';
import { freePort } from './ports.js';

/** A `toolwright serve --http` child process and the URL it printed. */
export interface ServedOverHttp {
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything the child wrote to stderr so far. */
  stderr(): string;
  /** Sends SIGTERM and resolves the exit code once the child is gone (SIGKILL after `timeoutMs`). */
  stop(timeoutMs?: number): Promise<number | null>;
}

/**
 * Starts `node <cli> serve <module> --http 127.0.0.1:0 [...extra]` and resolves once it printed
 * its URL on stderr. Rejects (after killing the child) if no URL appears within `timeoutMs` or
 * the child exits first, with what it wrote.
 */
export function serveOverHttp(
  module: string,
  extra: readonly string[] = [],
  timeoutMs = 15_000,
): Promise<ServedOverHttp> {
  const child = spawn(process.execPath, [CLI_PATH, 'serve', module, '--http', '127.0.0.1:0', ...extra], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const stop = async (limit = 5_000): Promise<number | null> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), limit);
    const code = await exited;
    clearTimeout(timer);
    return code;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no URL printed within ${timeoutMs} ms; stderr: ${stderr}; stdout: ${stdout}`));
    }, timeoutMs);
    const onData = (): void => {
      const match = /(http:\/\/\S+\/mcp)\b/.exec(stderr);
      if (match === null) return;
      clearTimeout(timer);
      child.stderr!.off('data', onData);
      resolve({ url: match[1]!, child, stderr: () => stderr, stop });
    };
    child.stderr!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code} before printing a URL; stderr: ${stderr}`));
    });
  });
}

/** A TCP port on 127.0.0.1 that nothing listened on a moment ago (for "unreachable" tests). */
export const unusedPort: () => Promise<number> = freePort;

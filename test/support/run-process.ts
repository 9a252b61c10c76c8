import { spawn, type ChildProcess } from 'node:child_process';

/** How a child process ended and what it wrote. */
export interface ProcessOutcome {
  /** The exit code, or `null` when a signal ended it. */
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** True when it was killed for running past `timeoutMs`. */
  readonly timedOut: boolean;
}

/** Options of `runProcess`. */
export interface RunProcessOptions {
  /** Kills the process (SIGKILL) after this many milliseconds. Required: every run is bounded. */
  readonly timeoutMs: number;
  readonly cwd?: string;
  /** Written to stdin, which is then closed (default: stdin closed at once). */
  readonly input?: string;
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * Runs `command args` to completion (or until `timeoutMs`, when it is killed) and resolves how it
 * ended with everything it wrote. It never rejects for a non-zero exit; it rejects only when the
 * process cannot be started.
 */
export function runProcess(
  command: string,
  args: readonly string[],
  options: RunProcessOptions,
): Promise<ProcessOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, timedOut });
    });
    child.stdin.on('error', () => {});
    child.stdin.end(options.input ?? '');
  });
}

/** A child process that printed its first line (see `spawnFixture`). */
export interface PrintingChild {
  readonly child: ChildProcess;
  /** Resolves once the child has exited. */
  readonly exited: Promise<unknown>;
  /** The first line it printed, trimmed. */
  readonly printed: string;
}

/**
 * Starts `node <test/support/<fixture>> ...args` (stderr inherited) and resolves once it printed
 * its first line; rejects with `the fixture exited with <code> before <what>` when it exits first.
 */
export async function spawnFixture(fixture: string, args: readonly string[], what: string): Promise<PrintingChild> {
  const child = spawn(process.execPath, [new URL(`./${fixture}`, import.meta.url).pathname, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const printed = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('\n')) resolve(out.trim());
    });
    child.once('exit', (code) => reject(new Error(`the fixture exited with ${String(code)} before ${what}`)));
  });
  return { child, exited, printed };
}

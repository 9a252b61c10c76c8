import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

/** How a child ended. */
export interface ChildExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** The safety bound on every wait in these tests; a wait that hits it fails the test with a message. */
export const WAIT_LIMIT_MS = 15_000;

/**
 * Runs the stdio fixture server as a real child process and records what it prints: `lines`
 * holds every stdout line verbatim, `stderr` all of stderr. Every wait is bounded by
 * `WAIT_LIMIT_MS` and rejects naming what it waited for.
 */
export class StdioChild {
  readonly child: ChildProcessWithoutNullStreams;
  readonly lines: string[] = [];
  stderr = '';
  readonly exited: Promise<ChildExit>;
  private stdoutRest = '';
  private readonly watchers = new Set<() => void>();
  private nextId = 1;

  constructor(env: Record<string, string> = {}, fixture = 'transport-stdio-fixture.js') {
    const script = new URL(`./${fixture}`, import.meta.url);
    this.child = spawn(process.execPath, [script.pathname], { env: { ...process.env, ...env }, stdio: 'pipe' });
    this.child.stdout.setEncoding('utf8');
    this.child.stderr.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => {
      const parts = (this.stdoutRest + chunk).split('\n');
      this.stdoutRest = parts.pop() ?? '';
      this.lines.push(...parts);
      this.notify();
    });
    this.child.stderr.on('data', (chunk: string) => {
      this.stderr += chunk;
      this.notify();
    });
    this.child.stdin.on('error', () => undefined);
    this.exited = new Promise((resolve) => {
      this.child.on('exit', (code, signal) => {
        resolve({ code, signal });
        this.notify();
      });
    });
  }

  /** Writes one raw line (a `\n` is appended). */
  writeLine(text: string): void {
    this.child.stdin.write(text + '\n');
  }

  /** Sends a request with a fresh numeric id and returns that id. */
  send(method: string, params?: unknown): number {
    const id = this.nextId++;
    this.writeLine(JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }));
    return id;
  }

  /** Sends a request and resolves the parsed response line that carries its id. */
  async request(method: string, params?: unknown): Promise<Record<string, unknown>> {
    const id = this.send(method, params);
    return this.response(id);
  }

  /** Resolves the parsed stdout message whose id is `id`. */
  async response(id: number | string): Promise<Record<string, unknown>> {
    const line = await this.waitFor(`a response with id ${String(id)}`, () =>
      this.lines.find((l) => {
        try {
          return (JSON.parse(l) as { id?: unknown }).id === id;
        } catch {
          return false;
        }
      }),
    );
    return JSON.parse(line) as Record<string, unknown>;
  }

  /** Initializes the MCP session and sends `notifications/initialized`. */
  async initialize(): Promise<void> {
    await this.waitForStderr('probe: ready');
    await this.request('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'stdio-test', version: '1.0.0' },
    });
    this.writeLine(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  }

  /** Resolves once stderr contains `text`. */
  waitForStderr(text: string): Promise<string> {
    return this.waitFor(`stderr to contain ${JSON.stringify(text)}`, () =>
      this.stderr.includes(text) ? text : undefined,
    );
  }

  /** Resolves once stdout holds at least `count` lines. */
  waitForLines(count: number): Promise<string[]> {
    return this.waitFor(`${count} stdout line(s)`, () =>
      this.lines.length >= count ? this.lines.slice(0, count) : undefined,
    );
  }

  /** Resolves how the child exited. */
  async exit(): Promise<ChildExit> {
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`child did not exit; stderr:\n${this.stderr}`)), WAIT_LIMIT_MS);
    });
    try {
      return await Promise.race([this.exited, limit]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Kills the child if it is still running (test cleanup). */
  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }

  waitFor<T>(what: string, check: () => T | undefined): Promise<T> {
    return new Promise((resolve, reject) => {
      const attempt = (): void => {
        const value = check();
        if (value !== undefined) {
          this.watchers.delete(attempt);
          clearTimeout(timer);
          resolve(value);
        }
      };
      const timer = setTimeout(() => {
        this.watchers.delete(attempt);
        reject(new Error(`timed out waiting for ${what}; stdout:\n${this.lines.join('\n')}\nstderr:\n${this.stderr}`));
      }, WAIT_LIMIT_MS);
      this.watchers.add(attempt);
      attempt();
    });
  }

  private notify(): void {
    for (const watcher of [...this.watchers]) watcher();
  }
}

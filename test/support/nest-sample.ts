import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { OUT_DIR, REPO_ROOT } from './cli-paths.js';

/** The compiled ESM NestJS sample's entry. */
export const NEST_ESM_MAIN = join(OUT_DIR, 'samples', 'nest', 'main.js');
/** The compiled CommonJS NestJS sample's entry. */
export const NEST_CJS_MAIN = join(OUT_DIR, 'samples', 'nest', 'cjs', 'main.cjs');

/** How a sample process ended. */
export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** A sample application serving HTTP on 127.0.0.1. */
export interface HttpSample {
  readonly url: URL;
  readonly child: ChildProcess;
  readonly exited: Promise<Exit>;
  stderr(): string;
  /** Sends SIGTERM and waits for the exit (SIGKILL after 20 s). */
  stop(): Promise<Exit>;
}

/**
 * Starts `main --port 0 ...args` and resolves once it printed `listening on <url>` to stderr;
 * rejects when it exits first or has not listened within 60 s (the process is then killed).
 */
export function startHttpSample(main: string, args: readonly string[] = []): Promise<HttpSample> {
  const child = spawn(process.execPath, [main, '--port', '0', ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  const exited = new Promise<Exit>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const stop = async (): Promise<Exit> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const exit = await exited;
    clearTimeout(killer);
    return exit;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the sample did not listen within 60 s; stderr:\n${stderr}`));
    }, 60_000);
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(stderr);
      if (match !== null) {
        clearTimeout(timer);
        resolve({ url: new URL(match[1]!), child, exited, stderr: () => stderr, stop });
      }
    });
    void exited.then((exit) => {
      clearTimeout(timer);
      reject(
        new Error(
          `the sample exited (${JSON.stringify(exit)}) before listening; stdout:\n${stdout}\nstderr:\n${stderr}`,
        ),
      );
    });
  });
}

/** A real SDK client of an HTTP sample, sending `headers` with every request. */
export async function httpClient(url: URL, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'nest-sample-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  return client;
}

/** A real SDK client that started `main --stdio` as its child process. */
export async function stdioClient(
  main: string,
): Promise<{ client: Client; transport: StdioClientTransport; stderr(): string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [main, '--stdio'],
    cwd: REPO_ROOT,
    stderr: 'pipe',
  });
  let stderr = '';
  (transport.stderr as NodeJS.ReadableStream | null)
    ?.setEncoding('utf8')
    .on('data', (chunk: string) => (stderr += chunk));
  const client = new Client({ name: 'nest-sample-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport, stderr: () => stderr };
}

/** The one text block of a tool result. */
export function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  if (content.length !== 1 || content[0]!.type !== 'text')
    throw new Error(`expected one text block, got ${JSON.stringify(result)}`);
  return content[0]!.text!;
}

/**
 * Calls `sleep { ms }` and, once the tool said it is sleeping (its log message reached the
 * client, so the call is in flight), calls `interrupt`. Resolves the call's result.
 */
export async function callWhileInterrupting(client: Client, ms: number, interrupt: () => void): Promise<unknown> {
  let signalled = false;
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    if (!signalled && notification.params.data === `sleeping ${ms} ms`) {
      signalled = true;
      interrupt();
    }
  });
  const result = await client.callTool({ name: 'sleep', arguments: { ms } }, undefined, { timeout: 60_000 });
  if (!signalled) throw new Error('the sleep tool never said it was sleeping');
  return result;
}

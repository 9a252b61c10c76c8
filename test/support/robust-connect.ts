import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';

/** Every wait of the robustness suites is bounded by this; hitting it fails the test with a message. */
export const ROBUST_WAIT_MS = 60_000;

/** How the robustness fixture is served. */
export type RobustTransport = 'stdio' | 'http';

/** A real SDK client connected to the robustness fixture running as a child process. */
export interface RobustPeer {
  readonly client: Client;
  /** The server's URL (HTTP only; `undefined` over stdio). */
  readonly url: string | undefined;
  /** Everything the server process wrote to stderr so far. */
  stderr(): string;
  /** Resolves once stderr contains `text` (bounded). */
  waitForStderr(text: string): Promise<void>;
  /** Whether the server process is still running. */
  alive(): boolean;
  close(): Promise<void>;
}

const FIXTURE = new URL('./robust-fixture.js', import.meta.url).pathname;

/**
 * Starts `robust-fixture.js` as a child process serving over `transport` with the given server
 * and policy options, and connects a real SDK client with `capabilities`: over stdio the SDK's
 * own `StdioClientTransport` spawns it; over HTTP the child listens on 127.0.0.1 (port 0) and
 * the SDK's `StreamableHTTPClientTransport` connects to the URL it prints.
 */
export async function connectRobust(
  transport: RobustTransport,
  options: {
    server?: Record<string, unknown>;
    policy?: Record<string, unknown>;
    capabilities?: ClientCapabilities;
    nodeArgs?: string[];
  } = {},
): Promise<RobustPeer> {
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    ROBUST_SERVER: JSON.stringify(options.server ?? {}),
    ROBUST_POLICY: JSON.stringify(options.policy ?? {}),
    ROBUST_TRANSPORT: transport,
  };
  const client = new Client({ name: 'robust-test', version: '1.0.0' }, { capabilities: options.capabilities ?? {} });
  let stderr = '';
  const watchers = new Set<() => void>();
  const onStderr = (chunk: Buffer | string): void => {
    stderr += chunk.toString();
    for (const watcher of [...watchers]) watcher();
  };
  const waitForStderr = (text: string): Promise<void> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        if (!stderr.includes(text)) return;
        watchers.delete(check);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        watchers.delete(check);
        reject(new Error(`timed out waiting for stderr to contain ${JSON.stringify(text)}; stderr:\n${stderr}`));
      }, ROBUST_WAIT_MS);
      watchers.add(check);
      check();
    });

  if (transport === 'stdio') {
    const stdio = new StdioClientTransport({
      command: process.execPath,
      args: [...(options.nodeArgs ?? []), FIXTURE],
      env,
      stderr: 'pipe',
    });
    stdio.stderr?.on('data', onStderr);
    await client.connect(stdio);
    const pid = stdio.pid;
    return {
      client,
      url: undefined,
      stderr: () => stderr,
      waitForStderr,
      alive: () => pid !== null && isRunning(pid),
      close: () => client.close(),
    };
  }
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), FIXTURE], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr.on('data', onStderr);
  try {
    await waitForStderr('probe: ready');
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  const url = /probe: url (\S+)/.exec(stderr)![1]!;
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return {
    client,
    url,
    stderr: () => stderr,
    waitForStderr,
    alive: () => child.exitCode === null && child.signalCode === null,
    close: async () => {
      await client.close();
      child.kill('SIGKILL');
    },
  };
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Something that runs a cleanup once a test ends (the `t` of a node:test test). */
export type After = { after(fn: () => Promise<void>): void };

/**
 * Servers with the default options, one per transport, shared by the tests of the file that asks
 * for them; `closeSharedPeers` (call it from the file's `after`) closes them.
 */
const sharedPeers = new Map<RobustTransport, Promise<RobustPeer>>();

/** The file's shared server for `transport` with the default options, connected on first use. */
export function sharedPeer(transport: RobustTransport): Promise<RobustPeer> {
  let shared = sharedPeers.get(transport);
  if (shared === undefined) sharedPeers.set(transport, (shared = connectRobust(transport)));
  return shared;
}

/** Closes every shared server `sharedPeer` connected. */
export async function closeSharedPeers(): Promise<void> {
  for (const shared of sharedPeers.values()) await (await shared).close();
  sharedPeers.clear();
}

/** A server of its own for one test, with `options`, closed when the test ends. */
export async function peer(
  t: After,
  transport: RobustTransport,
  options: Parameters<typeof connectRobust>[1] = {},
): Promise<RobustPeer> {
  const connected = await connectRobust(transport, options);
  t.after(() => connected.close());
  return connected;
}

import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  MemoryTaskStore,
  type TaskChange,
  type TaskInit,
  type TaskPage,
  type TaskRecord,
  type TaskStore,
} from '../../src/runtime/index.js';

/**
 * A task store whose ids count (`task-1`, `task-2`, ...), so two servers hand out the same ids:
 * a `MemoryTaskStore` behind a map from the counted id to its own. `created` lists the tasks as
 * they were created, by counted id, and `read` reads any of them back for the test, whoever owns it.
 */
export class CountedIdTaskStore implements TaskStore {
  readonly shared = false;
  private readonly inner = new MemoryTaskStore();
  private readonly innerIds = new Map<string, string>();
  private readonly counted = new Map<string, string>();
  private readonly owners = new Map<string, string>();
  readonly created: string[] = [];

  async create(init: TaskInit): Promise<TaskRecord> {
    const task = await this.inner.create(init);
    const id = `task-${this.created.length + 1}`;
    this.created.push(id);
    this.innerIds.set(id, task.taskId);
    this.counted.set(task.taskId, id);
    this.owners.set(id, init.owner);
    return this.outward(task)!;
  }

  async get(taskId: string, owner: string): Promise<TaskRecord | undefined> {
    const inner = this.innerIds.get(taskId);
    return inner === undefined ? undefined : this.outward(await this.inner.get(inner, owner));
  }

  /** The task `taskId` whoever owns it (for the test's own checks). */
  async read(taskId: string): Promise<TaskRecord | undefined> {
    const inner = this.innerIds.get(taskId);
    return inner === undefined ? undefined : this.outward(await this.inner.get(inner, this.owners.get(taskId)!));
  }

  async update(taskId: string, change: TaskChange): Promise<TaskRecord | undefined> {
    const inner = this.innerIds.get(taskId);
    return inner === undefined ? undefined : this.outward(await this.inner.update(inner, change));
  }

  async list(owner: string, options: { readonly cursor?: string; readonly limit: number }): Promise<TaskPage> {
    const page = await this.inner.list(owner, options);
    return { ...page, tasks: page.tasks.map((task) => this.outward(task)!) };
  }

  private outward(task: TaskRecord | undefined): TaskRecord | undefined {
    return task === undefined ? undefined : { ...task, taskId: this.counted.get(task.taskId) ?? task.taskId };
  }
}

/**
 * An HTTP front on 127.0.0.1 for a server that serves both eras, which makes it a 2025-11-25
 * server to the clients that come through it: it answers `server/discover` with `-32601` (a 2.x
 * client in `auto` mode then initializes a 2025 session) and passes every other request and its
 * answer (JSON or an event stream) through as they are. `close()` stops it.
 */
export async function legacyFront(target: string): Promise<{ readonly url: string; close(): Promise<void> }> {
  const upstream = new URL(target);
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const message =
        body.length === 0 ? undefined : (JSON.parse(body.toString('utf8')) as { id?: unknown; method?: unknown });
      if (message?.method === 'server/discover') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } }),
        );
        return;
      }
      const headers = { ...req.headers, host: upstream.host };
      const forwarded = httpRequest(
        { host: upstream.hostname, port: upstream.port, path: upstream.pathname, method: req.method, headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forwarded.on('error', () => res.destroy());
      res.on('close', () => forwarded.destroy());
      forwarded.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${upstream.pathname}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Runs every cleanup, last first, each bounded to 5 s (one that fails or hangs does not keep the
 * others from running), then fails naming those that did not close.
 */
export async function closeAll(
  cleanups: ReadonlyArray<{ readonly what: string; readonly run: () => Promise<unknown> }>,
): Promise<void> {
  const failed: string[] = [];
  for (const { what, run } of [...cleanups].reverse()) {
    const timedOut = Symbol('timed out');
    let timer: ReturnType<typeof setTimeout> | undefined;
    const outcome = await Promise.race([
      run().then(
        () => undefined,
        (err: unknown) => `${what}: ${err instanceof Error ? err.message : String(err)}`,
      ),
      new Promise<typeof timedOut>((resolve) => (timer = setTimeout(() => resolve(timedOut), 5_000))),
    ]);
    clearTimeout(timer);
    if (outcome === timedOut) failed.push(`${what} did not close within 5 s`);
    else if (outcome !== undefined) failed.push(outcome);
  }
  if (failed.length > 0) throw new Error(`teardown: ${failed.join('; ')}`);
}

/** Polls `read` until `done` holds (at most 300 times, 10 ms apart), else fails naming `what`. */
export async function pollUntil<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let attempt = 0; attempt < 300; attempt++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`${what} did not happen within 3 s`);
}

import { spawn, type ChildProcess } from 'node:child_process';
import type { NodeReady } from './node.js';

/** Options of `NodeProcesses.start`. */
export interface NodeProcessesOptions {
  /** How many processes (1 to 64). */
  readonly count: number;
  /**
   * The compiled script each process runs (it reads `PORT` and `NODE_ID` and prints `NodeReady`,
   * see `runNodeProcess`).
   */
  readonly script: string;
  /** Node ids are `<prefix><index>` (from 1); default `node-`. */
  readonly nodeIdPrefix?: string;
  /** More environment for every process (over the parent's). */
  readonly env?: NodeJS.ProcessEnv;
  /** How long a process may take to print its ready line; default 20 s. */
  readonly startTimeoutMs?: number;
  /**
   * The port of each process, by index (0 or missing: a free one the process picks at its first
   * start). Each must be an integer from 0 to 65535.
   */
  readonly ports?: readonly number[];
  /**
   * Supervise the processes: one that exits while the set runs (a crash, `kill -9`, an OOM kill,
   * `kill(index)`) is started again on its port and node id after `restartDelayMs` (default
   * 500 ms), at most `maxRestarts` times in a row without staying up for 30 s (default 5; past
   * that it stays down, and `onRestart` says so). Default off: a process that exits stays down
   * until `restart(index)`.
   */
  readonly supervise?: boolean;
  readonly restartDelayMs?: number;
  readonly maxRestarts?: number;
  /** Told of each restart the supervisor made or gave up on, in words (default: nothing). */
  readonly onRestart?: (message: string) => void;
}

/** One toolwright process of the set, as it is now. */
export interface NodeProcess {
  readonly index: number;
  readonly nodeId: string;
  /** Its port: chosen by the process at its first start, kept across restarts. */
  readonly port: number;
  /** Its current process id (a restart changes it). */
  readonly pid: number;
  /** `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  /** False once it was killed or exited, until it is restarted. */
  readonly alive: boolean;
}

interface Slot {
  index: number;
  nodeId: string;
  port: number;
  pid: number;
  child: ChildProcess;
  alive: boolean;
  exited: Promise<void>;
  startedAt: number;
}

/** How long a process must stay up for its restarts in a row to count from zero again. */
const STABLE_MS = 30_000;

/**
 * N toolwright server processes on 127.0.0.1, each a child `node <script>` serving HTTP: started
 * together (each on its port from `ports`, else a free one it reports), killed one at a time,
 * restarted on the same port and node id (so a balancer configured with the ports finds it
 * again), by hand (`restart`) or by the supervisor (`supervise`). Every process is killed by
 * `stop()`; nothing is left running.
 */
export class NodeProcesses {
  private readonly slots: Slot[] = [];
  private readonly restartsInARow = new Map<number, number>();
  private readonly pendingRestarts = new Set<Promise<void>>();
  private stopping = false;

  private constructor(private readonly options: NodeProcessesOptions) {}

  /**
   * Starts `count` processes at once and resolves when every one has printed its ready line.
   * Rejects (after killing the ones that started) with `node <id> did not start: <its stderr>`
   * when one exits first or stays silent past `startTimeoutMs`.
   */
  static async start(options: NodeProcessesOptions): Promise<NodeProcesses> {
    if (!Number.isInteger(options.count) || options.count < 1 || options.count > 64)
      throw new RangeError(`count must be an integer from 1 to 64, got ${String(options.count)}`);
    for (const port of options.ports ?? [])
      if (!Number.isInteger(port) || port < 0 || port > 65535)
        throw new RangeError(`ports must be integers from 0 to 65535, got ${String(port)}`);
    const set = new NodeProcesses(options);
    const prefix = options.nodeIdPrefix ?? 'node-';
    const started = await Promise.allSettled(
      Array.from({ length: options.count }, (_, i) => set.launch(i, `${prefix}${i + 1}`, options.ports?.[i] ?? 0)),
    );
    for (const outcome of started) if (outcome.status === 'fulfilled') set.slots[outcome.value.index] = outcome.value;
    const failure = started.find((outcome) => outcome.status === 'rejected');
    if (failure !== undefined) {
      await set.stop();
      throw (failure as PromiseRejectedResult).reason as unknown;
    }
    return set;
  }

  /** The processes, in index order. */
  get nodes(): readonly NodeProcess[] {
    return this.slots.map((slot) => ({
      index: slot.index,
      nodeId: slot.nodeId,
      port: slot.port,
      pid: slot.pid,
      url: `http://127.0.0.1:${slot.port}/mcp`,
      alive: slot.alive,
    }));
  }

  /** Kills process `index` with `signal` (default SIGKILL: no goodbye) and resolves once it has exited. */
  async kill(index: number, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const slot = this.slotAt(index);
    if (slot.alive) slot.child.kill(signal);
    await slot.exited;
  }

  /** Starts process `index` again (after `kill`), on its old port and with its old node id. Rejects as `start` does. */
  async restart(index: number): Promise<void> {
    const slot = this.slotAt(index);
    if (slot.alive) throw new Error(`node ${slot.nodeId} is still running; kill it first`);
    this.slots[index] = await this.launch(index, slot.nodeId, slot.port);
  }

  /** The supervisor: starts process `index` again after it exited, within the restart budget. */
  private supervise(slot: Slot): void {
    if (this.options.supervise !== true || this.stopping || this.slots[slot.index] !== slot) return;
    const tell = this.options.onRestart ?? (() => undefined);
    const inARow = Date.now() - slot.startedAt >= STABLE_MS ? 1 : (this.restartsInARow.get(slot.index) ?? 0) + 1;
    const max = this.options.maxRestarts ?? 5;
    if (inARow > max) {
      tell(`node ${slot.nodeId} exited ${max + 1} times in a row; it stays down`);
      return;
    }
    this.restartsInARow.set(slot.index, inARow);
    const pending = (async () => {
      await new Promise((resolve) => setTimeout(resolve, this.options.restartDelayMs ?? 500));
      if (this.stopping) return;
      try {
        this.slots[slot.index] = await this.launch(slot.index, slot.nodeId, slot.port);
        tell(`node ${slot.nodeId} exited; restarted (pid ${this.slots[slot.index]!.pid})`);
      } catch (error) {
        tell(`node ${slot.nodeId} could not be restarted: ${error instanceof Error ? error.message : String(error)}`);
      }
    })();
    this.pendingRestarts.add(pending);
    void pending.finally(() => this.pendingRestarts.delete(pending));
  }

  /**
   * Resolves once process `index` is alive again (the supervisor restarted it), polling every
   * 50 ms; rejects after `timeoutMs` (default 20 s).
   */
  async whenAlive(index: number, timeoutMs = 20_000): Promise<NodeProcess> {
    const deadline = Date.now() + timeoutMs;
    while (!this.slotAt(index).alive) {
      if (Date.now() > deadline)
        throw new Error(`node ${this.slotAt(index).nodeId} was not back within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return this.nodes[index]!;
  }

  /**
   * Stops every process still running (SIGTERM, SIGKILL after 5 s; the supervisor restarts none
   * from now on) and resolves once all have exited.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.allSettled([...this.pendingRestarts]);
    await Promise.all(
      this.slots.map(async (slot) => {
        if (!slot.alive) return;
        slot.child.kill('SIGTERM');
        const timer = setTimeout(() => slot.child.kill('SIGKILL'), 5000);
        await slot.exited;
        clearTimeout(timer);
      }),
    );
  }

  private slotAt(index: number): Slot {
    const slot = this.slots[index];
    if (slot === undefined) throw new RangeError(`no node process ${index} (there are ${this.slots.length})`);
    return slot;
  }

  private launch(index: number, nodeId: string, port: number): Promise<Slot> {
    const env = { ...process.env, ...this.options.env, PORT: String(port), NODE_ID: nodeId };
    const child = spawn(process.execPath, [this.options.script], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-4000);
      // A node's later complaints reach the test output, never silently lost.
      if (this.options.env?.CLUSTER_QUIET !== '1') process.stderr.write(`[${nodeId}] ${chunk}`);
    });
    let slot: Slot | undefined;
    const exited = new Promise<void>((resolve) =>
      child.once('exit', () => {
        if (slot !== undefined) {
          slot.alive = false;
          this.supervise(slot);
        }
        resolve();
      }),
    );
    return new Promise<Slot>((resolve, reject) => {
      let line = '';
      const fail = (why: string): void => {
        clearTimeout(timer);
        child.kill('SIGKILL');
        reject(new Error(`node ${nodeId} did not start: ${why}${stderr.trim() === '' ? '' : `: ${stderr.trim()}`}`));
      };
      const timer = setTimeout(
        () => fail(`no ready line within ${this.options.startTimeoutMs ?? 20_000} ms`),
        this.options.startTimeoutMs ?? 20_000,
      );
      child.once('exit', (code, signal) => slot === undefined && fail(`it exited (${code ?? signal})`));
      child.once('error', (error) => fail(error.message));
      child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
        if (slot !== undefined) return;
        line += chunk;
        const end = line.indexOf('\n');
        if (end === -1) return;
        clearTimeout(timer);
        const ready = JSON.parse(line.slice(0, end)) as NodeReady;
        slot = { index, nodeId, port: ready.port, pid: ready.pid, child, alive: true, exited, startedAt: Date.now() };
        resolve(slot);
      });
    });
  }
}

import { randomBytes } from '../../../util/random.js';
import { metricsOf, otelNames } from '../../../runtime/internal.js';
import { InputRoundStoppedError } from './errors.js';
import { resolveInputRoundOptions, type InputRoundOptions, type ResolvedInputRoundOptions } from './options.js';
import type { ParkedRun, RunHost } from './parked-run.js';
import type { RunBinding } from './run-binding.js';
import { RunRelay } from './run-relay.js';

export type { RunBinding };

interface Entry {
  readonly run: ParkedRun;
  readonly binding: RunBinding;
  /** When the call is abandoned (`performance.now()` milliseconds). */
  readonly deadline: number;
}

/**
 * The calls of one served tool set that wait for a client's answers (2026-07-28 input rounds),
 * keyed by the `requestState` minted when each was parked: 16 random bytes in hex, prefixed
 * `<nodeId>.` when a node id is configured. A state answers once (`take` removes it), only for
 * the same connection and principal and the same tool; a call not taken back within
 * `abandonAfterMs` is stopped and forgotten. One client (see `RunBinding.client`) has at most
 * `maxParkedPerClient` calls parked at once. Parked calls live in this process; with a `relay`
 * (see `InputRoundOptions.relay` and `RunRelay`), retries that reach another process of the
 * cluster are relayed here, and retries for calls of other nodes are relayed there.
 */
export class ParkedRuns implements RunHost {
  readonly options: ResolvedInputRoundOptions;
  /** The relay to and from the other nodes, when `options.relay` is set. */
  readonly relay: RunRelay | undefined;
  /**
   * The parked calls in the order they were parked. Every call waits the same `abandonAfterMs`,
   * so this is also the order their deadlines come in: one timer, set for the first, abandons
   * them (a timer per call would cost each parked call about 250 bytes more).
   */
  private readonly entries = new Map<string, Entry>();
  private sweep: NodeJS.Timeout | undefined;
  /** How many calls each client has parked (see `RunBinding.client`). */
  private readonly perClient = new Map<string | object | undefined, number>();

  /** Throws a `TypeError` naming a bad option (see `resolveInputRoundOptions`). */
  constructor(options: InputRoundOptions = {}) {
    this.options = resolveInputRoundOptions(options);
    const { relay, nodeId, relayTimeoutMs } = this.options;
    this.relay =
      relay === undefined || nodeId === undefined
        ? undefined
        : new RunRelay(relay, nodeId, relayTimeoutMs, (state, binding, tool) => this.take(state, binding, tool));
  }

  /**
   * The node id in front of `state` (`<nodeId>.<hex>`), or `undefined` for a state minted
   * without one.
   */
  static nodeOf(state: string): string | undefined {
    const dot = state.indexOf('.');
    return dot === -1 ? undefined : state.slice(0, dot);
  }

  /** Starts listening for relayed retries (when there is a relay). Rejects when the relay's bus cannot listen. */
  async open(): Promise<void> {
    await this.relay?.open();
  }

  /**
   * True when `state` has the form of a state some toolwright process minted (any node id, then
   * 32 hex digits); a state of any other form was not made here or was tampered with.
   */
  static isWellFormed(state: string): boolean {
    return /^(?:[A-Za-z0-9_-]{1,64}\.)?[0-9a-f]{32}$/.test(state);
  }

  /** How many input requests one call may send in all (`maxRequests`). */
  get maxRequests(): number {
    return this.options.maxRequests;
  }

  /** How many calls one client may have parked at once (`maxParkedPerClient`). */
  get maxParkedPerClient(): number {
    return this.options.maxParkedPerClient;
  }

  /** How many calls are parked. */
  get size(): number {
    return this.entries.size;
  }

  /** How many calls `client` has parked (see `RunBinding.client`). */
  parkedBy(client: string | object | undefined): number {
    return this.perClient.get(client) ?? 0;
  }

  /**
   * Parks `run` and returns its fresh `requestState`, or `undefined` (nothing parked) when its
   * client already has `maxParkedPerClient` calls parked.
   */
  park(run: ParkedRun, binding: RunBinding): string | undefined {
    if (this.parkedBy(binding.client) >= this.options.maxParkedPerClient) return undefined;
    const hex = randomBytes(16).toString('hex');
    const state = this.options.nodeId === undefined ? hex : `${this.options.nodeId}.${hex}`;
    this.entries.set(state, { run, binding, deadline: performance.now() + this.options.abandonAfterMs });
    if (this.sweep === undefined) this.sweepIn(this.options.abandonAfterMs);
    this.perClient.set(binding.client, this.parkedBy(binding.client) + 1);
    metricsOf()?.runsParked.add(1, { [otelNames.ATTR_GEN_AI_TOOL_NAME]: run.tool });
    return state;
  }

  /** Sets the one timer to abandon the calls whose deadline passed, `ms` from now. */
  private sweepIn(ms: number): void {
    this.sweep = setTimeout(() => this.abandonExpired(), ms);
    this.sweep.unref();
  }

  /**
   * Stops and forgets every call whose deadline passed (the first ones parked), then sets the
   * timer for the next one, if any. A timer may fire a little before the deadline it was set for
   * (the event loop's clock lags): a call is never abandoned early, the timer is set again.
   */
  private abandonExpired(): void {
    this.sweep = undefined;
    const now = performance.now();
    for (const [state, entry] of this.entries) {
      if (entry.deadline > now) {
        if (this.sweep === undefined) this.sweepIn(Math.max(1, Math.ceil(entry.deadline - now)));
        return;
      }
      this.remove(state, entry);
      entry.run.stop(new InputRoundStoppedError(`no answer came within ${this.options.abandonAfterMs} ms`));
    }
  }

  /** Forgets the entry parked under `state` (the call itself is left alone); the timer stops with the last one. */
  private remove(state: string, entry: Entry): void {
    this.entries.delete(state);
    if (this.entries.size === 0 && this.sweep !== undefined) {
      clearTimeout(this.sweep);
      this.sweep = undefined;
    }
    metricsOf()?.runsParked.add(-1, { [otelNames.ATTR_GEN_AI_TOOL_NAME]: entry.run.tool });
    const left = this.parkedBy(entry.binding.client) - 1;
    if (left > 0) this.perClient.set(entry.binding.client, left);
    else this.perClient.delete(entry.binding.client);
  }

  /**
   * Takes back the call parked under `state`, or `undefined` when there is none, or it is bound
   * to another connection or principal, or it runs another tool (the entry then stays for its
   * rightful owner).
   */
  take(state: string, binding: RunBinding, tool: string): ParkedRun | undefined {
    const entry = this.entries.get(state);
    if (entry === undefined) return undefined;
    if (
      entry.binding.connection !== binding.connection ||
      entry.binding.principal !== binding.principal ||
      entry.run.tool !== tool
    )
      return undefined;
    this.remove(state, entry);
    return entry.run;
  }

  /** Forgets `run` wherever it is parked (it finished or was stopped by other means). */
  forget(run: ParkedRun): void {
    for (const [state, entry] of this.entries) {
      if (entry.run !== run) continue;
      this.remove(state, entry);
    }
  }

  /** Stops every call parked for `connection` (its session ended). */
  endConnection(connection: object): void {
    for (const [state, entry] of [...this.entries]) {
      if (entry.binding.connection !== connection) continue;
      this.remove(state, entry);
      entry.run.stop(new InputRoundStoppedError('the session ended'));
    }
  }

  /** Stops every parked call (the server is shutting down) and stops relaying (see `RunRelay.close`). */
  closeAll(): Promise<void> {
    for (const [state, entry] of [...this.entries]) {
      this.remove(state, entry);
      entry.run.stop(new InputRoundStoppedError('the server is shutting down'));
    }
    return this.relay?.close() ?? Promise.resolve();
  }
}

import { randomBytes } from '../../../util/random.js';
import type { RequestId } from '@modelcontextprotocol/server';
import { errorText } from '../../../util/describe.js';
import type { HandlerExtra } from '../extra.js';
import { relayFailedText, STALE_STATE_TEXT } from './errors.js';
import type { ParkedRun } from './parked-run.js';
import type { RunBinding } from './run-binding.js';
import type { RelayBus, RelayListener } from './relay-bus.js';
import {
  fromWireError,
  parseRelayMessage,
  toWireOutcome,
  type RelayMessage,
  type RetryMessage,
  type WireOutcome,
} from './relay-messages.js';

/** A retry this node received for a call another node owns. */
export interface ForeignRetry {
  readonly state: string;
  readonly tool: string;
  readonly principal: string | undefined;
  readonly responses: Readonly<Record<string, unknown>>;
  /** The retry's own request: its capabilities, log level, signal, and where notifications go. */
  readonly extra: HandlerExtra;
}

/** A relayed retry this node waits on. */
interface Pending {
  readonly extra: HandlerExtra;
  readonly settle: (outcome: WireOutcome | { readonly kind: 'failed'; readonly reason: string }) => void;
  readonly rearm: () => void;
}

/** How a node takes back a call parked here (`ParkedRuns.take`). */
export type TakeParked = (state: string, binding: RunBinding, tool: string) => ParkedRun | undefined;

/**
 * The parked-run relay of one node: lets a 2026-07-28-era retry reach the process whose call it
 * answers, whichever process the balancer gave it to. Both sides live in every node:
 *
 * - Receiving a retry whose `requestState` names another node (`forward`): the retry's answers,
 *   principal, capabilities and log level are sent to that node over the bus, and the request
 *   waits for the owner's outcome (a result, the next `input_required` round, or a protocol
 *   error), relaying the call's notifications meanwhile. It is answered with the "call the tool
 *   again" `isError` result (`STALE_STATE_TEXT`) when no process listens for that node (it died),
 *   when the owner has no such call waiting for this principal and tool, or when the owner stays
 *   silent for `timeoutMs` (it stopped mid-call); with `relayFailedText` when the bus fails. A
 *   client hanging up sends the owner a cancel, which stops the call as a local hang-up does.
 * - Owning a parked call (`handle`): a relayed retry takes the call back exactly as a local one
 *   does (same state, principal and tool, answered once), resumes it, says it is alive at once and
 *   every third of the shorter of both nodes' `timeoutMs` while the call runs, and sends the
 *   outcome back.
 *
 * The relay carries answers, never credentials: the receiving node authenticated the retry and
 * names its principal; the owner refuses a retry of another principal as it does locally. The bus
 * must be trusted as the processes trust each other.
 */
export class RunRelay {
  private listening: Promise<RelayListener> | undefined;
  private readonly pending = new Map<string, Pending>();
  /** Relayed retries this node serves as owner, by relay id: aborting one stops its call. */
  private readonly serving = new Map<string, AbortController>();
  private closed = false;

  constructor(
    private readonly bus: RelayBus,
    readonly nodeId: string,
    private readonly timeoutMs: number,
    private readonly take: TakeParked,
  ) {}

  /**
   * Starts listening for this node's messages (once; later calls share the first). Rejects when the
   * bus cannot listen.
   */
  open(): Promise<void> {
    if (this.listening === undefined) {
      this.listening = this.bus.listen(this.nodeId, (text) => this.receive(text));
      // A failed start is retried by the next call rather than remembered.
      this.listening.catch(() => (this.listening = undefined));
    }
    return this.listening.then(() => undefined);
  }

  /**
   * Stops listening; retries still waiting here are answered `STALE_STATE_TEXT`, relayed ones
   * served here are stopped.
   */
  async close(): Promise<void> {
    this.closed = true;
    for (const pending of [...this.pending.values()]) pending.settle({ kind: 'stale' });
    for (const controller of this.serving.values()) controller.abort();
    const listening = this.listening;
    this.listening = undefined;
    if (listening !== undefined) await (await listening.catch(() => undefined))?.close();
  }

  /** Relays `retry` to `owner` and resolves the answer for its request (or rejects with the owner's protocol error). */
  async forward(owner: string, retry: ForeignRetry): Promise<Record<string, unknown>> {
    if (this.closed) return staleResult();
    try {
      await this.open();
    } catch (error) {
      return failedResult(errorText(error));
    }
    const id = randomBytes(12).toString('hex');
    const message: RetryMessage = {
      type: 'retry',
      id,
      from: this.nodeId,
      state: retry.state,
      tool: retry.tool,
      ...(retry.principal !== undefined ? { principal: retry.principal } : {}),
      responses: retry.responses,
      ...(retry.extra.clientCapabilities() !== undefined ? { capabilities: retry.extra.clientCapabilities()! } : {}),
      ...(retry.extra.requestLogLevel !== undefined ? { logLevel: retry.extra.requestLogLevel } : {}),
      timeoutMs: this.timeoutMs,
    };
    const outcome = await new Promise<WireOutcome | { readonly kind: 'failed'; readonly reason: string }>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const onAbort = (): void => {
        void this.bus.send(owner, JSON.stringify({ type: 'cancel', id })).catch(() => undefined);
        settle({ kind: 'stale' });
      };
      const settle: Pending['settle'] = (outcome) => {
        if (!this.pending.has(id)) return;
        this.pending.delete(id);
        clearTimeout(timer);
        retry.extra.signal.removeEventListener('abort', onAbort);
        resolve(outcome);
      };
      const rearm = (): void => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          // The owner went silent: it is gone or stuck. Tell it to stop, in case it still hears.
          void this.bus.send(owner, JSON.stringify({ type: 'cancel', id })).catch(() => undefined);
          settle({ kind: 'stale' });
        }, this.timeoutMs);
      };
      this.pending.set(id, { extra: retry.extra, settle, rearm });
      retry.extra.signal.addEventListener('abort', onAbort, { once: true });
      if (retry.extra.signal.aborted) return onAbort();
      rearm();
      this.bus.send(owner, JSON.stringify(message)).then(
        (delivered) => delivered || settle({ kind: 'stale' }),
        (error: unknown) => settle({ kind: 'failed', reason: errorText(error) }),
      );
    });
    switch (outcome.kind) {
      case 'result':
      case 'input':
        return outcome.result;
      case 'error':
        throw fromWireError(outcome.error);
      case 'stale':
        return staleResult();
      case 'failed':
        return failedResult(outcome.reason);
    }
  }

  private receive(text: string): void {
    const message = parseRelayMessage(text);
    if (message === undefined) return;
    if (message.type === 'retry') return void this.serve(message);
    if (message.type === 'cancel') {
      this.serving.get(message.id)?.abort();
      return;
    }
    this.reply(message);
  }

  /** A reply to a retry this node relayed. */
  private reply(message: Exclude<RelayMessage, RetryMessage | { type: 'cancel' }>): void {
    const pending = this.pending.get(message.id);
    if (pending === undefined) return;
    if (message.type === 'alive') return pending.rearm();
    if (message.type === 'notify') {
      pending.rearm();
      return void pending.extra.sendNotification(message.notification);
    }
    if (message.type === 'outcome') pending.settle(message.outcome);
  }

  /** Serves a retry relayed to this node, the owner of its call (see the class comment). */
  private async serve(retry: RetryMessage): Promise<void> {
    const send = (message: RelayMessage): void =>
      void this.bus.send(retry.from, JSON.stringify(message)).catch(() => undefined);
    const run = this.take(retry.state, { connection: undefined, principal: retry.principal }, retry.tool);
    if (run === undefined) return send({ type: 'outcome', id: retry.id, outcome: { kind: 'stale' } });
    const controller = new AbortController();
    this.serving.set(retry.id, controller);
    send({ type: 'alive', id: retry.id });
    // As often as the waiting node needs to hear from it (its own relayTimeoutMs may differ).
    const timeoutMs =
      typeof retry.timeoutMs === 'number' && retry.timeoutMs > 0
        ? Math.min(retry.timeoutMs, this.timeoutMs)
        : this.timeoutMs;
    const heartbeat = setInterval(() => send({ type: 'alive', id: retry.id }), Math.max(1, Math.floor(timeoutMs / 3)));
    heartbeat.unref();
    const extra: HandlerExtra = {
      requestId: `relay-${retry.id}` as RequestId,
      signal: controller.signal,
      sessionId: undefined,
      _meta: undefined,
      authInfo: undefined,
      era: 'modern',
      clientCapabilities: () => retry.capabilities,
      requestLogLevel: retry.logLevel,
      sendNotification: async (notification) => send({ type: 'notify', id: retry.id, notification }),
      sendRequest: () => Promise.reject(new Error('a relayed 2026-07-28 retry sends no requests to the client')),
    };
    try {
      const outcome = await run.resume(extra, retry.responses);
      send({ type: 'outcome', id: retry.id, outcome: toWireOutcome(outcome) });
    } finally {
      clearInterval(heartbeat);
      this.serving.delete(retry.id);
    }
  }
}

function staleResult(): Record<string, unknown> {
  return { content: [{ type: 'text', text: STALE_STATE_TEXT }], isError: true };
}

function failedResult(reason: string): Record<string, unknown> {
  return { content: [{ type: 'text', text: relayFailedText(reason) }], isError: true };
}

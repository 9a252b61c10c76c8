import type { ClientCapabilities } from '@modelcontextprotocol/server';
import { isJsonObject } from '../../../contract/index.js';
import type { LogLevel } from '../../../contract/index.js';
import type { OutboundRequest } from '../extra.js';
import { ProtocolError } from '../protocol-error.js';
import type { RoundOutcome } from './parked-run.js';

/** A retry relayed to the node that owns its parked call (receiver -> owner). */
export interface RetryMessage {
  readonly type: 'retry';
  /** The relay's own id for this retry (replies name it). */
  readonly id: string;
  /** The node that received the retry, where the replies go. */
  readonly from: string;
  readonly state: string;
  readonly tool: string;
  /** The principal the receiving node authenticated the retry as; absent without auth. */
  readonly principal?: string;
  readonly responses: Readonly<Record<string, unknown>>;
  /** The retry's client capabilities (its `_meta` envelope's). */
  readonly capabilities?: ClientCapabilities;
  /** The log level the retry asked for. */
  readonly logLevel?: LogLevel;
  /** The receiver's `relayTimeoutMs`: the owner says it is alive at least every third of it. */
  readonly timeoutMs?: number;
}

/** The client gave up on a relayed retry (receiver -> owner): the owner stops the call, as a local hang-up does. */
export interface CancelMessage {
  readonly type: 'cancel';
  readonly id: string;
}

/**
 * The owner still works on a relayed retry (owner -> receiver; sent when it takes the call, then at
 * every heartbeat).
 */
export interface AliveMessage {
  readonly type: 'alive';
  readonly id: string;
}

/** A notification (progress, log) of the call while a relayed retry waits (owner -> receiver). */
export interface NotifyMessage {
  readonly type: 'notify';
  readonly id: string;
  readonly notification: OutboundRequest;
}

/** A protocol error as it crosses the bus. */
export interface WireError {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/**
 * What a relayed retry is answered with, as it crosses the bus: the round's outcome, or `stale` (no
 * such call waits there).
 */
export type WireOutcome =
  | { readonly kind: 'result' | 'input'; readonly result: Record<string, unknown> }
  | { readonly kind: 'error'; readonly error: WireError }
  | { readonly kind: 'stale' };

/** The owner's answer to a relayed retry (owner -> receiver). */
export interface OutcomeMessage {
  readonly type: 'outcome';
  readonly id: string;
  readonly outcome: WireOutcome;
}

export type RelayMessage = RetryMessage | CancelMessage | AliveMessage | NotifyMessage | OutcomeMessage;

const TYPES: ReadonlySet<string> = new Set(['retry', 'cancel', 'alive', 'notify', 'outcome']);

/**
 * The relay message `text` holds, or `undefined` when it is not one (not JSON, no known `type`,
 * no string `id`, or a retry without its string fields): such a message is dropped.
 */
export function parseRelayMessage(text: string): RelayMessage | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isJsonObject(value) || typeof value.type !== 'string' || !TYPES.has(value.type) || typeof value.id !== 'string')
    return undefined;
  if (
    value.type === 'retry' &&
    (typeof value.from !== 'string' ||
      typeof value.state !== 'string' ||
      typeof value.tool !== 'string' ||
      !isJsonObject(value.responses))
  )
    return undefined;
  if (value.type === 'outcome' && !isJsonObject(value.outcome)) return undefined;
  return value as unknown as RelayMessage;
}

/**
 * A round's outcome as it crosses the bus. An error becomes its JSON-RPC form: a `ProtocolError`
 * (or any error with a numeric `code`) keeps its code, message and data; any other error is
 * `-32603` with its message, as the SDK answers an error a handler throws.
 */
export function toWireOutcome(outcome: RoundOutcome): WireOutcome {
  if (outcome.kind !== 'error') return outcome;
  const error = outcome.error as { code?: unknown; message?: unknown; data?: unknown } | undefined;
  const message = typeof error?.message === 'string' ? error.message : String(outcome.error);
  if (typeof error?.code === 'number')
    return {
      kind: 'error',
      error: { code: error.code, message, ...(error.data !== undefined ? { data: error.data } : {}) },
    };
  return { kind: 'error', error: { code: -32603, message } };
}

/** The error a relayed `error` outcome is thrown as on the receiving node. */
export function fromWireError(error: WireError): ProtocolError {
  return new ProtocolError(error.code, error.message, error.data);
}

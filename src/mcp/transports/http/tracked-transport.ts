import {
  WebStandardStreamableHTTPServerTransport,
  type JSONRPCMessage,
  type RequestId,
  type TransportSendOptions,
  type WebStandardStreamableHTTPServerTransportOptions,
} from '@modelcontextprotocol/server';
import { messageKind } from '../jsonrpc-shape.js';
import { maxMessageBytesOf, serialiseOutgoing } from '../outgoing.js';

/** Options of `TrackedHttpTransport`: the SDK's, plus the largest message it sends. */
export interface TrackedHttpTransportOptions extends WebStandardStreamableHTTPServerTransportOptions {
  /** The largest message sent, in bytes (see `serialiseOutgoing`); default `DEFAULT_MAX_MESSAGE_BYTES`. */
  readonly maxMessageBytes?: number;
  /** Receives one line when a response had to be replaced or a message dropped. */
  readonly log?: (message: string) => void;
}

/**
 * The SDK's `WebStandardStreamableHTTPServerTransport`, reporting every response it has written
 * (after the write, whether or not it succeeded) to `onResponseSent`, so `InFlightCalls` knows
 * which requests of a POST are still open. Every request is answered once: a response that
 * cannot be serialised (a `BigInt`, a cycle) or is over `maxMessageBytes` is replaced by one that
 * says why, and a request or notification that cannot be sent is not sent (the send rejects with
 * the reason); see `serialiseOutgoing`.
 */
export class TrackedHttpTransport extends WebStandardStreamableHTTPServerTransport {
  onResponseSent?: (id: RequestId) => void;
  private readonly maxMessageBytes: number;
  private readonly log: (message: string) => void;

  constructor(options: TrackedHttpTransportOptions) {
    super(options);
    this.maxMessageBytes = maxMessageBytesOf(options.maxMessageBytes, 'createHttpHandler');
    this.log = options.log ?? (() => undefined);
  }

  override async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    try {
      const outgoing = serialiseOutgoing(message, this.maxMessageBytes);
      if (outgoing.kind === 'drop') {
        this.log(outgoing.why);
        throw new Error(outgoing.why);
      }
      if (outgoing.replaced !== undefined)
        this.log(`request ${JSON.stringify((message as { id?: RequestId }).id)}: ${outgoing.replaced}`);
      await super.send(outgoing.message, options);
    } finally {
      const id = messageKind(message) === 'response' ? (message as { id?: RequestId }).id : undefined;
      if (id !== undefined) this.onResponseSent?.(id);
    }
  }
}

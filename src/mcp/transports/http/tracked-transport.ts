import {
  WebStandardStreamableHTTPServerTransport,
  type JSONRPCMessage,
  type RequestId,
  type TransportSendOptions,
  type WebStandardStreamableHTTPServerTransportOptions,
} from '@modelcontextprotocol/server';
import { messageKind } from '../jsonrpc-shape.js';

/**
 * The SDK's `WebStandardStreamableHTTPServerTransport`, reporting every response it has written
 * (after the write, whether or not it succeeded) to `onResponseSent`, so `InFlightCalls` knows
 * which requests of a POST are still open.
 */
export class TrackedHttpTransport extends WebStandardStreamableHTTPServerTransport {
  onResponseSent?: (id: RequestId) => void;

  constructor(options: WebStandardStreamableHTTPServerTransportOptions) {
    super(options);
  }

  override async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    try {
      await super.send(message, options);
    } finally {
      const id = messageKind(message) === 'response' ? (message as { id?: RequestId }).id : undefined;
      if (id !== undefined) this.onResponseSent?.(id);
    }
  }
}

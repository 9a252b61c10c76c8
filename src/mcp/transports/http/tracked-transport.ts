import { StreamableHTTPServerTransport, type StreamableHTTPServerTransportOptions } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { messageKind } from '../jsonrpc-shape.js';

/**
 * The SDK's `StreamableHTTPServerTransport`, reporting every response it has written (after the
 * write, whether or not it succeeded) to `onResponseSent`, so `InFlightCalls` knows which
 * requests of a POST are still open.
 */
export class TrackedHttpTransport extends StreamableHTTPServerTransport {
  onResponseSent?: (id: RequestId) => void;

  constructor(options: StreamableHTTPServerTransportOptions) {
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

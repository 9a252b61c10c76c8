import { StreamableHTTPServerTransport, type StreamableHTTPServerTransportOptions } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isJSONRPCErrorResponse, isJSONRPCResultResponse, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';

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
      if ((isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) && message.id !== undefined) {
        this.onResponseSent?.(message.id);
      }
    }
  }
}

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** A real SDK 1.x client connected in memory to `server`, counting the requests it sent by method. */
export interface CountedClient {
  readonly client: Client;
  /** Every JSON-RPC request the client sent, in order (method and params). */
  readonly sent: Array<{ method: string; params?: unknown }>;
  /** Every notification the client sent, in order (method and params). */
  readonly notified: Array<{ method: string; params?: unknown }>;
  close(): Promise<void>;
}

/** Connects a fresh client (offering elicitation) to `server` over a linked in-memory pair. */
export async function connectCounted(
  server: Server | { connect(t: unknown): Promise<void>; close(): Promise<void> },
): Promise<CountedClient> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const sent: Array<{ method: string; params?: unknown }> = [];
  const notified: Array<{ method: string; params?: unknown }> = [];
  const send = clientTransport.send.bind(clientTransport);
  clientTransport.send = async (message: JSONRPCMessage, options) => {
    if ('method' in message && 'id' in message)
      sent.push(structuredClone({ method: message.method, params: message.params }));
    else if ('method' in message) notified.push(structuredClone({ method: message.method, params: message.params }));
    return send(message, options);
  };
  const client = new Client(
    { name: 'consume-test', version: '1.0.0' },
    { capabilities: { elicitation: { form: {}, url: {} } } },
  );
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  return {
    client,
    sent,
    notified,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

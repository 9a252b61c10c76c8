import { Client, type ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport, type JSONRPCMessage, type Server } from '@modelcontextprotocol/server';
import { createServer, type ServerOptions } from '../../src/mcp/server/index.js';
import type { ContractTool } from '../../src/contract/index.js';

/**
 * A real SDK 1.x client (the 2025-11-25 era) connected in memory to a 2.x server, with every
 * message the server sent.
 */
export interface Connected {
  readonly client: Client;
  readonly server: Server;
  /** Every JSON-RPC message the server sent, in order, as sent (deep copies). */
  readonly wire: JSONRPCMessage[];
  close(): Promise<void>;
}

/** Connects a fresh client to `server` over a linked in-memory pair. */
export async function connect(server: Server, clientOptions: ClientOptions = {}): Promise<Connected> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const wire: JSONRPCMessage[] = [];
  const send = serverTransport.send.bind(serverTransport);
  serverTransport.send = async (message, options) => {
    wire.push(structuredClone(message));
    return send(message, options);
  };
  const client = new Client({ name: 'server-test-client', version: '1.0.0' }, clientOptions);
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  return {
    client,
    server,
    wire,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/** Builds a server for `tools` with `createServer` and connects a fresh client to it. */
export async function serve(
  tools: readonly ContractTool[],
  clientOptions: ClientOptions = {},
  options: ServerOptions = { transport: 'memory' },
): Promise<Connected> {
  return connect(createServer({ name: 'server-test', version: '0.0.1' }, tools, options), clientOptions);
}

/** The result messages (by request id) the server sent, for exact wire checks. */
export function responsesOf(wire: readonly JSONRPCMessage[]): JSONRPCMessage[] {
  return wire.filter((message) => 'id' in message && ('result' in message || 'error' in message));
}

/** The notifications with `method` the server sent, their params only. */
export function notificationsOf(wire: readonly JSONRPCMessage[], method: string): unknown[] {
  return wire
    .filter((message) => 'method' in message && !('id' in message) && message.method === method)
    .map((message) => (message as { params?: unknown }).params);
}

/** Resolves once `condition()` holds, checking every few milliseconds, at most `tries` times. */
export async function until(condition: () => boolean, tries = 400): Promise<void> {
  for (let attempt = 0; attempt < tries; attempt++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('condition not met in time');
}

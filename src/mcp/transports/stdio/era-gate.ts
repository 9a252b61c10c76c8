import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { serveStdio as serveSdkStdio } from '@modelcontextprotocol/server/stdio';
import { connectsAsTheSdk } from '../direct-dispatch.js';
import type { ServerFactory } from '../server-factory.js';
import type { HardenedStdioTransport } from './stdio-transport.js';

/** What serves a stdio connection once its era is known. */
export interface StdioServing {
  close(): Promise<void>;
}

/**
 * True when an opening message claims the 2026-07-28 era: its params carry the per-request
 * `_meta` envelope's protocol version (a 2025 `initialize`, or anything without the claim, is
 * 2025-era traffic, as the SDK's own `serveStdio` classifies it).
 */
export function claimsModernEra(message: JSONRPCMessage): boolean {
  const params = (message as { params?: unknown }).params;
  const meta = typeof params === 'object' && params !== null ? (params as { _meta?: unknown })._meta : undefined;
  return typeof meta === 'object' && meta !== null && 'io.modelcontextprotocol/protocolVersion' in meta;
}

/**
 * Starts `transport` and picks how to serve the connection from its first message: 2025-era traffic
 * (the usual `initialize` first) connects one server from `factory` straight to the transport, with
 * nothing in between (and, when the server connects with the SDK's own `connect`, the transport
 * then dispatches to it directly: see `dispatchDirectlyTo`); a first message that claims the
 * 2026-07-28 era hands the transport to the SDK's `serveStdio`, which pins that era (and can fall
 * back to 2025 after a `server/discover` probe). Messages that arrive while the choice is being
 * made are held by the transport and delivered in order once it is made. Resolves once the
 * transport reads; the returned serving's `close()` closes the server (or, before any message came,
 * the transport).
 */
export async function serveByEra(factory: ServerFactory, transport: HardenedStdioTransport): Promise<StdioServing> {
  let chosen: StdioServing | undefined;
  const choose = async (first: JSONRPCMessage): Promise<void> => {
    transport.onmessage = undefined;
    if (claimsModernEra(first)) {
      // serveStdio takes the transport's callbacks over and starts it (already started: a no-op).
      chosen = serveSdkStdio(factory, { transport, onerror: () => undefined });
    } else {
      const server = factory();
      await server.connect(transport);
      // The SDK's message handler only classifies what this transport already checked.
      if (connectsAsTheSdk(server)) transport.dispatchDirectlyTo(server);
      chosen = { close: () => server.close() };
    }
    const deliver = transport.onmessage as ((message: JSONRPCMessage) => void) | undefined;
    deliver?.(first);
    transport.release();
  };
  transport.onmessage = (first) => {
    // Later lines wait in the transport until the server is connected, so order is kept.
    transport.hold();
    choose(first).catch(() => void transport.close());
  };
  await transport.start();
  return {
    close: async () => {
      if (chosen !== undefined) await chosen.close();
      else await transport.close();
    },
  };
}

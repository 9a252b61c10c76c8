import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import type { ContractTool } from '../src/contract/index.js';
import { Executor } from '../src/runtime/index.js';
import { createServer } from '../src/mcp/index.js';
import { otelApiLoaded } from '../src/runtime/internal.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';

/*
 * Without a registered provider, telemetry costs nothing and loads nothing: `@opentelemetry/api`
 * is installed here (a development dependency), yet calls through the Executor and an MCP server
 * never load it, because toolwright reads the API's global registry first and finds no provider.
 * (Its own process: `node --test` runs each file alone, and nothing here registers a provider.)
 */

const tools: ContractTool[] = [{ name: 'echo', description: 'Echoes', execute: async () => 'hi' }];

function otelModulesLoaded(): string[] {
  const cache = createRequire(import.meta.url).cache;
  return Object.keys(cache).filter((file) => file.includes('@opentelemetry'));
}

describe('telemetry without a provider', () => {
  it('calls through the Executor and an MCP server never load @opentelemetry/api', async () => {
    const [outcome] = await new Executor({ tools }).run([{ id: 'c1', tool: 'echo', args: {} }]);
    assert.equal(outcome?.ok, true);
    const server = createServer({ name: 'plain', version: '1.0.0' }, tools);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'c', version: '1.0.0' });
    await client.connect(clientSide);
    const result = await client.callTool({
      name: 'echo',
      arguments: {},
      _meta: { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' },
    });
    assert.deepEqual(result.content, [{ type: 'text', text: 'hi' }]);
    await client.close();
    assert.equal(otelApiLoaded(), false);
    assert.deepEqual(otelModulesLoaded(), []);
  });
});

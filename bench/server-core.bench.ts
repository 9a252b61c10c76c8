/**
 * The MCP server core's cost per call, in process: the same `echo {text, count?}` tool served
 * over an in-memory transport by `createServer` (a hand-built tool with a JSON Schema, validated
 * by the server; and a compiled decorated tool, validated by its own pipeline) and by the SDK's
 * `McpServer.registerTool` with zod, each driven by a real SDK `Client`. Rounds are interleaved
 * so machine noise hits all alike; it prints the median CPU time per call (client and server
 * together, one process) and the ratio to `McpServer` (below 1.00 costs less). Transports are
 * left out on purpose: `server.bench.ts` measures the stdio path.
 *
 *   node dist/bench/server-core.bench.js
 */
import 'reflect-metadata';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod/v4';
import { Tool, compile, type ContractTool } from '../src/index.js';
import { createServer } from '../src/mcp/index.js';

const WARMUP_CALLS = 500;
const ROUNDS = 8;
const CALLS_PER_ROUND = 500;

/** A server of either SDK line: connected to one end of an in-memory pair. */
interface Connectable {
  connect(transport: InMemoryTransport): Promise<void>;
}

async function clientFor(server: Connectable): Promise<Client> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: 'server-core-bench', version: '1.0.0' });
  await client.connect(clientTransport);
  return client;
}

function handBuilt(): ContractTool {
  const parameters = {
    type: 'object',
    properties: { text: { type: 'string' }, count: { type: 'integer', minimum: 1, maximum: 5 } },
    required: ['text'],
    additionalProperties: false,
  };
  return {
    name: 'echo',
    description: 'Echoes text',
    parameters,
    execute: async (args) => (args as { text: string }).text,
  };
}

function compiled(): readonly ContractTool[] {
  class EchoArgs {
    @IsString() text!: string;
    @IsOptional() @IsInt() @Min(1) @Max(5) count?: number;
  }
  @Tool({ name: 'echo', description: 'Echoes text', args: EchoArgs })
  class Echo {
    execute(args: EchoArgs) {
      return args.text;
    }
  }
  return compile([Echo]);
}

function sdkServer(): Connectable {
  const server = new McpServer({ name: 'sdk', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Echoes text', inputSchema: { text: z.string(), count: z.number().int().min(1).max(5).optional() } },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  return server.server;
}

/** CPU microseconds per call for `calls` sequential calls. */
async function cpuPerCall(client: Client, calls: number): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < calls; i++) await client.callTool({ name: 'echo', arguments: { text: 'hi', count: 2 } });
  const used = process.cpuUsage(start);
  return (used.user + used.system) / calls;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export async function run(): Promise<void> {
  const contenders = [
    { label: 'sdk McpServer (zod)', client: await clientFor(sdkServer()), samples: [] as number[] },
    {
      label: 'createServer, hand-built',
      client: await clientFor(createServer({ name: 'hand', version: '1.0.0' }, [handBuilt()])),
      samples: [] as number[],
    },
    {
      label: 'createServer, compiled',
      client: await clientFor(createServer({ name: 'compiled', version: '1.0.0' }, compiled())),
      samples: [] as number[],
    },
  ];
  for (const contender of contenders) await cpuPerCall(contender.client, WARMUP_CALLS);
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? contenders : [...contenders].reverse();
    for (const contender of order) contender.samples.push(await cpuPerCall(contender.client, CALLS_PER_ROUND));
  }
  const baseline = median(contenders[0]!.samples);
  console.log(
    `server-core.bench: echo over an in-memory transport, ${ROUNDS} interleaved rounds x ${CALLS_PER_ROUND} calls (client + server CPU, median)`,
  );
  for (const contender of contenders) {
    const micros = median(contender.samples);
    console.log(
      `  ${contender.label.padEnd(26)} ${micros.toFixed(1).padStart(7)} µs/call   ratio to McpServer ${(micros / baseline).toFixed(2)}`,
    );
  }
  for (const contender of contenders) await contender.client.close();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  run().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}

/**
 * The cost of server-side scheduling with no contention: the same hand-built `echo` tool served
 * by `createServer` with enforcement on (the default) and off (`scheduling: false`), once with no
 * claims and once claiming a resource, each driven by a real SDK `Client` over an in-memory
 * transport, one call at a time (so no call ever waits). Rounds are interleaved so machine noise
 * hits all alike; it prints the median CPU time per call (client and server together, one
 * process), the ratio to enforcement off, and the microseconds enforcement adds per call. A
 * second table times the scheduler alone: `submit` + `release` of one uncontended call, and
 * `admit` (the promise form the server uses) + `release`.
 *
 *   node dist/bench/scheduling.bench.js
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport, type Server } from '@modelcontextprotocol/server';
import { createServer } from '../src/mcp/index.js';
import { type ContractTool } from '../src/index.js';
import { Scheduler } from '../src/runtime/scheduler/index.js';
import { admit } from '../src/runtime/scheduler/admit.js';
import { NO_CLAIMS } from '../src/runtime/scheduler/claims.js';

const WARMUP_CALLS = 500;
const ROUNDS = 8;
const CALLS_PER_ROUND = 500;
const SCHEDULER_OPS = 200_000;

async function clientFor(server: Server): Promise<Client> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: 'scheduling-bench', version: '1.0.0' });
  await client.connect(clientTransport);
  return client;
}

function echo(claims: Partial<ContractTool>): ContractTool {
  const parameters = {
    type: 'object',
    properties: { text: { type: 'string' } },
    required: ['text'],
    additionalProperties: false,
  };
  return {
    name: 'echo',
    description: 'Echoes text',
    parameters,
    ...claims,
    execute: async (args) => (args as { text: string }).text,
  };
}

/** CPU microseconds per call for `calls` sequential calls. */
async function cpuPerCall(client: Client, calls: number): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < calls; i++) await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
  const used = process.cpuUsage(start);
  return (used.user + used.system) / calls;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Nanoseconds per operation of `op`, run `count` times after a warm-up. */
async function nanosPer(count: number, op: () => unknown): Promise<number> {
  for (let i = 0; i < 10_000; i++) await op();
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i++) await op();
  return Number(process.hrtime.bigint() - start) / count;
}

export async function run(): Promise<void> {
  const info = { name: 'bench', version: '1.0.0' };
  const contenders = [
    {
      label: 'no claims, enforcement off',
      client: await clientFor(createServer(info, [echo({})], { scheduling: false })),
      samples: [] as number[],
    },
    {
      label: 'no claims, enforcement on',
      client: await clientFor(createServer(info, [echo({})])),
      samples: [] as number[],
    },
    {
      label: 'resource, enforcement off',
      client: await clientFor(createServer(info, [echo({ resource: 'db:main' })], { scheduling: false })),
      samples: [] as number[],
    },
    {
      label: 'resource, enforcement on',
      client: await clientFor(createServer(info, [echo({ resource: 'db:main' })])),
      samples: [] as number[],
    },
  ];
  for (const contender of contenders) await cpuPerCall(contender.client, WARMUP_CALLS);
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? contenders : [...contenders].reverse();
    for (const contender of order) contender.samples.push(await cpuPerCall(contender.client, CALLS_PER_ROUND));
  }
  console.log(
    `scheduling.bench: echo over an in-memory transport, one call at a time, ${ROUNDS} interleaved rounds x ${CALLS_PER_ROUND} calls (client + server CPU, median)`,
  );
  for (let pair = 0; pair < contenders.length; pair += 2) {
    const off = median(contenders[pair]!.samples);
    const on = median(contenders[pair + 1]!.samples);
    console.log(`  ${contenders[pair]!.label.padEnd(28)} ${off.toFixed(1).padStart(7)} µs/call`);
    console.log(
      `  ${contenders[pair + 1]!.label.padEnd(28)} ${on.toFixed(1).padStart(7)} µs/call   ratio to off ${(on / off).toFixed(3)}   added ${(on - off).toFixed(1)} µs/call`,
    );
  }
  for (const contender of contenders) await contender.client.close();

  const scheduler = new Scheduler({ maxConcurrent: 16 });
  const submitted = await nanosPer(SCHEDULER_OPS, () =>
    scheduler.submit({ claims: NO_CLAIMS, label: 'x', start: () => {} }).release(),
  );
  const admitted = await nanosPer(SCHEDULER_OPS, async () =>
    (await admit(scheduler, { claims: NO_CLAIMS, label: 'x' })).release(),
  );
  console.log(`scheduling.bench: the scheduler alone, one uncontended call, ${SCHEDULER_OPS} times`);
  console.log(`  submit + release            ${submitted.toFixed(0).padStart(7)} ns/call`);
  console.log(`  admit (promise) + release   ${admitted.toFixed(0).padStart(7)} ns/call`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  run().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}

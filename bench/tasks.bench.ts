/**
 * The overhead of a task-augmented call against a plain one, in process: one toolwright
 * `createServer` over an in-memory transport, driven by a real SDK 1.x `Client` (2025-11-25), an
 * `echo` tool with `@TaskSupport('optional')`. A plain call is one `tools/call`; a task call is
 * `tools/call` with `task` (answered at once), then `tasks/result` (which waits for the end and
 * answers the result), with the default in-memory task store. Rounds are interleaved; it prints
 * the median CPU time per call (client and server together, one process) and the ratio.
 *
 *   node dist/bench/tasks.bench.js
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CallToolResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ContractTool } from '../src/index.js';
import { createServer } from '../src/mcp/index.js';
import { median } from './support/median.js';
import { cpuPer } from './support/cpu-per.js';

const WARMUP = 300;
const ROUNDS = 8;
const PER_ROUND = 300;

const echo: ContractTool = {
  name: 'echo',
  description: 'Says it back',
  task: { support: 'optional', ttlMs: 60_000 },
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  execute: async (args) => (args as { text: string }).text,
};

type Work = (client: Client) => Promise<unknown>;

const plain: Work = (client) => client.callTool({ name: 'echo', arguments: { text: 'hi' } });
const asTask: Work = async (client) => {
  const created = await client.request(
    { method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' }, task: {} } },
    CreateTaskResultSchema,
  );
  return client.experimental.tasks.getTaskResult(created.task.taskId, CallToolResultSchema);
};

export async function run(): Promise<void> {
  // A server per kind of call, so the task store of one never weighs on the other.
  const clients: Client[] = [];
  for (let i = 0; i < 2; i++) {
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    // The default bound keeps 10,000 tasks; the bench makes more, so it gets a larger store.
    const { MemoryTaskStore } = await import('../src/runtime/index.js');
    const server = createServer({ name: 'tasks-bench', version: '1.0.0' }, [echo], {
      tasks: { store: new MemoryTaskStore({ maxTasks: 1_000_000 }) },
    });
    await server.connect(serverTransport as never);
    const client = new Client({ name: 'tasks-bench', version: '1.0.0' });
    await client.connect(clientTransport);
    clients.push(client);
  }
  const [plainClient, taskClient] = clients as [Client, Client];
  for (const [client, work] of [
    [plainClient, plain],
    [taskClient, asTask],
  ] as const) {
    const answer = JSON.stringify(await work(client));
    if (!answer.includes('"text":"hi"')) throw new Error(`unexpected answer ${answer}`);
  }
  await cpuPer(plainClient, plain, WARMUP);
  await cpuPer(taskClient, asTask, WARMUP);
  const samples: [number[], number[]] = [[], []];
  for (let round = 0; round < ROUNDS; round++) {
    if (round % 2 === 0) {
      samples[0].push(await cpuPer(plainClient, plain, PER_ROUND));
      samples[1].push(await cpuPer(taskClient, asTask, PER_ROUND));
    } else {
      samples[1].push(await cpuPer(taskClient, asTask, PER_ROUND));
      samples[0].push(await cpuPer(plainClient, plain, PER_ROUND));
    }
  }
  const base = median(samples[0]);
  const task = median(samples[1]);
  console.log(
    `tasks.bench: over an in-memory transport, SDK 1.x client, ${ROUNDS} interleaved rounds x ${PER_ROUND} calls (client + server CPU, median)`,
  );
  console.log(`  plain tools/call                        ${base.toFixed(1).padStart(7)} µs/call`);
  console.log(
    `  task: tools/call + tasks/result         ${task.toFixed(1).padStart(7)} µs/call   ratio ${(task / base).toFixed(2)}`,
  );
  for (const client of clients) await client.close();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  run().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}

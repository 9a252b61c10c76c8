/**
 * The cost per request of `resources/read` (a URI template whose one variable is a validated
 * integer) and `prompts/get` (two arguments, one of them an enum; two messages back), in process:
 * the same work served over an in-memory transport by toolwright's `createServer` (decorated
 * classes compiled with `compileResources` / `compilePrompts`) and by the SDK's `McpServer`
 * (`registerResource` with a `ResourceTemplate`, `registerPrompt` with zod) of both lines, 1.x
 * (`@modelcontextprotocol/sdk`) and 2.x (`@modelcontextprotocol/server`, which toolwright serves
 * with), each driven by a real SDK 1.x `Client`. Rounds are interleaved so machine noise hits all
 * alike; it prints the median CPU time per request (client and server together, one process) and
 * the ratio to the 1.x `McpServer` (below 1.00 costs less).
 *
 *   node dist/bench/features.bench.js
 */
import 'reflect-metadata';
import { IsIn, IsInt, IsString, Min } from 'class-validator';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  McpServer as McpServer1,
  ResourceTemplate as ResourceTemplate1,
} from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpServer as McpServer2, ResourceTemplate as ResourceTemplate2 } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import {
  Prompt,
  ResourceTemplate,
  compilePrompts,
  compileResources,
  userMessage,
  assistantMessage,
} from '../src/index.js';
import { createServer } from '../src/mcp/index.js';
import { median } from './support/median.js';
import { cpuPer } from './support/cpu-per.js';

const WARMUP = 500;
const ROUNDS = 8;
const PER_ROUND = 500;
const LANGUAGES = ['ts', 'go', 'rust'] as const;

/** A server of either SDK line: connected to one end of an in-memory pair. */
interface Connectable {
  connect(transport: InMemoryTransport): Promise<void>;
}

async function clientFor(server: Connectable): Promise<Client> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: 'features-bench', version: '1.0.0' });
  await client.connect(clientTransport);
  return client;
}

function toolwrightServer(): Connectable {
  class UserVars {
    @IsInt() @Min(1) id!: number;
  }
  @ResourceTemplate({ uriTemplate: 'users://{id}/profile', mimeType: 'text/plain', args: UserVars })
  class Profile {
    read(vars: UserVars) {
      return `user ${vars.id}`;
    }
  }
  class ReviewArgs {
    @IsString() code!: string;
    @IsIn([...LANGUAGES]) language!: string;
  }
  @Prompt({ name: 'review', description: 'Review code', args: ReviewArgs })
  class Review {
    messages(args: ReviewArgs) {
      return [userMessage(`Review this ${args.language} code:\n${args.code}`), assistantMessage('Reviewing.')];
    }
  }
  return createServer({ name: 'toolwright', version: '1.0.0' }, [], {
    resources: compileResources([Profile]),
    prompts: compilePrompts([Review]),
  });
}

/** The same work on an `McpServer` of either line (their registration API is the same). */
function sdkServer(
  McpServer: typeof McpServer1 | typeof McpServer2,
  Template: typeof ResourceTemplate1 | typeof ResourceTemplate2,
): Connectable {
  const server = new (McpServer as typeof McpServer1)({ name: 'sdk', version: '1.0.0' });
  const idSchema = z.coerce.number().int().min(1);
  server.registerResource(
    'profile',
    new (Template as typeof ResourceTemplate1)('users://{id}/profile', { list: undefined }),
    { mimeType: 'text/plain' },
    async (uri, variables) => ({
      contents: [{ uri: uri.href, mimeType: 'text/plain', text: `user ${idSchema.parse(variables.id)}` }],
    }),
  );
  server.registerPrompt(
    'review',
    { description: 'Review code', argsSchema: { code: z.string(), language: z.enum(LANGUAGES) } },
    async ({ code, language }) => ({
      messages: [
        { role: 'user', content: { type: 'text', text: `Review this ${language} code:\n${code}` } },
        { role: 'assistant', content: { type: 'text', text: 'Reviewing.' } },
      ],
    }),
  );
  return server.server as unknown as Connectable;
}

type Work = (client: Client) => Promise<unknown>;

const read: Work = (client) => client.readResource({ uri: 'users://42/profile' });
const get: Work = (client) => client.getPrompt({ name: 'review', arguments: { code: 'f()', language: 'go' } });

export async function run(): Promise<void> {
  const contenders = [
    { label: 'sdk 1.x McpServer (zod)', client: await clientFor(sdkServer(McpServer1, ResourceTemplate1)) },
    { label: 'sdk 2.x McpServer (zod)', client: await clientFor(sdkServer(McpServer2, ResourceTemplate2)) },
    { label: 'toolwright createServer', client: await clientFor(toolwrightServer()) },
  ];
  // The answers must be the same work: check them once.
  for (const { label, client } of contenders) {
    const answer = JSON.stringify(await read(client));
    if (!answer.includes('"text":"user 42"')) throw new Error(`${label}: unexpected read ${answer}`);
    const prompt = JSON.stringify(await get(client));
    if (!prompt.includes('Review this go code')) throw new Error(`${label}: unexpected prompt ${prompt}`);
  }
  console.log(
    `features.bench: over an in-memory transport, ${ROUNDS} interleaved rounds x ${PER_ROUND} requests (client + server CPU, median)`,
  );
  for (const [name, work] of [
    ['resources/read (template, integer variable)', read],
    ['prompts/get (two arguments, two messages)', get],
  ] as const) {
    const samples = contenders.map(() => [] as number[]);
    for (const contender of contenders) await cpuPer(contender.client, work, WARMUP);
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? contenders.map((_, i) => i) : contenders.map((_, i) => contenders.length - 1 - i);
      for (const index of order) samples[index]!.push(await cpuPer(contenders[index]!.client, work, PER_ROUND));
    }
    const baseline = median(samples[0]!);
    console.log(`  ${name}`);
    contenders.forEach((contender, index) => {
      const micros = median(samples[index]!);
      console.log(
        `    ${contender.label.padEnd(26)} ${micros.toFixed(1).padStart(7)} µs/request   ratio to sdk 1.x ${(micros / baseline).toFixed(2)}`,
      );
    });
  }
  for (const { client } of contenders) await client.close();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  run().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}

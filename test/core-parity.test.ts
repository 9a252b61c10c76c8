import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CallToolResultSchema, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createServer, RECORD_META_KEY } from '../src/mcp/index.js';
import { Executor, outcomeResult } from '../src/runtime/index.js';
import { serveHttp, type ToolResult } from '../src/index.js';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { testTools } from '../src/testing/index.js';
import { TOOLWRIGHT_CALL_OPTIONS, TOOLWRIGHT_POLICY, ToolwrightModule, ToolwrightServer } from '../src/nest/index.js';
import { PARITY_CLASSES, parityHost } from './support/parity-tools.js';
import { failedResult, textResult } from './support/text.js';

/*
 * The host parity suite, in the manner of Hono's shared router tests: one behaviour suite, run
 * unchanged over every host (the Executor, an in-memory MCP client, a stdio child process, HTTP
 * on 127.0.0.1, `toolwright/testing`'s `testTools`, the Nest module), all serving the same tools
 * with the same options (support/parity-tools.ts). The Nest module serves the tool classes it
 * discovers among the application's providers, so it runs the behaviours of the decorated tools
 * (NEST_SERVES) and every other is listed as left out, with that reason.
 * Each host's answer is read into one shape (content, structured content, isError, the record
 * as an object); a behaviour expects the same answer from every host, except where a host
 * differs on purpose: those exceptions are listed in EXCEPTIONS, each with its reason, and
 * tested as exactly as the rest.
 */

/** A host's answer to one call, in one shape for every host. */
interface Answer {
  content?: unknown;
  structuredContent?: unknown;
  isError?: true;
  record?: { ns: string; data: unknown };
  /** The JSON-RPC error an MCP host answered with (its message without the SDK's `MCP error <code>: ` prefix). */
  protocolError?: { code: number; message: string };
  /** The caller cancelled and no answer came (MCP sends none for a cancelled request). */
  cancelled?: true;
}

interface Host {
  call(tool: string, args: unknown, options?: { cancelOnProgress?: boolean }): Promise<Answer>;
  close(): Promise<void>;
}

type HostName =
  | 'Executor'
  | 'in-memory MCP client'
  | 'stdio child process'
  | 'HTTP on 127.0.0.1'
  | 'toolwright/testing'
  | 'Nest module';

function fromToolResult(result: ToolResult): Answer {
  const answer: Answer = { content: result.content };
  if (result.structuredContent !== undefined) answer.structuredContent = result.structuredContent;
  if (result.isError === true) answer.isError = true;
  if (result.record !== undefined)
    answer.record = { ns: result.record.ns, data: JSON.parse(JSON.stringify(result.record.data)) };
  return answer;
}

function fromMcp(result: CallToolResult): Answer {
  const answer: Answer = { content: result.content };
  if (result.structuredContent !== undefined) answer.structuredContent = result.structuredContent;
  if (result.isError === true) answer.isError = true;
  const wire = result._meta?.[RECORD_META_KEY] as { ns: string; data: string } | undefined;
  if (wire !== undefined) answer.record = { ns: wire.ns, data: JSON.parse(wire.data) };
  return answer;
}

async function executorHost(): Promise<Host> {
  const { tools, options } = parityHost();
  const executor = new Executor({ tools, ...options });
  let calls = 0;
  return {
    async call(tool, args, { cancelOnProgress = false } = {}) {
      const controller = new AbortController();
      calls += 1;
      const [outcome] = await executor.run([{ id: `c${calls}`, tool, args }], {
        signal: controller.signal,
        ...(cancelOnProgress ? { onProgress: () => controller.abort(new Error('the caller cancels')) } : {}),
      });
      return fromToolResult(outcomeResult(outcome!));
    },
    close: async () => {},
  };
}

function mcpHost(client: Client, close: () => Promise<void>): Host {
  return {
    async call(tool, args, { cancelOnProgress = false } = {}) {
      const controller = new AbortController();
      try {
        const result = await client.request(
          { method: 'tools/call', params: { name: tool, arguments: args as Record<string, unknown> } },
          CallToolResultSchema,
          {
            signal: controller.signal,
            timeout: 30_000,
            ...(cancelOnProgress ? { onprogress: () => controller.abort('the caller cancels') } : {}),
          },
        );
        return fromMcp(result);
      } catch (error) {
        if (controller.signal.aborted) return { cancelled: true };
        if (error instanceof McpError)
          return { protocolError: { code: error.code, message: error.message.replace(/^MCP error -?\d+: /, '') } };
        throw error;
      }
    },
    close,
  };
}

async function memoryHost(): Promise<Host> {
  const { tools, options } = parityHost();
  const server = createServer({ name: 'parity', version: '1.0.0' }, tools, { ...options, transport: 'memory' });
  return inMemoryHost(server, () => server.close());
}

/** An SDK 1.x client connected in memory to `server`; closing it closes the client, then `close`. */
async function inMemoryHost(
  server: { connect(transport: InMemoryTransport): Promise<void> },
  close: () => Promise<void>,
): Promise<Host> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'parity', version: '1.0.0' });
  await server.connect(serverSide);
  await client.connect(clientSide);
  return mcpHost(client, async () => {
    await client.close();
    await close();
  });
}

async function stdioHost(): Promise<Host> {
  const script = fileURLToPath(new URL('./support/parity-stdio-server.js', import.meta.url));
  const transport = new StdioClientTransport({ command: process.execPath, args: [script], stderr: 'inherit' });
  const client = new Client({ name: 'parity', version: '1.0.0' });
  await client.connect(transport);
  return mcpHost(client, () => client.close());
}

async function httpHost(): Promise<Host> {
  const { tools, options } = parityHost();
  const handle = await serveHttp({ name: 'parity', version: '1.0.0' }, tools, {
    ...options,
    host: '127.0.0.1',
    port: 0,
  });
  const client = new Client({ name: 'parity', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(handle.url)));
  return mcpHost(client, async () => {
    await client.close();
    await handle.close();
  });
}

async function testingHost(): Promise<Host> {
  const { tools, options } = parityHost();
  const tester = testTools(tools, options);
  return {
    async call(tool, args, { cancelOnProgress = false } = {}) {
      const controller = new AbortController();
      try {
        const result = await tester.callTool(tool, args, {
          context: {
            signal: controller.signal,
            ...(cancelOnProgress ? { progress: () => controller.abort(new Error('the caller cancels')) } : {}),
          },
        });
        return fromMcp(result as CallToolResult);
      } catch (error) {
        // A request MCP refuses throws the JSON-RPC error a server would answer with.
        const { code, message } = error as { code?: unknown; message: string };
        if (typeof code === 'number') return { protocolError: { code, message } };
        throw error;
      }
    },
    close: async () => {},
  };
}

/** The tools the Nest module serves: the decorated classes it finds among the providers. */
const NEST_SERVES: ReadonlySet<string> = new Set(['echo', 'stats', 'write']);

async function nestHost(): Promise<Host> {
  const { options } = parityHost();
  const { policy, ...callOptions } = options;
  @Module({
    imports: [ToolwrightModule.forRoot({ name: 'parity', version: '1.0.0', transport: 'none' })],
    providers: [
      ...PARITY_CLASSES,
      { provide: TOOLWRIGHT_POLICY, useValue: policy },
      { provide: TOOLWRIGHT_CALL_OPTIONS, useValue: callOptions },
    ],
  })
  class ParityModule {}
  const app = await NestFactory.createApplicationContext(ParityModule, { logger: false, abortOnError: false });
  return inMemoryHost(app.get(ToolwrightServer).createMcpServer('memory'), () => app.close());
}

const HOSTS: ReadonlyArray<readonly [HostName, () => Promise<Host>]> = [
  ['Executor', executorHost],
  ['in-memory MCP client', memoryHost],
  ['stdio child process', stdioHost],
  ['HTTP on 127.0.0.1', httpHost],
  ['toolwright/testing', testingHost],
  ['Nest module', nestHost],
];

/** Whether `host` serves the tool `behaviour` calls (the Nest module serves decorated classes only). */
function serves(host: HostName, behaviour: Behaviour): boolean {
  return host !== 'Nest module' || NEST_SERVES.has(behaviour.tool) || behaviour.tool === 'nope';
}

const failed = (text: string): Answer => failedResult(text);
const said = (text: string): Answer => textResult(text);

interface Behaviour {
  readonly name: string;
  readonly tool: string;
  readonly args: unknown;
  readonly cancel?: boolean;
  /** What every host answers. */
  readonly expected: Answer;
  /** Hosts that answer otherwise, on purpose: the reason, and what they answer. */
  readonly exceptions?: Partial<Record<HostName, { readonly why: string; readonly answer: Answer }>>;
}

/** Hosts that answer as an MCP server does (`toolwright/testing` gives its exact results and errors). */
const MCP_HOSTS: readonly HostName[] = [
  'toolwright/testing',
  'in-memory MCP client',
  'stdio child process',
  'HTTP on 127.0.0.1',
  'Nest module',
];

/** The same exception on every MCP host. */
function onMcp(why: string, answer: Answer): Behaviour['exceptions'] {
  return Object.fromEntries(MCP_HOSTS.map((host) => [host, { why, answer }]));
}

const PERMISSION_RECORD = {
  ns: 'toolwright:permissions',
  data: {
    decisions: [{ subject: '/ok', capabilities: ['write'], decision: 'allow_once' }],
    grants: [{ subjects: ['/ok'], capabilities: ['write'], granted: ['write'] }],
  },
};

const BEHAVIOURS: readonly Behaviour[] = [
  { name: 'a valid call', tool: 'echo', args: { text: 'hi', times: 2 }, expected: said('hi hi') },
  {
    name: 'invalid arguments: a wrong type',
    tool: 'echo',
    args: { text: 5 },
    expected: failed('invalid arguments: /text: must be string'),
  },
  {
    name: 'invalid arguments: a required property missing',
    tool: 'echo',
    args: {},
    expected: failed('invalid arguments: /: must have required property "text"'),
  },
  {
    name: 'invalid arguments: an unknown property',
    tool: 'echo',
    args: { text: 'hi', extra: 1 },
    expected: failed('invalid arguments: /: must NOT have additional property "extra"'),
  },
  {
    name: 'invalid arguments: out of range, too long',
    tool: 'echo',
    args: { text: 'x'.repeat(11), times: 9 },
    expected: failed('invalid arguments: /text: must NOT have more than 10 characters; /times: must be <= 3'),
  },
  {
    name: 'invalid arguments: not in the enum',
    tool: 'stats',
    args: { mode: 'all' },
    expected: failed('invalid arguments: /mode: must be one of "ok", "plain"'),
  },
  {
    name: 'invalid arguments of a hand-built tool are refused on every host',
    tool: 'count',
    args: { n: 'not a number', extra: 1 },
    expected: failed('invalid arguments: /: must NOT have additional property "extra"; /n: must be number'),
  },
  {
    name: 'invalid arguments: not an object',
    tool: 'echo',
    args: [1, 2],
    expected: failed('invalid arguments: expected an object, got an array'),
    exceptions: onMcp(
      "MCP's tools/call params say arguments is an object: the transport refuses the request before any tool is found",
      {
        protocolError: { code: -32602, message: 'tools/call: params.arguments must be an object, got an array' },
      },
    ),
  },
  {
    name: 'an unknown tool',
    tool: 'nope',
    args: {},
    expected: failed('unknown tool "nope"'),
    exceptions: onMcp('MCP answers a tool the server does not have with a protocol error', {
      protocolError: { code: -32602, message: 'Unknown tool: nope' },
    }),
  },
  { name: 'a throw', tool: 'fails', args: {}, expected: failed('disk full') },
  {
    name: 'a throw of a value that is not an Error',
    tool: 'fails',
    args: { value: true },
    expected: failed('tool "fails" threw: 42'),
  },
  {
    name: 'a timeout (the late answer is dropped)',
    tool: 'slow',
    args: {},
    expected: failed('tool "slow" timed out after 100 ms'),
  },
  {
    name: 'a cancel',
    tool: 'wait_for_cancel',
    args: {},
    cancel: true,
    expected: { cancelled: true },
    exceptions: {
      Executor: {
        why: 'the Executor completes every call: a cancelled call ends with what the tool settled with',
        answer: failed('cancelled by the caller'),
      },
      'toolwright/testing': {
        why: 'callTool answers every call it was given: a cancelled call ends with what the tool settled with',
        answer: failed('cancelled by the caller'),
      },
    },
  },
  { name: 'the tool saw the cancel on its signal', tool: 'cancels', args: {}, expected: said('1') },
  {
    name: 'an output schema mismatch',
    tool: 'add',
    args: { a: 13, b: 0 },
    expected: failed('structured content does not match the output schema: /sum: must be number'),
  },
  {
    name: 'structured content that matches',
    tool: 'add',
    args: { a: 1, b: 2 },
    expected: { content: [{ type: 'text', text: '3' }], structuredContent: { sum: 3 } },
  },
  {
    name: 'a compiled tool with a result class that returns plain text fails on every host',
    tool: 'stats',
    args: { mode: 'plain' },
    expected: failed('structured content does not match the output schema: the tool returned no structured content'),
  },
  {
    name: "a compiled tool's structured result",
    tool: 'stats',
    args: { mode: 'ok' },
    expected: { content: [{ type: 'text', text: '{"files":3}' }], structuredContent: { files: 3 } },
  },
  {
    name: 'an oversize output is cut with a marker',
    tool: 'big',
    args: {},
    expected: said(`${'x'.repeat(40)}\n…[truncated: showing 40 of 100 characters]`),
  },
  {
    name: 'oversize structured content fails',
    tool: 'big_structured',
    args: {},
    expected: failed('output too large: structured content is 72 characters, the limit is 40'),
  },
  {
    name: 'a record',
    tool: 'note',
    args: {},
    expected: { content: [{ type: 'text', text: 'noted' }], record: { ns: 'parity:note', data: { kept: true } } },
  },
  {
    name: 'a permission asked and allowed',
    tool: 'write',
    args: { path: '/ok' },
    expected: { content: [{ type: 'text', text: 'wrote /ok' }], record: PERMISSION_RECORD },
  },
  // A denial carries its permission record on every host, as a success does.
  {
    name: 'a permission asked and denied',
    tool: 'write',
    args: { path: '/no' },
    expected: {
      ...failed('permission denied: write on "/no": not this one'),
      record: {
        ns: 'toolwright:permissions',
        data: {
          decisions: [{ subject: '/no', capabilities: ['write'], decision: 'deny_once', reason: 'not this one' }],
          grants: [{ subjects: ['/no'], capabilities: ['write'], granted: [] }],
        },
      },
    },
  },
  {
    name: 'a permission denied by a rule',
    tool: 'write',
    args: { path: '/etc/passwd' },
    expected: {
      ...failed('permission denied: write on "/etc/passwd": system files'),
      record: {
        ns: 'toolwright:permissions',
        data: { decisions: [], grants: [{ subjects: ['/etc/passwd'], capabilities: ['write'], granted: [] }] },
      },
    },
  },
  {
    name: 'an interceptor refusal',
    tool: 'echo',
    args: { text: 'forbidden' },
    expected: failed('call refused by "guard": forbidden word'),
  },
];

for (const [hostName, start] of HOSTS) {
  describe(`host parity: ${hostName}`, { timeout: 60_000 }, () => {
    let host: Host;
    before(async () => {
      host = await start();
    });
    after(async () => {
      await host.close();
    });
    for (const behaviour of BEHAVIOURS.filter((b) => serves(hostName, b))) {
      const exception = behaviour.exceptions?.[hostName];
      test(exception === undefined ? behaviour.name : `${behaviour.name} (exception: ${exception.why})`, async () => {
        const answer = await host.call(behaviour.tool, behaviour.args, { cancelOnProgress: behaviour.cancel === true });
        assert.deepEqual(answer, exception?.answer ?? behaviour.expected);
      });
    }
  });
}

test('every exception is one of the documented ones: nothing else differs between hosts', () => {
  const excepted = BEHAVIOURS.filter((behaviour) => behaviour.exceptions !== undefined).map(
    (behaviour) => behaviour.name,
  );
  assert.deepEqual(excepted, ['invalid arguments: not an object', 'an unknown tool', 'a cancel']);
});

test('the Nest module leaves out exactly the behaviours of the hand-built tools, which it cannot discover', () => {
  const { handBuilt } = parityHost();
  const hand = new Set(handBuilt.map((tool) => tool.name));
  const left = BEHAVIOURS.filter((behaviour) => !serves('Nest module', behaviour));
  assert.ok(left.length > 0 && left.every((behaviour) => hand.has(behaviour.tool)));
  assert.equal(
    BEHAVIOURS.filter((behaviour) => serves('Nest module', behaviour)).length,
    BEHAVIOURS.length - left.length,
  );
  assert.deepEqual(
    BEHAVIOURS.filter((behaviour) => hand.has(behaviour.tool)).map((behaviour) => behaviour.name),
    left.map((behaviour) => behaviour.name),
  );
});

import { after, before, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1StdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  ResultSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2StdioTransport } from '@modelcontextprotocol/client/stdio';
import { FACTS_METHOD, RECORD_META_KEY, TOOL_META_KEY, serveHttp, type HttpHandle } from '../src/mcp/index.js';
import { join } from 'node:path';
import { OUT_DIR } from './support/cli-paths.js';
import { interopPolicy, interopTools } from './support/edge-interop-tools.js';
import { textResult } from './support/text.js';

/*
 * The interop matrix: the SDK 1.x Client (2025-11-25) and the SDK 2.x Client pinned to each era
 * (2025-11-25 by its default negotiation, 2026-07-28 by a pin), each over stdio (a real child
 * process) and over streamable HTTP on 127.0.0.1 (one endpoint for all), reach every feature of
 * the edge: listing with `_meta`, progress, logging, elicitation (form and URL), permission
 * questions answered allow once / allow always / deny, sampling, cancellation, records and
 * `execution/facts`. About 6 s on an idle machine.
 */

type Era = '2025-11-25' | '2026-07-28';

/** What the scenarios need of a client, whichever SDK line it comes from. */
interface InteropClient {
  readonly label: string;
  readonly era: Era;
  readonly logs: unknown[];
  listTools(): Promise<Array<Record<string, unknown>>>;
  call(
    name: string,
    args?: Record<string, unknown>,
    options?: { onprogress?: (p: unknown) => void; signal?: AbortSignal },
  ): Promise<Record<string, unknown>>;
  facts(calls: unknown[]): Promise<unknown>;
  close(): Promise<void>;
}

/** The client side's answers: permission decisions are taken in order from `decisions`. */
interface Answers {
  readonly decisions: string[];
}

const CAPABILITIES = { elicitation: { form: {}, url: {} }, sampling: {} };
const SAMPLED = { role: 'assistant', content: { type: 'text', text: 'pong' }, model: 'interop-model' };

function answerElicitation(params: Record<string, unknown>, answers: Answers): Record<string, unknown> {
  const properties = (params.requestedSchema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
  if ('decision' in properties)
    return { action: 'accept', content: { decision: answers.decisions.shift() ?? 'deny_once' } };
  if (params.mode === 'url') return { action: 'accept' };
  return { action: 'accept', content: { name: 'Ada' } };
}

type Transport = { kind: 'stdio' } | { kind: 'http'; url: string };

/** The stdio server: the interop tool set served by a child process. */
const FIXTURE = join(OUT_DIR, 'test', 'support', 'edge-interop-fixture.js');

async function v1Client(transport: Transport, answers: Answers): Promise<InteropClient> {
  const client = new V1Client({ name: 'interop-v1', version: '1.0.0' }, { capabilities: CAPABILITIES });
  const logs: unknown[] = [];
  client.setRequestHandler(
    ElicitRequestSchema,
    async (request) => answerElicitation(request.params as Record<string, unknown>, answers) as never,
  );
  client.setRequestHandler(CreateMessageRequestSchema, async () => SAMPLED as never);
  client.setNotificationHandler(
    LoggingMessageNotificationSchema,
    (notification) => void logs.push(notification.params),
  );
  await client.connect(
    transport.kind === 'stdio'
      ? new V1StdioTransport({ command: process.execPath, args: [FIXTURE], stderr: 'pipe' })
      : new V1HttpTransport(new URL(transport.url)),
  );
  await client.setLoggingLevel('debug');
  return {
    label: `sdk 1.x client, ${transport.kind}`,
    era: '2025-11-25',
    logs,
    listTools: async () => (await client.listTools()).tools as Array<Record<string, unknown>>,
    call: async (name, args = {}, options = {}) =>
      (await client.callTool({ name, arguments: args }, undefined, { ...options, timeout: 15_000 } as never)) as Record<
        string,
        unknown
      >,
    facts: async (calls) => client.request({ method: FACTS_METHOD, params: { calls } } as never, ResultSchema),
    close: () => client.close(),
  };
}

const passThrough = {
  '~standard': { version: 1 as const, vendor: 'toolwright-test', validate: (value: unknown) => ({ value }) },
};

async function v2Client(transport: Transport, answers: Answers, era: Era): Promise<InteropClient> {
  const client = new V2Client(
    { name: 'interop-v2', version: '1.0.0' },
    { capabilities: CAPABILITIES, ...(era === '2026-07-28' ? { versionNegotiation: { mode: { pin: era } } } : {}) },
  );
  const logs: unknown[] = [];
  client.setRequestHandler(
    'elicitation/create',
    async (request) => answerElicitation(request.params as Record<string, unknown>, answers) as never,
  );
  client.setRequestHandler('sampling/createMessage', async () => SAMPLED as never);
  client.setNotificationHandler('notifications/message', (notification) => void logs.push(notification.params));
  await client.connect(
    transport.kind === 'stdio'
      ? new V2StdioTransport({ command: process.execPath, args: [FIXTURE], stderr: 'pipe' })
      : new V2HttpTransport(new URL(transport.url)),
  );
  // The 2026-07-28 era has no logging/setLevel: a request names its own level in its _meta.
  if (era === '2025-11-25') await client.setLoggingLevel('debug');
  const meta = era === '2026-07-28' ? { _meta: { 'io.modelcontextprotocol/logLevel': 'debug' } } : {};
  return {
    label: `sdk 2.x client pinned to ${era}, ${transport.kind}`,
    era,
    logs,
    listTools: async () => (await client.listTools()).tools as Array<Record<string, unknown>>,
    call: async (name, args = {}, options = {}) =>
      (await client.callTool(
        { name, arguments: args, ...meta } as never,
        { ...options, timeout: 15_000 } as never,
      )) as Record<string, unknown>,
    facts: async (calls) => client.request({ method: FACTS_METHOD, params: { calls } } as never, passThrough as never),
    close: () => client.close(),
  };
}

/**
 * A result as both eras can compare it: without the server identity 2.x stamps in the 2026 era and
 * its `resultType`.
 */
function plain(result: unknown): unknown {
  const { _meta, resultType: _type, ...rest } = result as { _meta?: Record<string, unknown>; resultType?: unknown };
  if (_meta === undefined) return rest;
  const { 'io.modelcontextprotocol/serverInfo': _info, ...meta } = _meta;
  return Object.keys(meta).length === 0 ? rest : { ...rest, _meta: meta };
}

/**
 * Waits until `arrived()` (bounded: about 10 s), failing at once when `call` settles first (it is
 * held until released, so a settled call is an error to see).
 */
async function notificationsArrived(arrived: () => boolean, call: Promise<unknown>): Promise<void> {
  let settled = false;
  call.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let attempt = 0; attempt < 2000 && !arrived(); attempt++) {
    if (settled) break;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  if (!arrived()) await call;
  assert.ok(arrived(), 'the notifications did not arrive while the call was held');
}

async function scenarios(
  t: TestContext,
  client: InteropClient,
  answers: Answers,
  transport: Transport['kind'],
  prefix: string,
  stateless = false,
): Promise<void> {
  await t.test('lists tools with their _meta claims', async () => {
    const tools = await client.listTools();
    assert.deepEqual(
      tools.map((tool) => tool.name),
      ['progress', 'logs', 'form', 'url', 'sample', 'slow', 'aborts', 'recorded', 'facts_tool', 'write_file'],
    );
    assert.deepEqual(tools.find((tool) => tool.name === 'facts_tool')?._meta, {
      [TOOL_META_KEY]: { facts: true, replay: true },
    });
  });
  await t.test('progress', async () => {
    const seen: unknown[] = [];
    const expected = [1, 2, 3].map((step) => ({ progress: step, total: 3, message: `step ${step}` }));
    // The call holds its result until every step arrived (see interopTools): an SDK client drops
    // progress it reads in the same chunk as the result, as a stdio client may.
    const call = client.call('progress', { hold: true }, { onprogress: (p) => seen.push(p) });
    await notificationsArrived(() => seen.length >= expected.length, call);
    assert.deepEqual(plain(await client.call('progress', { release: true })), textResult('released'));
    assert.deepEqual(plain(await call), textResult('progressed'));
    assert.deepEqual(seen, expected);
  });
  await t.test('logging', async () => {
    client.logs.length = 0;
    const expected = [
      { level: 'info', data: 'one' },
      { level: 'debug', data: 'two' },
    ];
    const call = client.call('logs', { hold: true });
    await notificationsArrived(() => client.logs.length >= expected.length, call);
    assert.deepEqual(plain(await client.call('logs', { release: true })), textResult('released'));
    assert.deepEqual(plain(await call), textResult('logged'));
    assert.deepEqual(client.logs, expected);
  });
  await t.test('elicitation, form and URL', async () => {
    assert.deepEqual(plain(await client.call('form')), textResult('form: accept {"name":"Ada"}'));
    assert.deepEqual(plain(await client.call('url')), textResult('url: accept'));
  });
  await t.test('permission questions: allow once, allow always, deny', async () => {
    // A stateless request (the 2026-07-28 era over HTTP) has no session to remember an "always"
    // answer for (and no principal here): it counts as "once", so the second call asks again.
    answers.decisions.push('allow_once', 'allow_always', ...(stateless ? ['allow_always' as const] : []), 'deny_once');
    const once = `/${prefix}/once`;
    const always = `/${prefix}/always`;
    const denied = `/${prefix}/denied`;
    assert.deepEqual(plain(await client.call('write_file', { path: once })), {
      ...textResult(`wrote ${once}`),
      _meta: {
        [RECORD_META_KEY]: {
          ns: 'toolwright:permissions',
          data: JSON.stringify({
            decisions: [{ subject: once, capabilities: ['write'], decision: 'allow_once' }],
            grants: [{ subjects: [once], capabilities: ['write'], granted: ['write'] }],
          }),
        },
      },
    });
    await client.call('write_file', { path: always });
    // Remembered for the session: not asked again (no decision left in the queue would be taken).
    const asked = stateless ? [{ subject: always, capabilities: ['write'], decision: 'allow_always' }] : [];
    assert.deepEqual(plain(await client.call('write_file', { path: always })), {
      ...textResult(`wrote ${always}`),
      _meta: {
        [RECORD_META_KEY]: {
          ns: 'toolwright:permissions',
          data: JSON.stringify({
            decisions: asked,
            grants: [{ subjects: [always], capabilities: ['write'], granted: ['write'] }],
          }),
        },
      },
    });
    assert.deepEqual(plain(await client.call('write_file', { path: denied })), {
      content: [{ type: 'text', text: `permission denied: write on ${JSON.stringify(denied)}` }],
      isError: true,
      _meta: {
        [RECORD_META_KEY]: {
          ns: 'toolwright:permissions',
          data: JSON.stringify({
            decisions: [{ subject: denied, capabilities: ['write'], decision: 'deny_once' }],
            grants: [{ subjects: [denied], capabilities: ['write'], granted: [] }],
          }),
        },
      },
    });
    assert.deepEqual(answers.decisions, []);
  });
  await t.test('sampling', async () => {
    assert.deepEqual(plain(await client.call('sample')), textResult('model interop-model said pong'));
  });
  await t.test('cancellation stops the call', async () => {
    const before = Number(((await client.call('aborts')).content as Array<{ text: string }>)[0]!.text);
    const controller = new AbortController();
    const pending = client.call('slow', {}, { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    await assert.rejects(pending);
    // The server sees the cancellation a moment after the client gave up: ask, bounded.
    let now = before;
    for (let attempt = 0; attempt < 100 && now === before; attempt++) {
      now = Number(((await client.call('aborts')).content as Array<{ text: string }>)[0]!.text);
      if (now === before) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.equal(now, before + 1);
  });
  await t.test('records', async () => {
    assert.deepEqual(plain(await client.call('recorded')), {
      ...textResult('recorded'),
      _meta: { [RECORD_META_KEY]: { ns: 'interop:test', data: '{"ok":true}' } },
    });
  });
  await t.test('execution/facts', async () => {
    const answer = plain(await client.facts([{ name: 'facts_tool', arguments: { path: 'a.txt' } }, { name: 'nope' }]));
    assert.deepEqual(answer, {
      results: [
        { facts: { calls: [{ tool: 'read', args: { path: 'a.txt' } }] }, replay: 'safe' },
        { error: 'unknown tool "nope"', replay: 'unknown' },
      ],
    });
  });
}

let handle: HttpHandle;

before(async () => {
  handle = await serveHttp({ name: 'interop', version: '1.0.0' }, interopTools(), { policy: interopPolicy() });
});

after(async () => {
  await handle.close();
});

const makers: Array<[string, (transport: Transport, answers: Answers) => Promise<InteropClient>]> = [
  ['v1', (transport, answers) => v1Client(transport, answers)],
  ['v2-2025', (transport, answers) => v2Client(transport, answers, '2025-11-25')],
  ['v2-2026', (transport, answers) => v2Client(transport, answers, '2026-07-28')],
];

for (const kind of ['stdio', 'http'] as const) {
  for (const [name, make] of makers) {
    test(`interop: ${name} over ${kind}`, { timeout: 60_000 }, async (t) => {
      const answers: Answers = { decisions: [] };
      const client = await make(kind === 'stdio' ? { kind } : { kind, url: handle.url }, answers);
      try {
        await scenarios(t, client, answers, kind, `${name}-${kind}`, name === 'v2-2026' && kind === 'http');
      } finally {
        await client.close();
      }
    });
  }
}

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport } from '@modelcontextprotocol/client';
import type { ContractTool } from '../src/contract/index.js';
import { connectTools, serveHttp, type McpClientLike } from '../src/mcp/index.js';
import { Executor } from '../src/runtime/index.js';
import { modernRequest } from './support/modern-http.js';
import { taskTools } from './support/task-tools.js';
import { closeAll, CountedIdTaskStore, pollUntil } from './support/task-upstreams.js';

/*
 * connectTools against a toolwright upstream's task tools in both eras: the 2025-11-25 utility
 * with the SDK 1.x client, and the 2026-07-28 extension with the 2.x client (which by itself
 * refuses a `resultType: "task"` answer): the whole run, the same error texts for a task that
 * ends failed or cancelled, the host's cancel and time limit reaching the upstream task, and a
 * required tool whose listing does not say so. The upstream counts its task ids (task-1, ...).
 */

const HOST = { host: '127.0.0.1', port: 0 } as const;
const ALLOW = { rules: [{ effect: 'allow' as const, capabilities: ['unclassified'] }] };

const cleanups: Array<{ readonly what: string; readonly run: () => Promise<unknown> }> = [];
after(() => closeAll(cleanups));

/** The task tools, served over HTTP with a counted-id store; counts requests by `Mcp-Method`. */
async function upstream() {
  const fixture = taskTools();
  const store = new CountedIdTaskStore();
  const handle = await serveHttp({ name: 'up', version: '1.0.0' }, fixture.tools, {
    ...HOST,
    tasks: { store, drainMs: 0 },
  });
  cleanups.push({ what: 'the upstream', run: () => handle.close() });
  const methods = new Map<string, number>();
  handle.server.prependListener('request', (req: IncomingMessage) => {
    const method = req.headers['mcp-method'];
    if (typeof method === 'string') methods.set(method, (methods.get(method) ?? 0) + 1);
  });
  const task = (n: number, status: string) =>
    pollUntil(
      `task-${n} becoming ${status}`,
      () => store.read(`task-${n}`),
      (record) => record?.status === status,
    );
  return { fixture, store, url: handle.url, methods, task };
}

async function clientOf(era: 'legacy' | 'modern', url: string): Promise<McpClientLike & { close(): Promise<void> }> {
  if (era === 'legacy') {
    const client = new V1Client({ name: 'consumer', version: '1.0.0' });
    await client.connect(new V1HttpTransport(new URL(url)));
    cleanups.push({ what: 'the 1.x client', run: () => client.close() });
    return client as unknown as McpClientLike & { close(): Promise<void> };
  }
  const client = new V2Client(
    { name: 'consumer', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(new V2HttpTransport(new URL(url)));
  cleanups.push({ what: 'the 2.x client', run: () => client.close() });
  assert.equal(client.getProtocolEra(), 'modern');
  return client as unknown as McpClientLike & { close(): Promise<void> };
}

/** Runs one call of `tool` and resolves its text, or its error's message. */
async function run(tools: readonly ContractTool[], tool: string, args: object, signal?: AbortSignal): Promise<string> {
  const [outcome] = await new Executor({ tools }).run(
    [{ id: '1', tool, args }],
    signal === undefined ? {} : { signal },
  );
  if (!outcome!.ok) return `error: ${(outcome!.error as Error).message}`;
  const [part] = outcome!.result.content as ReadonlyArray<{ text?: string }>;
  return String(part?.text);
}

test('consume (2026-07-28, SDK 2.x): a required upstream tool runs as a task of the extension and is polled with tasks/get', async () => {
  const up = await upstream();
  const client = await clientOf('modern', up.url);
  const tools = await connectTools(client, { policy: ALLOW });
  assert.deepEqual(tools.find((tool) => tool.name === 'deploy')!.task, {
    support: 'required',
    ttlMs: 60_000,
    pollIntervalMs: 10,
  });
  assert.equal(await run(tools, 'deploy', { ms: 30 }), 'deployed');
  assert.deepEqual(up.store.created, ['task-1']);
  assert.equal((await up.store.read('task-1'))?.status, 'completed');
  assert.equal(up.methods.get('tools/call'), 1);
  assert.ok((up.methods.get('tasks/get') ?? 0) >= 1, 'polled with tasks/get');
  // An optional tool outside a task is a plain call, and no other request of the client declares the extension.
  assert.equal(await run(tools, 'job', { label: 'plain', ms: 1 }), 'finished plain');
  const direct = await (client as unknown as V2Client).callTool({ name: 'job', arguments: { label: 'sdk', ms: 1 } });
  assert.deepEqual(direct.content, [{ type: 'text', text: 'finished sdk' }]);
  assert.deepEqual(up.store.created, ['task-1']);
});

for (const era of ['legacy', 'modern'] as const)
  test(`consume (${era === 'legacy' ? '2025-11-25, SDK 1.x' : '2026-07-28, SDK 2.x'}): an upstream task that ends failed or cancelled rejects naming it`, async () => {
    const up = await upstream();
    const client = await clientOf(era, up.url);
    const tools = await connectTools(client, { policy: ALLOW, server: 'up' });
    // A task whose process went away reads as failed (as a shared store records it).
    const failing = run(tools, 'deploy', { ms: 60_000 });
    await up.task(1, 'working');
    const gone = 'the process running the task stopped';
    await up.store.update('task-1', { status: 'failed', statusMessage: gone, error: { code: -32603, message: gone } });
    assert.equal(
      await failing,
      `error: mcp server "up": tool "deploy": the upstream task task-1 ended failed: ${gone}`,
    );
    // Another client cancels the upstream task (the stateless 2026 request of an id-only owner,
    // or the 1.x client's own session).
    const running = run(tools, 'deploy', { ms: 60_000 });
    await up.task(2, 'working');
    if (era === 'modern') await modernRequest(up.url, 'tasks/cancel', { taskId: 'task-2' });
    else await (client as unknown as V1Client).experimental.tasks.cancelTask('task-2');
    assert.equal(
      await running,
      'error: mcp server "up": tool "deploy": the upstream task task-2 ended cancelled: cancelled by the client',
    );
  });

test("consume (2026-07-28): the host's cancel and the host's time limit cancel the upstream task", async () => {
  const up = await upstream();
  const client = await clientOf('modern', up.url);
  const tools = await connectTools(client, { policy: ALLOW, server: 'up', timeoutMs: 200 });
  const controller = new AbortController();
  const cancelled = run(tools, 'deploy', { ms: 60_000 }, controller.signal);
  await up.task(1, 'working');
  controller.abort();
  assert.equal(await cancelled, 'error: This operation was aborted');
  await up.task(1, 'cancelled');
  assert.equal(await run(tools, 'deploy', { ms: 60_000 }), 'error: tool "deploy" timed out after 200 ms');
  await up.task(2, 'cancelled');
  assert.deepEqual(up.fixture.aborted, ['deploy', 'deploy']);
});

test('consume (2026-07-28): a tool its server runs only as a task, listed without saying so, is retried as a task', async () => {
  const up = await upstream();
  const client = await clientOf('modern', up.url);
  // The listing loses the toolwright claim, as another server's would not have it.
  const sdk = client as unknown as { request: (...args: unknown[]) => Promise<Record<string, unknown>> };
  const request = sdk.request.bind(sdk);
  sdk.request = async (...args: unknown[]) => {
    const answer = await request(...args);
    if ((args[0] as { method: string }).method !== 'tools/list') return answer;
    return {
      ...answer,
      tools: (answer.tools as Array<Record<string, unknown>>).map(({ _meta: _claims, ...tool }) => tool),
    };
  };
  const tools = await connectTools(client, { policy: ALLOW });
  assert.equal(tools.find((tool) => tool.name === 'deploy')!.task, undefined);
  assert.equal(await run(tools, 'deploy', { ms: 10 }), 'deployed');
  assert.deepEqual(up.store.created, ['task-1']);
  assert.equal(up.methods.get('tools/call'), 2);
});

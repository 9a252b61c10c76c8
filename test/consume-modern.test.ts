import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { createCallContext, type ToolOutput } from '../src/contract/index.js';
import {
  connectServer,
  createProxy,
  FACTS_METHOD,
  serveHttp,
  type HttpHandle,
  type Proxy,
  type ServerConnection,
} from '../src/mcp/index.js';
import { decorated, FACTS_ANSWERS, FACTS_CALLS, slowTool } from './support/consume-decorated.js';
import { OUT_DIR } from './support/cli-paths.js';

// The 2026-07-28 era end to end: a round trip (decorate, serve, consume, serve, consume) over
// HTTP with 2.x clients that negotiate the modern era, and elicitation through a proxy in both
// directions (input_required upstream becomes the proxy's own input_required, a pushed question
// upstream too, an input_required upstream is pushed to a 2025-era client, or the host's
// elicitor answers). About 20 s on this machine.

const META_SERVER = join(OUT_DIR, 'test', 'support', 'consume-meta-server.js');
const PLAIN_SERVER = join(OUT_DIR, 'test', 'support', 'consume-plain-server.js');
const HOST = { host: '127.0.0.1', port: 0 } as const;
const ANY = { '~standard': { version: 1 as const, vendor: 'test', validate: (value: unknown) => ({ value }) } };

const cleanups: Array<() => Promise<unknown>> = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A 2.x client pinned to 2026-07-28 over HTTP, answering elicitation with `answer`. */
async function modernClient(url: string, answer?: (message: string) => Record<string, unknown>): Promise<ClientV2> {
  const client = new ClientV2(
    { name: 'modern-test', version: '1.0.0' },
    {
      capabilities: answer === undefined ? {} : { elicitation: { form: {} } },
      versionNegotiation: { mode: { pin: '2026-07-28' } },
    },
  );
  if (answer !== undefined)
    client.setRequestHandler('elicitation/create', async (request) => answer(String(request.params.message)) as never);
  await client.connect(new HttpV2(new URL(url)));
  cleanups.push(() => client.close());
  assert.equal(client.getProtocolEra(), 'modern');
  return client;
}

/** Counts the 2026-07-28 requests an HTTP endpoint receives, by their `Mcp-Method` header. */
function countMethods(handle: HttpHandle): Map<string, number> {
  const counts = new Map<string, number>();
  handle.server.prependListener('request', (req: IncomingMessage) => {
    const method = req.headers['mcp-method'];
    if (typeof method === 'string') counts.set(method, (counts.get(method) ?? 0) + 1);
  });
  return counts;
}

async function served(tools: Parameters<typeof serveHttp>[1]): Promise<HttpHandle> {
  const handle = await serveHttp({ name: 'level', version: '1.0.0' }, tools, HOST);
  cleanups.push(() => handle.close());
  return handle;
}

async function consumed(url: string): Promise<ServerConnection> {
  const connection = await connectServer({ url }, { trustClaims: true, policy: null });
  cleanups.push(() => connection.close());
  assert.equal(connection.era, 'modern');
  return connection;
}

test(
  '2026 era round trip: decorate, serve, consume, serve, consume gives identical definitions and facts answers, one facts request per batch',
  { timeout: 60_000 },
  async () => {
    const level1 = await served(decorated());
    const counts = countMethods(level1);
    const level2 = await served((await consumed(level1.url)).tools);
    const level3 = await served((await consumed(level2.url)).tools);
    const clients = [await modernClient(level1.url), await modernClient(level2.url), await modernClient(level3.url)];
    const raw = async (client: ClientV2, method: string, params: Record<string, unknown>) =>
      JSON.stringify(await client.request({ method, params }, ANY));
    const listing = await raw(clients[0]!, 'tools/list', {});
    assert.deepEqual(
      JSON.parse(listing).tools.map((t: { name: string }) => t.name),
      ['bash', 'itself', 'nothing', 'failing', 'plain'],
    );
    assert.equal(await raw(clients[1]!, 'tools/list', {}), listing);
    assert.equal(await raw(clients[2]!, 'tools/list', {}), listing);
    const facts = await raw(clients[0]!, FACTS_METHOD, { calls: FACTS_CALLS });
    assert.deepEqual(JSON.parse(facts), {
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'level', version: '1.0.0' } },
      ...FACTS_ANSWERS,
    });
    const before = counts.get(FACTS_METHOD) ?? 0;
    assert.equal(await raw(clients[1]!, FACTS_METHOD, { calls: FACTS_CALLS }), facts);
    assert.equal(
      (counts.get(FACTS_METHOD) ?? 0) - before,
      1,
      'the level-2 server asked level 1 once for the whole batch',
    );
    assert.equal(await raw(clients[2]!, FACTS_METHOD, { calls: FACTS_CALLS }), facts);
  },
);

let proxy: Proxy | undefined;
let proxyHttp: HttpHandle | undefined;
let proxyCounts: Map<string, number>;

/**
 * One proxy over HTTP for the elicitation tests: a 2.x upstream (modern era) and a 1.x upstream
 * (2025 era, pushes its questions).
 */
async function sharedProxy(): Promise<HttpHandle> {
  if (proxyHttp !== undefined) return proxyHttp;
  proxy = await createProxy(
    [
      { name: 'm', prefix: 'm.', command: process.execPath, args: [META_SERVER] },
      { name: 'p', prefix: 'p.', command: process.execPath, args: [PLAIN_SERVER, 'p'] },
    ],
    { stderr: 'ignore' },
  );
  cleanups.push(() => proxy!.close());
  proxyHttp = await proxy.serveHttp(HOST);
  cleanups.push(() => proxyHttp!.close());
  proxyCounts = countMethods(proxyHttp);
  assert.deepEqual(
    proxy.connections.map((c) => c.era),
    ['modern', 'legacy'],
  );
  return proxyHttp;
}

test(
  "through a proxy in the 2026 era, an upstream's input_required becomes the proxy's own input_required, answered by its client",
  { timeout: 60_000 },
  async () => {
    const http = await sharedProxy();
    const asked: string[] = [];
    const client = await modernClient(
      http.url,
      (message) => (asked.push(message), { action: 'accept', content: { name: 'Ada' } }),
    );
    const before = proxyCounts.get('tools/call') ?? 0;
    const result = await client.callTool({ name: 'm.confirm', arguments: { greeting: 'hello' } });
    assert.deepEqual(result.content, [{ type: 'text', text: 'hello {"action":"accept","content":{"name":"Ada"}}' }]);
    assert.deepEqual(asked, ['Name?']);
    assert.equal((proxyCounts.get('tools/call') ?? 0) - before, 2, 'the call, then its retry with the answer');
  },
);

test(
  "through a proxy, a 2025-era upstream's pushed question reaches a 2026-era client as input_required",
  { timeout: 60_000 },
  async () => {
    const http = await sharedProxy();
    const client = await modernClient(http.url, (message) => ({
      action: 'accept',
      content: { name: `Ada, asked ${message}` },
    }));
    const before = proxyCounts.get('tools/call') ?? 0;
    const result = await client.callTool({ name: 'p.ask', arguments: {} });
    assert.deepEqual(result.content, [
      { type: 'text', text: '{"action":"accept","content":{"name":"Ada, asked Name?"}}' },
    ]);
    assert.equal((proxyCounts.get('tools/call') ?? 0) - before, 2);
  },
);

test(
  "through a proxy, a 2026-era upstream's input_required is pushed to a 2025-era client as elicitation/create",
  { timeout: 60_000 },
  async () => {
    const http = await sharedProxy();
    const client = new ClientV1(
      { name: 'legacy-test', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } } },
    );
    const asked: unknown[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params);
      return { action: 'accept', content: { name: 'Grace' } };
    });
    await client.connect(new HttpV1(new URL(http.url)));
    cleanups.push(() => client.close());
    const result = await client.callTool({ name: 'm.confirm', arguments: { greeting: 'hi' } });
    assert.deepEqual(result.content, [{ type: 'text', text: 'hi {"action":"accept","content":{"name":"Grace"}}' }]);
    assert.deepEqual(asked, [
      { mode: 'form', message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } },
    ]);
  },
);

test(
  'a proxy with a host elicitor answers upstream questions itself; its client is never asked',
  { timeout: 60_000 },
  async () => {
    const questions: string[] = [];
    const own = await createProxy([{ name: 'm', command: process.execPath, args: [META_SERVER] }], {
      stderr: 'ignore',
      elicit: async (question, about) => {
        questions.push(`${about.server}/${about.tool}: ${question.message}`);
        return { action: 'accept', content: { name: 'the host' } };
      },
    });
    cleanups.push(() => own.close());
    const http = await own.serveHttp(HOST);
    cleanups.push(() => http.close());
    const client = await modernClient(http.url);
    const result = await client.callTool({ name: 'confirm', arguments: { greeting: 'hey' } });
    assert.deepEqual(result.content, [{ type: 'text', text: 'hey {"action":"accept","content":{"name":"the host"}}' }]);
    assert.deepEqual(questions, ['m/confirm: Name?']);
  },
);

test(
  'connectServer in the 2026 era: progress becomes updates, cancelling reaches the server, a per-tool timeout names server and tool',
  { timeout: 60_000 },
  async () => {
    const ended: string[] = [];
    const slow = slowTool(() => ended.push('aborted'));
    const upstream = await served([slow]);
    const connection = await connectServer(
      { url: upstream.url },
      { permission: 'read', timeoutMs: (tool) => (tool.name === 'slow' ? 300 : undefined) },
    );
    cleanups.push(() => connection.close());
    assert.equal(connection.era, 'modern');
    const tool = connection.tools[0]!;
    const updates: ToolOutput[] = [];
    const controller = new AbortController();
    const ctx = createCallContext({
      call: { id: '1', tool: 'slow', args: {} },
      signal: controller.signal,
      update: (output: ToolOutput) => {
        updates.push(output);
        controller.abort(new Error('stop'));
      },
    } as never);
    await assert.rejects(tool.execute({}, ctx), { message: 'stop' });
    assert.deepEqual(updates, [
      { content: [{ type: 'text', text: 'half' }], details: { progress: 1, total: 2, message: 'half' } },
    ]);
    for (let i = 0; i < 500 && ended.length < 1; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(ended.length, 1, "the server's call was aborted");
    await assert.rejects(tool.execute({}, createCallContext({ call: { id: '2', tool: 'slow', args: {} } })), {
      message: 'mcp server "level": tool "slow": timed out after 300 ms',
    });
    for (let i = 0; i < 500 && ended.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(ended.length, 2, 'the timed-out call was aborted on the server too');
  },
);

test(
  "through a proxy, a 2026-era upstream's changed tool list (announced on its listen stream) refreshes the proxy and reaches its 2025-era client",
  { timeout: 60_000 },
  async () => {
    const own = await createProxy([{ name: 'm', command: process.execPath, args: [META_SERVER] }], {
      stderr: 'ignore',
    });
    cleanups.push(() => own.close());
    assert.equal(own.connections[0]!.era, 'modern');
    const http = await own.serveHttp(HOST);
    cleanups.push(() => http.close());
    const client = new ClientV1({ name: 'legacy-test', version: '1.0.0' });
    await client.connect(new HttpV1(new URL(http.url)));
    cleanups.push(() => client.close());
    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changes += 1;
    });
    assert.deepEqual(
      (await client.listTools()).tools.map((t) => t.name),
      ['traced', 'refused', 'confirm', 'add_tool'],
    );
    assert.deepEqual((await client.callTool({ name: 'add_tool', arguments: {} })).content, [
      { type: 'text', text: 'added' },
    ]);
    for (let i = 0; i < 500 && changes === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(changes, 1);
    assert.deepEqual(
      (await client.listTools()).tools.map((t) => t.name),
      ['traced', 'refused', 'confirm', 'add_tool', 'extra'],
    );
    assert.deepEqual((await client.callTool({ name: 'extra', arguments: {} })).content, [
      { type: 'text', text: 'extra ran' },
    ]);
  },
);

test(
  "a proxy tells its 2026-era HTTP clients of an upstream's changed tool list on their listen streams",
  { timeout: 60_000 },
  async () => {
    const own = await createProxy([{ name: 'm', command: process.execPath, args: [META_SERVER] }], {
      stderr: 'ignore',
    });
    cleanups.push(() => own.close());
    const http = await own.serveHttp(HOST);
    cleanups.push(() => http.close());
    const changed: string[][] = [];
    const client = new ClientV2(
      { name: 'modern-test', version: '1.0.0' },
      {
        versionNegotiation: { mode: { pin: '2026-07-28' } },
        listChanged: {
          tools: { debounceMs: 0, onChanged: (_error, tools) => void changed.push((tools ?? []).map((t) => t.name)) },
        },
      },
    );
    await client.connect(new HttpV2(new URL(http.url)));
    cleanups.push(() => client.close());
    assert.ok(client.autoOpenedSubscription !== undefined, 'the client listens for changes');
    assert.deepEqual((await client.callTool({ name: 'add_tool', arguments: {} })).content, [
      { type: 'text', text: 'added' },
    ]);
    for (let i = 0; i < 500 && changed.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.deepEqual(changed, [['traced', 'refused', 'confirm', 'add_tool', 'extra']]);
  },
);

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { createProxy, type Proxy } from '../src/mcp/proxy/index.js';
import type { HttpHandle } from '../src/mcp/transports/index.js';
import { CLI_PATH, OUT_DIR } from './support/cli-paths.js';
import { serveOverHttp, type ServedOverHttp } from './support/http-serve.js';
import { ERA_CLIENT_KINDS, type EraClientKind } from './support/nest-era-clients.js';
import { connectSetClient, textOf, type SetClient } from './support/sets-clients.js';
import { until } from './support/server-harness.js';

/*
 * A tool set changed while real clients of both SDK lines and both eras are connected (SDK 1.x
 * in the 2025-11-25 era, SDK 2.x in each era), over stdio (a `toolwright serve` child per client)
 * and streamable HTTP (one `toolwright serve --http` for the file, every client connected at
 * once): the module's `apply_change` tool changes the set through the `ServedSet` the CLI hands
 * to its `onServe`. Each client is told as its era defines (2025: `notifications/tools/
 * list_changed`; 2026-07-28: on its `subscriptions/listen` stream, which asked for
 * `toolsListChanged`), lists the new set, a call already running finishes as it started, the
 * replaced tool's new calls run the new one, and the removed tool is an unknown tool. 2026-07-28
 * lists carry the caching hints (`ttlMs` 0, `public`); 2025 lists carry none. A proxy whose
 * upstream is that module (over stdio, in the 2026-07-28 era the consumer negotiates) follows the
 * upstream's change the same way: its own set changes, and its clients are told.
 */

const FIXTURE = join(OUT_DIR, 'test', 'support', 'sets-fixture.js');
const BEFORE = ['slow', 'doomed', 'apply_change', 'undo_change', 'release', 'running'];
const AFTER = ['slow', 'apply_change', 'undo_change', 'release', 'running', 'fresh'];

/** The hints a `tools/list` result carries: `ttlMs` and `cacheScope`, absent ones left out. */
function hintsOf(result: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(result).filter(([key]) => key === 'ttlMs' || key === 'cacheScope'));
}

const expectedHints = (kind: EraClientKind) =>
  kind === 'sdk 2.x (2026-07-28)' ? { ttlMs: 0, cacheScope: 'public' } : {};

/** Waits until `client` says `count` slow calls run. */
async function runningReaches(client: SetClient, count: number): Promise<void> {
  for (let tries = 0; tries < 200; tries++) {
    if (textOf(await client.call('running')) === String(count)) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`running never reached ${count}`);
}

/** Before the change, the change itself (from `changer`), and everything every client sees after it. */
async function exercise(clients: readonly SetClient[], changer: SetClient): Promise<void> {
  for (const client of clients) {
    assert.deepEqual(await client.names(), BEFORE, client.kind);
    assert.deepEqual(hintsOf(await client.rawList()), expectedHints(client.kind), client.kind);
  }
  const inFlight = clients.map((client) => client.call('slow'));
  await runningReaches(changer, clients.length);
  assert.equal(textOf(await changer.call('apply_change')), AFTER.join(' '));
  await until(() => clients.every((client) => client.told() === 1), 2000);
  for (const client of clients) {
    assert.deepEqual(await client.names(), AFTER, client.kind);
    const listed = (await client.rawList()).tools as { name: string; description: string }[];
    assert.deepEqual(
      listed.map((tool) => [tool.name, tool.description]).slice(0, 1),
      [['slow', 'Answers at once (v2)']],
      client.kind,
    );
    assert.deepEqual(hintsOf(await client.rawList()), expectedHints(client.kind), client.kind);
  }
  assert.equal(textOf(await changer.call('release')), 'released');
  // The calls that started before the change finish with the tool they started with.
  assert.deepEqual(
    (await Promise.all(inFlight)).map(textOf),
    clients.map(() => 'slow v1 finished'),
  );
  for (const client of clients) {
    assert.deepEqual(await client.call('slow'), { content: [{ type: 'text', text: 'slow v2' }] }, client.kind);
    assert.deepEqual(await client.call('fresh'), { content: [{ type: 'text', text: 'fresh' }] }, client.kind);
    await assert.rejects(client.call('doomed'), {
      code: -32602,
      message: /^(MCP error -32602: )?Unknown tool: doomed$/,
    });
    assert.equal(client.told(), 1, client.kind);
  }
}

describe('a set changed while clients of both eras are connected, over stdio (one child per client)', () => {
  for (const kind of ERA_CLIENT_KINDS) {
    it(`${kind}: told as its era defines, lists the new set, calls in flight finish`, { timeout: 60_000 }, async () => {
      const client = await connectSetClient(kind, { command: process.execPath, args: [CLI_PATH, 'serve', FIXTURE] });
      try {
        await exercise([client], client);
      } finally {
        await client.close();
      }
    });
  }
});

describe('a set changed while clients of both eras are connected, over HTTP (one endpoint, every client at once)', () => {
  let http: ServedOverHttp;
  before(async () => {
    http = await serveOverHttp(FIXTURE);
  });
  after(async () => {
    await http.stop();
  });

  it(
    'every client is told as its era defines, lists the new set, and its calls in flight finish',
    { timeout: 60_000 },
    async () => {
      const clients = await Promise.all(
        ERA_CLIENT_KINDS.map((kind) => connectSetClient(kind, { url: new URL(http.url) })),
      );
      try {
        await exercise(clients, clients[0]!);
        assert.equal(textOf(await clients[0]!.call('undo_change')), 'undone');
        await until(() => clients.every((client) => client.told() === 2), 2000);
        for (const client of clients) assert.deepEqual(await client.names(), BEFORE, client.kind);
      } finally {
        await Promise.all(clients.map((client) => client.close()));
      }
    },
  );
});

describe('a proxy follows its upstream as the upstream changes its set', () => {
  let proxy: Proxy;
  let http: HttpHandle;
  before(async () => {
    // Classed `read`, the upstream's tools run in parallel through the proxy (a consumed tool of
    // another class runs one call at a time), so `running` answers while `slow` calls run.
    const upstream = { name: 'up', command: process.execPath, args: [CLI_PATH, 'serve', FIXTURE], permission: 'read' };
    proxy = await createProxy([upstream], { stderr: 'ignore' });
    http = await proxy.serveHttp({ host: '127.0.0.1', port: 0 });
  });
  after(async () => {
    await http.close();
    await proxy.close();
  });

  it(
    "every client of the proxy is told as its era defines and lists the upstream's new set; calls in flight finish",
    { timeout: 60_000 },
    async () => {
      assert.equal(proxy.connections[0]!.era, 'modern');
      const clients = await Promise.all(
        ERA_CLIENT_KINDS.map((kind) => connectSetClient(kind, { url: new URL(http.url) })),
      );
      try {
        await exercise(clients, clients[0]!);
        assert.deepEqual(
          proxy.tools.map((tool) => tool.name),
          AFTER,
        );
      } finally {
        await Promise.all(clients.map((client) => client.close()));
      }
    },
  );
});

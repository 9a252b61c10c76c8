import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import * as z from 'zod/v4';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { ToolError, createCallContext, type ToolResult } from '../src/contract/index.js';
import {
  connectServer,
  createProxy,
  RECORD_META_KEY,
  type HttpHandle,
  type Proxy,
  type ServerConnection,
} from '../src/mcp/index.js';
import { forwardedMetaOf } from '../src/mcp/server/result-meta.js';
import { REFUSED_META, TRACED_META } from './support/consume-meta-server.js';
import { OUT_DIR } from './support/cli-paths.js';

// Upstream result `_meta` (other than the record, which becomes the result's record) passes
// through consumed tools and a proxy unchanged: the same keys in the same order with the same
// values, on results and on isError results. About 10 s on this machine.

const META_SERVER = join(OUT_DIR, 'test', 'support', 'consume-meta-server.js');
const Raw = z.looseObject({});
const ANY = { '~standard': { version: 1 as const, vendor: 'test', validate: (value: unknown) => ({ value }) } };
const ctx = () => createCallContext({ call: { id: '1', tool: 'traced', args: {} } });

const cleanups: Array<() => Promise<unknown>> = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function legacyClient(connect: (client: Client) => Promise<void>): Promise<Client> {
  const client = new Client({ name: 'meta-test', version: '1.0.0' });
  await connect(client);
  cleanups.push(() => client.close());
  return client;
}

/** A tools/call answer exactly as it crossed the wire (no SDK parsing of the result). */
async function rawCall(client: Client, name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  return (await client.request({ method: 'tools/call', params: { name, arguments: args } }, Raw)) as Record<
    string,
    unknown
  >;
}

test(
  "a consumed tool's result carries the upstream _meta for serving again, its record read from it; an isError result too",
  { timeout: 60_000 },
  async () => {
    const connection: ServerConnection = await connectServer(
      { command: process.execPath, args: [META_SERVER], stderr: 'ignore' },
      { permission: 'read' },
    );
    cleanups.push(() => connection.close());
    const [traced, refused] = connection.tools;
    const result = (await traced!.execute({ text: 'x' }, ctx())) as ToolResult;
    assert.deepEqual(result.content, [{ type: 'text', text: 'traced: x' }]);
    assert.deepEqual(result.record, { ns: 'upstream', data: { n: 1, list: [1, 2] } });
    assert.equal(JSON.stringify(forwardedMetaOf(result)), JSON.stringify(TRACED_META));
    await assert.rejects(refused!.execute({}, ctx()), (err: unknown) => {
      assert.ok(err instanceof ToolError);
      assert.equal(err.message, 'refused: not today');
      assert.deepEqual(err.record, { ns: 'upstream', data: { why: 'no' } });
      assert.equal(JSON.stringify(forwardedMetaOf(err)), JSON.stringify(REFUSED_META));
      return true;
    });
  },
);

test(
  'a proxy forwards upstream result _meta byte for byte, on results and isError results, to clients of either era',
  { timeout: 60_000 },
  async () => {
    const direct = await legacyClient((c) =>
      c.connect(new StdioClientTransport({ command: process.execPath, args: [META_SERVER], stderr: 'ignore' })),
    );
    const proxy: Proxy = await createProxy([{ name: 'm', command: process.execPath, args: [META_SERVER] }], {
      stderr: 'ignore',
    });
    cleanups.push(() => proxy.close());
    const http: HttpHandle = await proxy.serveHttp({ host: '127.0.0.1', port: 0 });
    cleanups.push(() => http.close());
    const viaProxy = await legacyClient((c) => c.connect(new StreamableHTTPClientTransport(new URL(http.url))));
    // The members of a result may come in another order; each member, `_meta` included, is the same text.
    const same = (viaProxy: Record<string, unknown>, direct: Record<string, unknown>) => {
      assert.deepEqual(Object.keys(viaProxy).sort(), Object.keys(direct).sort());
      for (const key of Object.keys(direct))
        assert.equal(JSON.stringify(viaProxy[key]), JSON.stringify(direct[key]), key);
    };
    const traced = await rawCall(direct, 'traced', { text: 'x' });
    assert.deepEqual(traced, { content: [{ type: 'text', text: 'traced: x' }], _meta: TRACED_META });
    assert.equal(JSON.stringify(traced._meta), JSON.stringify(TRACED_META));
    same(await rawCall(viaProxy, 'traced', { text: 'x' }), traced);
    const refused = await rawCall(direct, 'refused', {});
    assert.deepEqual(refused, {
      content: [{ type: 'text', text: 'refused: not today' }],
      isError: true,
      _meta: REFUSED_META,
    });
    same(await rawCall(viaProxy, 'refused', {}), refused);
    assert.equal(RECORD_META_KEY, Object.keys(TRACED_META)[1]);

    // A 2026-07-28 client of the proxy gets the upstream's _meta and the proxy's own serverInfo
    // (never the upstream's, which described the proxy's hop to it).
    const modern = new ClientV2(
      { name: 'meta-test', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await modern.connect(new HttpV2(new URL(http.url)));
    cleanups.push(() => modern.close());
    const answer = (await modern.request(
      { method: 'tools/call', params: { name: 'traced', arguments: { text: 'x' } } },
      ANY,
    )) as Record<string, unknown>;
    assert.equal(
      JSON.stringify(answer._meta),
      JSON.stringify({
        'io.modelcontextprotocol/serverInfo': { name: 'toolwright-proxy', version: '0.0.0' },
        ...TRACED_META,
      }),
    );
  },
);

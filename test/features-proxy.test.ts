import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod/v4';
import { createProxy, type Proxy } from '../src/mcp/proxy/index.js';
import { connectServer, type ServerConnection } from '../src/mcp/client/index.js';
import type { HttpHandle } from '../src/mcp/transports/index.js';
import { createCallContext, type ContractResourceTemplate, type ResourceContext } from '../src/contract/index.js';
import { CLI_PATH, OUT_DIR, REPO_ROOT } from './support/cli-paths.js';
import { ERA_CLIENT_KINDS, connectFeatureClient } from './support/feature-clients.js';
import { until } from './support/server-harness.js';

/*
 * Consume and proxy: connectServer reads an upstream's resources, templates and prompts as
 * contract values of their own; createProxy serves them again with prefixed names, the upstream
 * definitions otherwise unchanged, reads and renderings forwarded, errors as the upstream gave
 * them, and subscriptions passed upstream. In front of the real @modelcontextprotocol/server-everything
 * and a toolwright upstream (the feature fixture, served by `toolwright serve`).
 */

const EVERYTHING = join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const FIXTURE = join(OUT_DIR, 'test', 'support', 'features-fixture.js');
const ANY = z.looseObject({});

let proxy: Proxy;
let http: HttpHandle;
let everything: ServerConnection;

before(async () => {
  proxy = await createProxy(
    [
      { name: 'ev', command: process.execPath, args: [EVERYTHING, 'stdio'], prefix: 'ev.' },
      { name: 'tw', command: process.execPath, args: [CLI_PATH, 'serve', FIXTURE], prefix: 'tw.' },
    ],
    { stderr: 'ignore' },
  );
  http = await proxy.serveHttp({ port: 0 });
  everything = await connectServer({ command: process.execPath, args: [EVERYTHING, 'stdio'], stderr: 'ignore' });
});

after(async () => {
  await everything.close();
  await http.close();
  await proxy.close();
});

/** A raw SDK 1.x client of server-everything itself, to compare the proxy's answers with. */
async function direct(): Promise<Client> {
  const client = new Client({ name: 'direct', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, 'stdio'], stderr: 'ignore' }),
  );
  return client;
}

test('connectServer reads server-everything resources, templates and prompts as contract values, and reads through them', async () => {
  assert.deepEqual(
    everything.resources.map((r) => ('uri' in r ? r.uri : (r as ContractResourceTemplate).uriTemplate)).slice(-2),
    ['demo://resource/dynamic/text/{resourceId}', 'demo://resource/dynamic/blob/{resourceId}'],
  );
  assert.deepEqual(
    everything.prompts.map((p) => [
      p.name,
      p.arguments?.map((a) => `${a.name}${a.required === true ? '*' : ''}`) ?? [],
    ]),
    [
      ['simple-prompt', []],
      ['args-prompt', ['city*', 'state']],
      ['completable-prompt', ['department*', 'name*']],
      ['resource-prompt', ['resourceType*', 'resourceId*']],
    ],
  );
  const template = everything.resources.find(
    (r): r is ContractResourceTemplate => 'uriTemplate' in r && r.uriTemplate.includes('/text/'),
  )!;
  const ctx = {
    ...createCallContext({ call: { id: 'r', tool: template.name, args: {} } }),
    uri: 'demo://resource/dynamic/text/3',
  } as ResourceContext;
  const contents = (await template.read({ resourceId: '3' }, ctx)) as Array<{ uri: string; text?: string }>;
  assert.equal(contents[0]!.uri, 'demo://resource/dynamic/text/3');
  assert.equal(typeof contents[0]!.text, 'string');
});

test('the proxy lists the upstreams resources, templates and prompts under prefixed names, definitions otherwise as the upstream sent them', async () => {
  const raw = await direct();
  const client = new Client({ name: 'downstream', version: '1.0.0' });
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
  try {
    const prefixed = (entries: Array<Record<string, unknown>>, prefix: string) =>
      entries.map((entry) => ({ ...entry, name: `${prefix}${String(entry.name)}` }));
    const upstreamResources = (await raw.request({ method: 'resources/list', params: {} }, ANY)).resources as Array<
      Record<string, unknown>
    >;
    const proxied = (await client.request({ method: 'resources/list', params: {} }, ANY)).resources as Array<
      Record<string, unknown>
    >;
    assert.deepEqual(proxied, [
      ...prefixed(upstreamResources, 'ev.'),
      { uri: 'notes://today', name: 'tw.today_notes', description: "Today's notes", mimeType: 'text/markdown' },
    ]);
    const upstreamTemplates = (await raw.request({ method: 'resources/templates/list', params: {} }, ANY))
      .resourceTemplates as Array<Record<string, unknown>>;
    assert.deepEqual(
      (await client.request({ method: 'resources/templates/list', params: {} }, ANY)).resourceTemplates,
      [
        ...prefixed(upstreamTemplates, 'ev.'),
        { uriTemplate: 'users://{id}/profile', name: 'tw.user_profile', mimeType: 'application/json' },
      ],
    );
    const upstreamPrompts = (await raw.request({ method: 'prompts/list', params: {} }, ANY)).prompts as Array<
      Record<string, unknown>
    >;
    const prompts = (await client.request({ method: 'prompts/list', params: {} }, ANY)).prompts as Array<
      Record<string, unknown>
    >;
    assert.deepEqual(prompts.slice(0, upstreamPrompts.length), prefixed(upstreamPrompts, 'ev.'));
    assert.deepEqual(
      prompts.slice(upstreamPrompts.length).map((p) => p.name),
      ['tw.greet', 'tw.interview'],
    );
    assert.deepEqual(client.getServerCapabilities()?.resources, { subscribe: true, listChanged: true });
    assert.deepEqual(client.getServerCapabilities()?.completions, {});
  } finally {
    await client.close();
    await raw.close();
  }
});

test('reads, renderings and completions are forwarded with the upstream name; its errors come back as it gave them', async () => {
  const raw = await direct();
  const client = await connectFeatureClient('sdk 1.x (2025-11-25)', { url: new URL(http.url) });
  try {
    for (const uri of ['demo://resource/static/document/architecture.md', 'demo://resource/dynamic/blob/2'])
      assert.deepEqual(
        await client.request('resources/read', { uri }),
        await raw.request({ method: 'resources/read', params: { uri } }, ANY),
      );
    assert.deepEqual(
      await client.request('prompts/get', { name: 'ev.args-prompt', arguments: { city: 'Oslo' } }),
      await raw.request({ method: 'prompts/get', params: { name: 'args-prompt', arguments: { city: 'Oslo' } } }, ANY),
    );
    assert.deepEqual(
      await client.request('completion/complete', {
        ref: { type: 'ref/prompt', name: 'ev.completable-prompt' },
        argument: { name: 'department', value: 'E' },
      }),
      await raw.request(
        {
          method: 'completion/complete',
          params: {
            ref: { type: 'ref/prompt', name: 'completable-prompt' },
            argument: { name: 'department', value: 'E' },
          },
        },
        ANY,
      ),
    );
    assert.deepEqual(await client.request('resources/read', { uri: 'users://5/profile' }), {
      contents: [
        { uri: 'users://5/profile', mimeType: 'application/json', text: '{"id":5,"uri":"users://5/profile"}' },
      ],
    });
    // The toolwright upstream refuses the variables; the proxy answers with its error.
    await assert.rejects(client.request('resources/read', { uri: 'users://x/profile' }), {
      code: -32602,
      message: 'MCP error -32602: invalid arguments: /id: must be integer',
    });
    await assert.rejects(client.request('resources/read', { uri: 'nothing://here' }), {
      code: -32602,
      message: 'MCP error -32602: Resource not found',
    });
  } finally {
    await client.close();
    await raw.close();
  }
});

test('a prompt that asks the user through the proxy reaches the downstream client, in both eras', async () => {
  for (const kind of ERA_CLIENT_KINDS) {
    const client = await connectFeatureClient(kind, { url: new URL(http.url) }, (message) => `topic for ${message}`);
    try {
      assert.deepEqual(
        await client.request('prompts/get', { name: 'tw.interview' }),
        { messages: [{ role: 'user', content: { type: 'text', text: 'Interview about topic for Which topic?.' } }] },
        kind,
      );
    } finally {
      await client.close();
    }
  }
});

test('a 2025-era subscription through the proxy subscribes upstream and relays the upstream updates', async () => {
  const client = new Client({ name: 'downstream', version: '1.0.0' });
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
  const updates: string[] = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (note) => void updates.push(note.params.uri));
  try {
    await client.subscribeResource({ uri: 'notes://today' });
    // The fixture's touch tool announces the update upstream (reached through the proxy's prefixed tool).
    await client.request(
      { method: 'tools/call', params: { name: 'tw.touch', arguments: { uri: 'notes://today' } } },
      ANY,
    );
    await until(() => updates.length > 0, 400);
    assert.deepEqual(updates, ['notes://today']);
  } finally {
    await client.close();
  }
});

test('toolwright proxy passes resources and prompts through with the NAME. prefix', async () => {
  const client = new Client({ name: 'downstream', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI_PATH, 'proxy', `tw=${process.execPath} ${CLI_PATH} serve ${FIXTURE}`],
      stderr: 'ignore',
    }),
  );
  try {
    assert.deepEqual(await client.listResources(), {
      resources: [
        { uri: 'notes://today', name: 'tw.today_notes', description: "Today's notes", mimeType: 'text/markdown' },
      ],
    });
    assert.deepEqual(await client.getPrompt({ name: 'tw.greet', arguments: { name: 'Grace' } }), {
      messages: [{ role: 'user', content: { type: 'text', text: 'Say hello to Grace.' } }],
    });
  } finally {
    await client.close();
  }
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IsInt, IsString, Min } from 'class-validator';
import {
  Complete,
  MaxOutput,
  Requires,
  ResourceTemplate,
  StaticResource,
  Timeout,
  compileResources,
  type ContractResources,
  type ResourceContext,
} from '../src/index.js';
import { ServerChanges, createServer, type ServerOptions } from '../src/mcp/index.js';
import { createPolicy } from '../src/runtime/index.js';
import { testResources } from '../src/testing/index.js';
import { connect, notificationsOf, responsesOf, serve, until } from './support/server-harness.js';

/*
 * Resources and templates served by createServer to a real SDK 1.x client (the 2025-11-25 era) in
 * memory: listing and pagination, reads and their errors, the call core's time limit, output bound
 * and permissions, subscriptions and announced changes. Exact results; one server per test.
 */

class UserVars {
  @IsInt()
  @Min(1)
  id!: number;
}

@StaticResource({ uri: 'config://app', description: 'The settings', mimeType: 'application/json' })
class AppConfigResource {
  read() {
    return '{"debug":false}';
  }
}

@StaticResource({ uri: 'logo://png', mimeType: 'image/png', size: 3 })
class Logo {
  read() {
    return new Uint8Array([137, 80, 78]);
  }
}

@ResourceTemplate({
  uriTemplate: 'users://{id}/profile',
  title: 'User profile',
  mimeType: 'text/plain',
  args: UserVars,
})
class ProfileTemplate {
  read(vars: UserVars, ctx: ResourceContext) {
    return `user ${vars.id + 1} at ${ctx.uri}`;
  }
  list() {
    return [
      { uri: 'users://1/profile', name: 'ada' },
      { uri: 'users://2/profile', name: 'alan', mimeType: 'text/plain' },
    ];
  }
  @Complete('id')
  ids(value: string) {
    return ['1', '2', '12'].filter((id) => id.startsWith(value));
  }
}

const served = (options: Omit<ServerOptions, 'transport'> = {}) =>
  serve(
    [],
    {},
    { transport: 'memory', resources: compileResources([AppConfigResource, Logo, ProfileTemplate]), ...options },
  );

test('a server with resources declares them (subscribe, listChanged) and completions only when something completes', async () => {
  const plain = await serve([], {}, { transport: 'memory', resources: compileResources([AppConfigResource]) });
  const withChanges = await served({ changes: new ServerChanges() });
  const toolsOnly = await serve([]);
  try {
    assert.deepEqual(plain.client.getServerCapabilities(), {
      experimental: { 'io.github.christopherdavenport.agenttool/facts': {} },
      logging: {},
      resources: { subscribe: true, listChanged: true },
      tools: { listChanged: true },
    });
    assert.deepEqual(withChanges.client.getServerCapabilities(), {
      completions: {},
      experimental: { 'io.github.christopherdavenport.agenttool/facts': {} },
      logging: {},
      resources: { subscribe: true, listChanged: true },
      tools: { listChanged: true },
    });
    await assert.rejects(
      plain.client.complete({ ref: { type: 'ref/resource', uri: 'x://{y}' }, argument: { name: 'y', value: '' } }),
      {
        code: -32601,
        message: 'MCP error -32601: Method not found',
      },
    );
    await assert.rejects(toolsOnly.client.listResources(), {
      code: -32601,
      message: 'MCP error -32601: Method not found',
    });
  } finally {
    await Promise.all([plain.close(), withChanges.close(), toolsOnly.close()]);
  }
});

test('resources/list lists the fixed resources, then what each template lists; resources/templates/list the templates', async () => {
  const { client, close } = await served();
  try {
    assert.deepEqual(await client.listResources(), {
      resources: [
        { uri: 'config://app', name: 'app_config', description: 'The settings', mimeType: 'application/json' },
        { uri: 'logo://png', name: 'logo', mimeType: 'image/png', size: 3 },
        { uri: 'users://1/profile', name: 'ada' },
        { uri: 'users://2/profile', name: 'alan', mimeType: 'text/plain' },
      ],
    });
    assert.deepEqual(await client.listResourceTemplates(), {
      resourceTemplates: [
        { uriTemplate: 'users://{id}/profile', name: 'profile', title: 'User profile', mimeType: 'text/plain' },
      ],
    });
  } finally {
    await close();
  }
});

test('the lists are paginated by listPageSize with an opaque cursor; a cursor the server never made is -32602', async () => {
  const { client, close } = await served({ listPageSize: 3 });
  try {
    const first = await client.listResources();
    assert.deepEqual(
      first.resources.map((r) => r.uri),
      ['config://app', 'logo://png', 'users://1/profile'],
    );
    assert.equal(typeof first.nextCursor, 'string');
    const second = await client.listResources({ cursor: first.nextCursor! });
    assert.deepEqual(second, { resources: [{ uri: 'users://2/profile', name: 'alan', mimeType: 'text/plain' }] });
    await assert.rejects(client.listResources({ cursor: 'bogus' }), {
      code: -32602,
      message: 'MCP error -32602: resources/list: unknown cursor "bogus"',
    });
    await assert.rejects(client.listResourceTemplates({ cursor: first.nextCursor! }), {
      code: -32602,
      message: `MCP error -32602: resources/templates/list: unknown cursor ${JSON.stringify(first.nextCursor)}`,
    });
  } finally {
    await close();
  }
  assert.throws(() => createServer({ name: 's', version: '1' }, [], { listPageSize: 0 }), {
    name: 'TypeError',
    message: 'createServer: "listPageSize" must be a positive integer, got 0',
  });
});

test('resources/read answers text, bytes as base64, and a template read with its variables typed', async () => {
  const { client, close } = await served();
  try {
    assert.deepEqual(await client.readResource({ uri: 'config://app' }), {
      contents: [{ uri: 'config://app', mimeType: 'application/json', text: '{"debug":false}' }],
    });
    assert.deepEqual(await client.readResource({ uri: 'logo://png' }), {
      contents: [{ uri: 'logo://png', mimeType: 'image/png', blob: 'iVBO' }],
    });
    assert.deepEqual(await client.readResource({ uri: 'users://41/profile' }), {
      contents: [{ uri: 'users://41/profile', mimeType: 'text/plain', text: 'user 42 at users://41/profile' }],
    });
  } finally {
    await close();
  }
});

test('contents may name their own URI and MIME type; several pieces are several contents', async () => {
  const folder: ContractResources = [
    {
      uri: 'dir://docs',
      name: 'docs',
      mimeType: 'text/plain',
      read: async () => [
        { uri: 'dir://docs/a.md', mimeType: 'text/markdown', text: '# A' },
        { text: 'b' },
        { blob: 'AAE=' },
      ],
    },
  ];
  const { client, close } = await serve([], {}, { transport: 'memory', resources: compileResources(folder) });
  try {
    assert.deepEqual(await client.readResource({ uri: 'dir://docs' }), {
      contents: [
        { uri: 'dir://docs/a.md', mimeType: 'text/markdown', text: '# A' },
        { uri: 'dir://docs', mimeType: 'text/plain', text: 'b' },
        { uri: 'dir://docs', mimeType: 'text/plain', blob: 'AAE=' },
      ],
    });
  } finally {
    await close();
  }
});

test('a URI nothing serves is -32602 Resource not found with the URI; bad params and invalid variables are -32602', async () => {
  const { client, wire, close } = await served();
  try {
    await client.readResource({ uri: 'nope://x' }).catch(() => undefined);
    await client.readResource({ uri: 'users://zero/profile' }).catch(() => undefined);
    await client.readResource({ uri: 'users://0/profile' }).catch(() => undefined);
    await client
      .request({ method: 'resources/read', params: {} } as never, { parse: (v: unknown) => v } as never)
      .catch(() => undefined);
    assert.deepEqual(
      responsesOf(wire)
        .slice(1)
        .map((message) => (message as { error?: unknown }).error),
      [
        { code: -32602, message: 'Resource not found', data: { uri: 'nope://x' } },
        { code: -32602, message: 'invalid arguments: /id: must be integer', data: { uri: 'users://zero/profile' } },
        { code: -32602, message: 'invalid arguments: /id: must be >= 1', data: { uri: 'users://0/profile' } },
        { code: -32602, message: 'resources/read: params.uri must be a string, got nothing' },
      ],
    );
  } finally {
    await close();
  }
});

test('a read that fails, returns nothing readable, or runs past its time limit is -32603 with the failure as text', async () => {
  @StaticResource({ uri: 'slow://x' })
  @Timeout(30)
  class Slow {
    read(ctx: ResourceContext) {
      return new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve('late')));
    }
  }
  const resources = compileResources([
    { uri: 'fail://error', name: 'e', read: async () => Promise.reject(new Error('disk on fire')) },
    { uri: 'fail://value', name: 'v', read: async () => Promise.reject('oops') },
    { uri: 'fail://output', name: 'o', read: async () => 42 as never },
    { uri: 'fail://piece', name: 'p', read: async () => [{ text: 'a', blob: 'b' }] as never },
    Slow,
  ]);
  const { client, wire, close } = await serve([], {}, { transport: 'memory', resources });
  try {
    for (const uri of ['fail://error', 'fail://value', 'fail://output', 'fail://piece', 'slow://x'])
      await client.readResource({ uri }).catch(() => undefined);
    assert.deepEqual(
      responsesOf(wire)
        .slice(1)
        .map((message) => (message as { error?: unknown }).error),
      [
        { code: -32603, message: 'disk on fire', data: { uri: 'fail://error' } },
        { code: -32603, message: 'resource "fail://value" threw: "oops"', data: { uri: 'fail://value' } },
        {
          code: -32603,
          message:
            'resource "fail://output" returned an invalid output: expected text, bytes, a { text } or { blob } content or an array of them, got a number',
          data: { uri: 'fail://output' },
        },
        {
          code: -32603,
          message:
            'resource "fail://piece" returned an invalid output: content 0 needs a string "text" or a base64 string "blob" (one of them)',
          data: { uri: 'fail://piece' },
        },
        { code: -32603, message: 'resource "slow://x" timed out after 30 ms', data: { uri: 'slow://x' } },
      ],
    );
  } finally {
    await close();
  }
});

test('the text of a read is bounded by @MaxOutput, else the host maxOutputChars, with the visible marker; blobs are not cut', async () => {
  @StaticResource({ uri: 'big://own' })
  @MaxOutput({ chars: 4 })
  class Own {
    read() {
      return [{ text: 'abcdefgh' }, { blob: 'QUJD' }, { text: 'more' }];
    }
  }
  const resources = compileResources([Own, { uri: 'big://host', name: 'h', read: async () => 'x'.repeat(12) }]);
  const { client, close } = await serve([], {}, { transport: 'memory', resources, maxOutputChars: 10 });
  try {
    assert.deepEqual(await client.readResource({ uri: 'big://own' }), {
      contents: [
        { uri: 'big://own', text: 'abcd\n…[truncated: showing 4 of 12 characters]' },
        { uri: 'big://own', blob: 'QUJD' },
      ],
    });
    assert.deepEqual(await client.readResource({ uri: 'big://host' }), {
      contents: [{ uri: 'big://host', text: 'xxxxxxxxxx\n…[truncated: showing 10 of 12 characters]' }],
    });
  } finally {
    await close();
  }
});

test('under a policy a read is a read request on its URI; @Requires is checked on { uri, ...variables } with or without one', async () => {
  class FileVars {
    @IsString()
    path!: string;
  }
  @ResourceTemplate({ uriTemplate: 'file:///{+path}', args: FileVars })
  @Requires({ capabilities: ['open'], subject: (args: { path: string }) => `/${args.path}`, reason: 'reads a file' })
  class Files {
    read(vars: FileVars) {
      return `file ${vars.path}`;
    }
  }
  const resources = compileResources([AppConfigResource, Files]);
  const policy = createPolicy({
    rules: [
      { effect: 'allow', subject: 'file:///docs/**', capabilities: ['read'] },
      { effect: 'allow', path: '/docs/**', capabilities: ['open'] },
      { effect: 'deny', subject: '**', capabilities: ['read', 'open'], reason: 'not shared' },
    ],
  });
  const guarded = await serve([], {}, { transport: 'memory', resources, policy });
  const unguarded = await serve([], {}, { transport: 'memory', resources });
  try {
    assert.deepEqual(await guarded.client.readResource({ uri: 'file:///docs/a.md' }), {
      contents: [{ uri: 'file:///docs/a.md', text: 'file docs/a.md' }],
    });
    await assert.rejects(guarded.client.readResource({ uri: 'config://app' }), {
      code: -32603,
      message: 'MCP error -32603: permission denied: read on "config://app": not shared',
    });
    await assert.rejects(guarded.client.readResource({ uri: 'file:///etc/passwd' }), {
      code: -32603,
      message: 'MCP error -32603: permission denied: read on "file:///etc/passwd": not shared',
    });
    // Without a policy only the requirements are checked, and nothing grants them.
    assert.deepEqual(await unguarded.client.readResource({ uri: 'config://app' }), {
      contents: [{ uri: 'config://app', mimeType: 'application/json', text: '{"debug":false}' }],
    });
    await assert.rejects(unguarded.client.readResource({ uri: 'file:///docs/a.md' }), {
      code: -32603,
      message: 'MCP error -32603: permission denied: no permission policy is configured to grant open on "/docs/a.md"',
    });
  } finally {
    await Promise.all([guarded.close(), unguarded.close()]);
  }
});

test('subscriptions: changes.resourceUpdated tells the sessions subscribed to that URI; resourcesChanged tells every session', async () => {
  const changes = new ServerChanges();
  const { client, wire, close } = await served({ changes });
  try {
    await client.subscribeResource({ uri: 'users://7/profile' });
    await client.subscribeResource({ uri: 'config://app' });
    await assert.rejects(client.subscribeResource({ uri: 'nope://x' }), {
      code: -32602,
      message: 'MCP error -32602: Resource not found',
    });
    changes.resourceUpdated('users://7/profile');
    changes.resourceUpdated('users://8/profile');
    await client.unsubscribeResource({ uri: 'config://app' });
    changes.resourceUpdated('config://app');
    changes.resourcesChanged();
    await until(() => notificationsOf(wire, 'notifications/resources/list_changed').length === 1);
    assert.deepEqual(notificationsOf(wire, 'notifications/resources/updated'), [{ uri: 'users://7/profile' }]);
    assert.equal(changes.listenerCount, 1);
  } finally {
    await close();
  }
  assert.equal(changes.listenerCount, 0);
  assert.throws(() => changes.resourceUpdated(''), {
    name: 'TypeError',
    message: 'ServerChanges.resourceUpdated: the URI must be a non-empty string, got ""',
  });
});

test('completion/complete of a template variable answers from its @Complete method', async () => {
  const { client, close } = await served();
  try {
    assert.deepEqual(
      await client.complete({
        ref: { type: 'ref/resource', uri: 'users://{id}/profile' },
        argument: { name: 'id', value: '1' },
      }),
      { completion: { values: ['1', '12'] } },
    );
    await assert.rejects(
      client.complete({ ref: { type: 'ref/resource', uri: 'users://{id}' }, argument: { name: 'id', value: '' } }),
      { code: -32602, message: 'MCP error -32602: Unknown resource template: users://{id}' },
    );
    await assert.rejects(
      client.complete({
        ref: { type: 'ref/resource', uri: 'users://{id}/profile' },
        argument: { name: 'name', value: '' },
      }),
      {
        code: -32602,
        message: 'MCP error -32602: completion/complete: template "users://{id}/profile" has no variable "name"',
      },
    );
  } finally {
    await close();
  }
});

test('toolwright/testing reads resources in process with the exact results a server sends', async () => {
  const tester = testResources([AppConfigResource, Logo, ProfileTemplate], { listPageSize: 2 });
  const { client, close } = await served({ listPageSize: 2 });
  try {
    assert.deepEqual(await tester.listResources(), await client.listResources());
    assert.deepEqual(await tester.listResourceTemplates(), await client.listResourceTemplates());
    for (const uri of ['config://app', 'logo://png', 'users://3/profile'])
      assert.deepEqual(await tester.readResource(uri), await client.readResource({ uri }));
    assert.deepEqual(await tester.complete('users://{id}/profile', 'id', ''), {
      completion: { values: ['1', '2', '12'] },
    });
    await assert.rejects(tester.readResource('users://x/profile'), {
      name: 'ProtocolError',
      code: -32602,
      message: 'invalid arguments: /id: must be integer',
      data: { uri: 'users://x/profile' },
    });
    await assert.rejects(testResources([AppConfigResource]).complete('x://{y}', 'y', ''), {
      code: -32601,
      message: 'Method not found',
    });
  } finally {
    await close();
  }
});

test('a server whose resources are not a valid set refuses to start, naming the resource', () => {
  const read = async () => '';
  assert.throws(
    () =>
      createServer({ name: 's', version: '1' }, [], {
        resources: [
          { uri: 'a:b', name: 'a', read },
          { uri: 'a:b', name: 'b', read },
        ],
      }),
    { message: 'createServer: resource "a:b" is listed twice; resource URIs must be unique' },
  );
  assert.throws(
    () => createServer({ name: 's', version: '1' }, [], { resources: [{ uri: 'nope', name: 'a', read }] }),
    {
      message: 'createServer: resource "nope": "uri" must be an absolute URI (or give a "uriTemplate")',
    },
  );
  assert.throws(() => createServer({ name: 's', version: '1' }, [], { changes: {} as never }), {
    name: 'TypeError',
    message: 'createServer: "changes" must be a ServerChanges (new ServerChanges()), got an object',
  });
  void connect;
});

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  compilePrompts,
  compileResources,
  serveHttp,
  type ContractTool,
  type ServeHttpHandle,
  type ServeHttpOptions,
} from '../src/index.js';
import { createServer } from '../src/mcp/index.js';
import { prompts, resources } from './support/features-fixture.js';
import { envelope, modernPost, resultOf } from './support/modern-http.js';

/*
 * The 2026-07-28 caching hints (`ttlMs`, `cacheScope`) of the five cacheable results, as the wire
 * carries them (raw requests of the revision over HTTP): the defaults, the `cacheHints` option (top
 * level and per method), a `tools/list` that `hideForbiddenTools` filters (private whatever is
 * configured), and the hint following the set as it changes. The option's bad values are refused,
 * naming the member. The 2025-era lists, which carry no hints, are pinned in sets-eras.
 */

const INFO = { name: 'hints', version: '1.0.0' };
const plain: ContractTool = { name: 'plain', description: 'Open to all', execute: async () => 'plain' };
const admin: ContractTool = {
  name: 'admin',
  description: 'Needs the admin scope',
  scopes: ['admin'],
  execute: async () => 'admin',
};

/** The hint of one 2026-07-28 request's result: its `ttlMs` and `cacheScope` only. */
async function hintOf(handle: ServeHttpHandle, method: string, params?: Record<string, unknown>) {
  // The revision's Mcp-Name header names the resource a read is for.
  const headers: Record<string, string> = typeof params?.uri === 'string' ? { 'mcp-name': params.uri } : {};
  const request = { id: 1, method, ...(params ? { params } : {}) };
  const result = resultOf(await modernPost(handle.url, request, envelope({}), undefined, headers));
  return { ttlMs: result.ttlMs, cacheScope: result.cacheScope };
}

/** Every cacheable method's hint, by method. */
async function hintsOf(handle: ServeHttpHandle): Promise<Record<string, unknown>> {
  return {
    'tools/list': await hintOf(handle, 'tools/list'),
    'prompts/list': await hintOf(handle, 'prompts/list'),
    'resources/list': await hintOf(handle, 'resources/list'),
    'resources/templates/list': await hintOf(handle, 'resources/templates/list'),
    'resources/read': await hintOf(handle, 'resources/read', { uri: 'notes://today' }),
  };
}

const features = { resources: compileResources(resources), prompts: compilePrompts(prompts) };
const handles: ServeHttpHandle[] = [];
async function serve(tools: readonly ContractTool[], options: ServeHttpOptions): Promise<ServeHttpHandle> {
  const handle = await serveHttp(INFO, tools, { host: '127.0.0.1', port: 0, ...features, ...options });
  handles.push(handle);
  return handle;
}

let defaults: ServeHttpHandle;
before(async () => {
  defaults = await serve([plain], {});
});
after(async () => {
  await Promise.all(handles.map((handle) => handle.close()));
});

test('sets: by default every cacheable result is stale at once; lists the same for every caller are public, reads private', async () => {
  assert.deepEqual(await hintsOf(defaults), {
    'tools/list': { ttlMs: 0, cacheScope: 'public' },
    'prompts/list': { ttlMs: 0, cacheScope: 'public' },
    'resources/list': { ttlMs: 0, cacheScope: 'public' },
    'resources/templates/list': { ttlMs: 0, cacheScope: 'public' },
    'resources/read': { ttlMs: 0, cacheScope: 'private' },
  });
});

test('sets: cacheHints sets every result, and a method its own, over the top level', async () => {
  const configured = await serve([plain], {
    cacheHints: {
      ttlMs: 60_000,
      methods: {
        'prompts/list': { ttlMs: 5_000, cacheScope: 'private' },
        'resources/read': { cacheScope: 'public' },
        'resources/list': { ttlMs: 0 },
      },
    },
  });
  assert.deepEqual(await hintsOf(configured), {
    'tools/list': { ttlMs: 60_000, cacheScope: 'public' },
    'prompts/list': { ttlMs: 5_000, cacheScope: 'private' },
    'resources/list': { ttlMs: 0, cacheScope: 'public' },
    'resources/templates/list': { ttlMs: 60_000, cacheScope: 'public' },
    'resources/read': { ttlMs: 60_000, cacheScope: 'public' },
  });
  const allPrivate = await serve([plain], { cacheHints: { cacheScope: 'private', ttlMs: 1 } });
  assert.deepEqual(await hintOf(allPrivate, 'tools/list'), { ttlMs: 1, cacheScope: 'private' });
});

test('sets: a tools/list hideForbiddenTools filters is private whatever is configured, and the hint follows the set', async () => {
  const hiding = await serve([plain], {
    hideForbiddenTools: true,
    cacheHints: { ttlMs: 30_000, cacheScope: 'public', methods: { 'tools/list': { cacheScope: 'public' } } },
  });
  // No tool has scopes: the list is the same for every caller.
  assert.deepEqual(await hintOf(hiding, 'tools/list'), { ttlMs: 30_000, cacheScope: 'public' });
  hiding.addTools([admin]);
  assert.deepEqual(await hintOf(hiding, 'tools/list'), { ttlMs: 30_000, cacheScope: 'private' });
  // The other lists do not depend on the caller's scopes.
  assert.deepEqual(await hintOf(hiding, 'prompts/list'), { ttlMs: 30_000, cacheScope: 'public' });
  hiding.removeTools(['admin']);
  assert.deepEqual(await hintOf(hiding, 'tools/list'), { ttlMs: 30_000, cacheScope: 'public' });
  // Without hideForbiddenTools the list is not filtered, scopes or not.
  const showing = await serve([plain, admin], { cacheHints: { ttlMs: 30_000 } });
  assert.deepEqual(await hintOf(showing, 'tools/list'), { ttlMs: 30_000, cacheScope: 'public' });
});

test('sets: bad cacheHints are refused, naming the member and what is expected', () => {
  const refused = (cacheHints: unknown, message: string) =>
    assert.throws(() => createServer(INFO, [plain], { cacheHints } as never), { name: 'TypeError', message });
  refused(60, 'createServer: "cacheHints" must be an object such as { ttlMs: 60000 }, got 60');
  refused({ ttl: 5 }, 'createServer: "cacheHints" has no member "ttl"; use ttlMs, cacheScope, methods');
  refused(
    { ttlMs: -1 },
    'createServer: "cacheHints.ttlMs" must be a non-negative whole number of milliseconds, got -1',
  );
  refused(
    { ttlMs: 1.5 },
    'createServer: "cacheHints.ttlMs" must be a non-negative whole number of milliseconds, got 1.5',
  );
  refused(
    { cacheScope: 'shared' },
    'createServer: "cacheHints.cacheScope" must be "public" or "private", got "shared"',
  );
  refused(
    { methods: { 'tools/call': {} } },
    'createServer: "cacheHints.methods" has no method "tools/call"; use tools/list, prompts/list, resources/list, resources/templates/list, resources/read',
  );
  refused(
    { methods: { 'tools/list': { scope: 'public' } } },
    'createServer: "cacheHints.methods.tools/list" has no member "scope"; use ttlMs, cacheScope',
  );
});

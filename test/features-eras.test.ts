import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { CLI_PATH, OUT_DIR } from './support/cli-paths.js';
import {
  ERA_CLIENT_KINDS,
  connectFeatureClient,
  type EraTarget,
  type FeatureClient,
} from './support/feature-clients.js';
import { serveOverHttp, type ServedOverHttp } from './support/http-serve.js';

/*
 * Resources, templates, prompts and completion of a module served by `toolwright serve`, to real
 * clients of both SDK lines and both eras (SDK 1.x in the 2025-11-25 era, SDK 2.x in each era),
 * over stdio (a child process per client) and streamable HTTP (one server for the file): the
 * same exact answers everywhere, a prompt that asks the user (pushed in 2025, an input round in
 * 2026-07-28), and a resource update reaching a subscriber (resources/subscribe in 2025,
 * subscriptions/listen in 2026-07-28).
 */

const FIXTURE = join(OUT_DIR, 'test', 'support', 'features-fixture.js');

let http: ServedOverHttp;

before(async () => {
  http = await serveOverHttp(FIXTURE);
});

after(async () => {
  await http.stop();
});

/** Resolves once `updates` holds `count` entries, checking every 10 ms, at most 300 times. */
async function updatesReach(updates: readonly string[], count: number): Promise<void> {
  for (let tries = 0; tries < 300 && updates.length < count; tries++) await new Promise((r) => setTimeout(r, 10));
}

async function exercise(client: FeatureClient): Promise<void> {
  assert.deepEqual(await client.request('resources/list'), {
    resources: [{ uri: 'notes://today', name: 'today_notes', description: "Today's notes", mimeType: 'text/markdown' }],
  });
  assert.deepEqual(await client.request('resources/templates/list'), {
    resourceTemplates: [{ uriTemplate: 'users://{id}/profile', name: 'user_profile', mimeType: 'application/json' }],
  });
  assert.deepEqual(await client.request('resources/read', { uri: 'notes://today' }), {
    contents: [{ uri: 'notes://today', mimeType: 'text/markdown', text: '# Today\n- write tests' }],
  });
  assert.deepEqual(await client.request('resources/read', { uri: 'users://7/profile' }), {
    contents: [{ uri: 'users://7/profile', mimeType: 'application/json', text: '{"id":7,"uri":"users://7/profile"}' }],
  });
  await assert.rejects(client.request('resources/read', { uri: 'users://x/profile' }), {
    code: -32602,
    message: /^(MCP error -32602: )?invalid arguments: \/id: must be integer$/,
  });
  assert.deepEqual(await client.request('prompts/list'), {
    prompts: [
      {
        name: 'greet',
        description: 'Greets someone',
        arguments: [{ name: 'name', description: 'Whom to greet', required: true }],
      },
      { name: 'interview', description: 'Asks the user for a topic first' },
    ],
  });
  assert.deepEqual(await client.request('prompts/get', { name: 'greet', arguments: { name: 'Ada' } }), {
    messages: [{ role: 'user', content: { type: 'text', text: 'Say hello to Ada.' } }],
  });
  assert.deepEqual(await client.request('prompts/get', { name: 'interview' }), {
    messages: [{ role: 'user', content: { type: 'text', text: 'Interview about answer to Which topic?.' } }],
  });
  assert.deepEqual(
    await client.request('completion/complete', {
      ref: { type: 'ref/prompt', name: 'greet' },
      argument: { name: 'name', value: 'a' },
    }),
    { completion: { values: ['Ada', 'Alan'] } },
  );
  assert.deepEqual(
    await client.request('completion/complete', {
      ref: { type: 'ref/resource', uri: 'users://{id}/profile' },
      argument: { name: 'id', value: '1' },
    }),
    { completion: { values: ['1', '10'] } },
  );
  const subscription = await client.subscribe('notes://today');
  try {
    await client.request('tools/call', { name: 'touch', arguments: { uri: 'users://1/profile' } });
    await client.request('tools/call', { name: 'touch', arguments: { uri: 'notes://today' } });
    await updatesReach(subscription.updates, 1);
    // Let a stray update for the other URI arrive, if the server were to send one.
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(subscription.updates, ['notes://today']);
  } finally {
    await subscription.close();
  }
}

describe('resources, templates, prompts and completion over streamable HTTP, both eras', () => {
  for (const kind of ERA_CLIENT_KINDS) {
    it(`${kind}: lists, reads, renders (asking the user), completes, and hears of an update it subscribed to`, async () => {
      const client = await connectFeatureClient(kind, { url: new URL(http.url) }, (message) => `answer to ${message}`);
      try {
        await exercise(client);
      } finally {
        await client.close();
      }
    });
  }
});

describe('resources, templates, prompts and completion over stdio, both eras', () => {
  const target: EraTarget = { command: process.execPath, args: [CLI_PATH, 'serve', FIXTURE] };
  for (const kind of ERA_CLIENT_KINDS) {
    it(`${kind}: lists, reads, renders (asking the user), completes, and hears of an update it subscribed to`, async () => {
      const client = await connectFeatureClient(kind, target, (message) => `answer to ${message}`);
      try {
        await exercise(client);
      } finally {
        await client.close();
      }
    });
  }
});

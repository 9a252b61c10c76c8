import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  callWhileInterrupting,
  httpClient,
  NEST_CJS_MAIN,
  startHttpSample,
  stdioClient,
  textOf,
} from './support/nest-sample.js';

/**
 * The CommonJS NestJS sample (samples/nest/cjs, compiled to CommonJS, loading toolwright and
 * toolwright/nest through require(esm)), run as its own process and driven by real SDK clients
 * over HTTP (Express and Fastify adapters, on 127.0.0.1) and over stdio.
 */

const TIMEOUT = { timeout: 120_000 };

async function exerciseShop(client: Client): Promise<void> {
  assert.deepEqual(
    (await client.listTools()).tools.map((tool) => tool.name),
    ['stock', 'whoami', 'instance', 'sleep'],
  );
  // Injection, a class interceptor, an exception filter, an HttpException.
  assert.deepEqual(await client.callTool({ name: 'stock', arguments: { item: 'teapot' } }), {
    content: [{ type: 'text', text: '3 teapots [stock]' }],
  });
  assert.deepEqual(await client.callTool({ name: 'stock', arguments: { item: 'kettle' } }), {
    content: [{ type: 'text', text: 'kettle is out of stock; try the kettle shop' }],
    isError: true,
  });
  assert.deepEqual(await client.callTool({ name: 'stock', arguments: { item: 'spoon' } }), {
    content: [{ type: 'text', text: 'no item called spoon' }],
    isError: true,
  });
  assert.deepEqual(await client.callTool({ name: 'stock', arguments: { item: 1 } }), {
    content: [{ type: 'text', text: 'invalid arguments: /item: must be string' }],
    isError: true,
  });
  // Request scope.
  const [first, second] = (
    await Promise.all([
      client.callTool({ name: 'instance', arguments: {} }),
      client.callTool({ name: 'instance', arguments: {} }),
    ])
  ).map(textOf);
  assert.match(first!, /^instance \d+$/);
  assert.match(second!, /^instance \d+$/);
  assert.notEqual(first, second);
}

for (const adapter of ['express', 'fastify'] as const) {
  test(
    `the CommonJS Nest sample over HTTP on ${adapter}: tools, the guard using the request, shutdown with a call in flight`,
    TIMEOUT,
    async () => {
      const app = await startHttpSample(NEST_CJS_MAIN, adapter === 'fastify' ? ['--fastify'] : []);
      let ada: Client | undefined;
      let anonymous: Client | undefined;
      try {
        ada = await httpClient(app.url, { authorization: 'Bearer token-ada' });
        anonymous = await httpClient(app.url);
        await exerciseShop(ada);
        assert.deepEqual(await ada.callTool({ name: 'whoami', arguments: {} }), {
          content: [{ type: 'text', text: 'you are Ada' }],
        });
        assert.deepEqual(await anonymous.callTool({ name: 'whoami', arguments: {} }), {
          content: [{ type: 'text', text: 'Forbidden resource' }],
          isError: true,
        });
        const result = await callWhileInterrupting(ada, 1500, () => app.child.kill('SIGTERM'));
        assert.deepEqual(result, { content: [{ type: 'text', text: 'slept 1500 ms' }] });
        assert.deepEqual(await app.exited, { code: null, signal: 'SIGTERM' });
        assert.doesNotMatch(app.stderr(), /ERROR/);
      } finally {
        await ada?.close().catch(() => undefined);
        await anonymous?.close().catch(() => undefined);
        await app.stop();
      }
    },
  );
}

test('the CommonJS Nest sample over stdio', TIMEOUT, async () => {
  const { client, transport, stderr } = await stdioClient(NEST_CJS_MAIN);
  try {
    await exerciseShop(client);
    assert.deepEqual(await client.callTool({ name: 'whoami', arguments: {} }), {
      content: [{ type: 'text', text: 'Forbidden resource' }],
      isError: true,
    });
    const closed = new Promise<void>((resolve) => (client.onclose = resolve));
    const result = await callWhileInterrupting(client, 1000, () => process.kill(transport.pid!, 'SIGTERM'));
    assert.deepEqual(result, { content: [{ type: 'text', text: 'slept 1000 ms' }] });
    await closed;
    assert.doesNotMatch(stderr(), /ERROR/);
  } finally {
    await client.close().catch(() => undefined);
  }
});

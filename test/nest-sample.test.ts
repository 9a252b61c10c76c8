import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { POST_HEADERS, rawRequest } from './support/transport-http-probe.js';
import {
  callWhileInterrupting,
  httpClient,
  NEST_ESM_MAIN,
  startHttpSample,
  stdioClient,
  textOf,
} from './support/nest-sample.js';

/**
 * The ESM NestJS sample (samples/nest), run as its own process exactly as documented, driven by
 * real SDK clients over HTTP (Express and Fastify adapters, on 127.0.0.1) and over stdio. One
 * process per transport; each test ends with a shutdown while a call is in flight.
 */

const TIMEOUT = { timeout: 120_000 };
const TOOL_NAMES = ['greet', 'find_order', 'whoami', 'audit_log', 'instance', 'sleep'];

/** The checks every transport shares; returns the audit entries those calls must have left. */
async function exerciseSharedTools(client: Client): Promise<string[]> {
  assert.deepEqual(
    (await client.listTools()).tools.map((tool) => tool.name),
    TOOL_NAMES,
  );
  // A tool with an injected service.
  assert.deepEqual(await client.callTool({ name: 'greet', arguments: { name: 'Bob' } }), {
    content: [{ type: 'text', text: 'Hello, Bob!' }],
  });
  assert.deepEqual(await client.callTool({ name: 'greet', arguments: {} }), {
    content: [{ type: 'text', text: 'invalid arguments: /: must have required property "name"' }],
    isError: true,
  });
  // A tool in another module; an exception filter's answer, an HttpException's message.
  assert.deepEqual(await client.callTool({ name: 'find_order', arguments: { id: 'A-1' } }), {
    content: [{ type: 'text', text: 'A-1: teapot (shipped)' }],
    structuredContent: { id: 'A-1', item: 'teapot', status: 'shipped' },
  });
  assert.deepEqual(await client.callTool({ name: 'find_order', arguments: { id: 'A-2' } }), {
    content: [{ type: 'text', text: 'order A-2 is being edited; try again in a minute' }],
    isError: true,
  });
  assert.deepEqual(await client.callTool({ name: 'find_order', arguments: { id: 'Z-9' } }), {
    content: [{ type: 'text', text: 'no order Z-9' }],
    isError: true,
  });
  // Request scope: two calls at once, two instances.
  const both = await Promise.all([
    client.callTool({ name: 'instance', arguments: { waitMs: 200 } }),
    client.callTool({ name: 'instance', arguments: { waitMs: 200 } }),
  ]);
  const [first, second] = both.map(textOf);
  assert.match(first!, /^instance \d+$/);
  assert.match(second!, /^instance \d+$/);
  assert.notEqual(first, second);
  return [
    'greet: ok',
    'greet: invalid arguments: /: must have required property "name"',
    'find_order: ok',
    'find_order: order A-2 is locked',
    'find_order: no order Z-9',
    'instance: ok',
    'instance: ok',
  ];
}

for (const adapter of ['express', 'fastify'] as const) {
  test(
    `the ESM Nest sample over HTTP on ${adapter}: injection, modules, filters, request scope, a guard using the request, the interceptor, HTTP checks, shutdown with a call in flight`,
    TIMEOUT,
    async () => {
      const app = await startHttpSample(NEST_ESM_MAIN, adapter === 'fastify' ? ['--fastify'] : []);
      let ada: Client | undefined;
      let anonymous: Client | undefined;
      try {
        ada = await httpClient(app.url, { authorization: 'Bearer token-ada' });
        anonymous = await httpClient(app.url);
        const audit = await exerciseSharedTools(ada);
        // The guard read the HTTP request and put the user on it; the tool read it from its CallContext.
        assert.deepEqual(await ada.callTool({ name: 'whoami', arguments: {} }), {
          content: [{ type: 'text', text: 'you are Ada' }],
        });
        assert.deepEqual(await anonymous.callTool({ name: 'whoami', arguments: {} }), {
          content: [{ type: 'text', text: 'Forbidden resource' }],
          isError: true,
        });
        // The global interceptor saw every call that passed the guards (the refused one never reached it).
        assert.deepEqual(await ada.callTool({ name: 'audit_log', arguments: {} }), {
          content: [{ type: 'text', text: [...audit, 'whoami: ok'].join('\n') }],
        });

        // The HTTP edge's own checks, on the application's server.
        const port = Number(app.url.port);
        const evil = await rawRequest(port, { headers: { ...POST_HEADERS, host: 'evil.example' }, body: '{}' });
        assert.deepEqual(
          [evil.status, JSON.parse(evil.text)],
          [
            403,
            {
              jsonrpc: '2.0',
              error: { code: -32000, message: 'Forbidden: invalid Host header: evil.example' },
              id: null,
            },
          ],
        );
        const badJson = await rawRequest(port, { headers: POST_HEADERS, body: '{"jsonrpc":' });
        assert.deepEqual(
          [badJson.status, JSON.parse(badJson.text)],
          [400, { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: Invalid JSON' }, id: null }],
        );
        const put = await rawRequest(port, { method: 'PUT' });
        assert.deepEqual(
          [put.status, JSON.parse(put.text)],
          [405, { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null }],
        );

        // Shutdown while a call is in flight: the call finishes and is answered, then the process ends.
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

test(
  'the ESM Nest sample over stdio: the same tools, the guard refuses without an HTTP request, shutdown with a call in flight',
  TIMEOUT,
  async () => {
    const { client, transport, stderr } = await stdioClient(NEST_ESM_MAIN);
    try {
      const audit = await exerciseSharedTools(client);
      assert.deepEqual(await client.callTool({ name: 'whoami', arguments: {} }), {
        content: [{ type: 'text', text: 'Forbidden resource' }],
        isError: true,
      });
      assert.deepEqual(await client.callTool({ name: 'audit_log', arguments: {} }), {
        content: [{ type: 'text', text: audit.join('\n') }],
      });
      const closed = new Promise<void>((resolve) => (client.onclose = resolve));
      const result = await callWhileInterrupting(client, 1500, () => process.kill(transport.pid!, 'SIGTERM'));
      assert.deepEqual(result, { content: [{ type: 'text', text: 'slept 1500 ms' }] });
      await closed;
      assert.doesNotMatch(stderr(), /ERROR/);
      assert.match(stderr(), /Nest application successfully started|InstanceLoader/);
    } finally {
      await client.close().catch(() => undefined);
    }
  },
);

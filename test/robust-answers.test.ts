import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { StdioChild } from './support/transport-child.js';
import { runProcess } from './support/run-process.js';
import { POST_HEADERS, openRequest, rawRequest, sseMessages } from './support/transport-http-probe.js';
import {
  closeSharedPeers,
  connectRobust,
  peer,
  ROBUST_WAIT_MS,
  sharedPeer,
  type RobustPeer,
} from './support/robust-connect.js';
import { failedResult as failed, textResult as text } from './support/text.js';

after(closeSharedPeers);

const call = (p: RobustPeer, name: string, args: Record<string, unknown> = {}) =>
  p.client.callTool({ name, arguments: args }, undefined, { timeout: ROBUST_WAIT_MS });

for (const transport of ['stdio', 'http'] as const) {
  test(
    `robust ${transport}: a result that cannot be serialised is answered isError, saying why; the server serves on`,
    { timeout: 120_000 },
    async () => {
      const p = await sharedPeer(transport);
      assert.deepEqual(
        await call(p, 'bigint'),
        failed('the result cannot be sent: it cannot be serialised to JSON (Do not know how to serialize a BigInt)'),
      );
      assert.deepEqual(
        await call(p, 'cycle'),
        failed('the result cannot be sent: it cannot be serialised to JSON (Converting circular structure to JSON)'),
      );
      assert.deepEqual(await call(p, 'echo', { text: 'after' }), text('after'));
      await p.waitForStderr('cannot be serialised to JSON (Do not know how to serialize a BigInt)');
    },
  );

  test(
    `robust ${transport}: 50 MB of text is cut to the default 100,000-character bound`,
    { timeout: 120_000 },
    async () => {
      const p = await sharedPeer(transport);
      const result = await call(p, 'huge', { chars: 50_000_000 });
      assert.deepEqual(result, text(`${'x'.repeat(100_000)}\n…[truncated: showing 100,000 of 50,000,000 characters]`));
      assert.deepEqual(await call(p, 'echo', { text: 'alive' }), text('alive'));
    },
  );

  test(
    `robust ${transport}: a message over maxMessageBytes becomes isError, even one the character bound lets through (JSON escaping)`,
    { timeout: 120_000 },
    async (t) => {
      const p = await peer(t, transport, { server: { maxOutputChars: 5_000_000 } });
      const oversize =
        /^the result cannot be sent: its message is (\d+) bytes, over the transport's limit of 8388608 bytes \(maxMessageBytes\); bound the tool's output with maxOutputChars or @MaxOutput$/;
      // 5,000,000 characters pass the character bound, but each U+0001 is 6 bytes of JSON ("\u0001").
      const escaped = await call(p, 'huge', { chars: 5_000_000, char: '\u0001' });
      assert.equal(escaped.isError, true);
      const [escapedBytes] = (escaped.content as Array<{ text: string }>).map((part) =>
        Number(oversize.exec(part.text)?.[1]),
      );
      assert.ok(escapedBytes! > 30_000_000 && escapedBytes! < 30_000_200, `bytes: ${escapedBytes}`);
      assert.deepEqual(await call(p, 'huge', { chars: 4_000_000 }), text('x'.repeat(4_000_000)));
      assert.deepEqual(await call(p, 'echo', { text: 'alive' }), text('alive'));
    },
  );

  test(
    `robust ${transport}: maxOutputChars Infinity switches the default off; maxMessageBytes Infinity the message check`,
    { timeout: 120_000 },
    async (t) => {
      const p = await peer(t, transport, { server: { maxOutputChars: null, maxMessageBytes: null } });
      assert.deepEqual(await call(p, 'huge', { chars: 200_000 }), text('x'.repeat(200_000)));
    },
  );

  test(
    `robust ${transport}: timeoutMs answers a tool with no @Timeout that never settles`,
    { timeout: 120_000 },
    async (t) => {
      const p = await peer(t, transport, { server: { timeoutMs: 200 } });
      assert.deepEqual(await call(p, 'hang'), failed('tool "hang" timed out after 200 ms'));
      assert.deepEqual(await call(p, 'echo', { text: 'next' }), text('next'));
    },
  );

  test(
    `robust ${transport}: a floating rejection inside a tool is logged and the process keeps serving`,
    { timeout: 120_000 },
    async () => {
      const p = await sharedPeer(transport);
      assert.deepEqual(await call(p, 'floating'), text('still here'));
      await p.waitForStderr(
        'toolwright: unhandled rejection (a promise nobody awaited, probably in a tool), the server keeps running: floating boom\n',
      );
      assert.deepEqual(await call(p, 'echo', { text: 'next' }), text('next'));
      assert.equal(p.alive(), true);
    },
  );

  test(
    `robust ${transport}: a peer that never answers a permission question is denied after askTimeoutMs`,
    { timeout: 120_000 },
    async (t) => {
      const p = await peer(t, transport, { policy: { askTimeoutMs: 300 }, capabilities: { elicitation: {} } });
      const asked: string[] = [];
      p.client.setRequestHandler(ElicitRequestSchema, (request) => {
        asked.push(request.params.message);
        return new Promise(() => undefined);
      });
      // A denial's permissions record crosses on the failure (pinned by the permission suites).
      assert.deepEqual(
        stripMeta(await call(p, 'write', { path: '/tmp/a' })),
        failed('permission denied: write on "/tmp/a": the user did not answer in time'),
      );
      assert.deepEqual(asked, ['Allow the tool "write" to use write on "/tmp/a"?']);
    },
  );
}

test(
  'robust stdio: a permission reply that is not an object denies at once, and nothing is sent back for it',
  { timeout: 120_000 },
  async (t) => {
    const child = new StdioChild({ ROBUST_POLICY: '{}' }, 'robust-fixture.js');
    t.after(() => child.kill());
    await child.waitForStderr('probe: ready');
    await child.request('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: { elicitation: {} },
      clientInfo: { name: 'raw', version: '1.0.0' },
    });
    child.writeLine(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    const callId = child.send('tools/call', { name: 'write', arguments: { path: '/tmp/a' } });
    const question = await child.waitFor('the elicitation request', () =>
      child.lines
        .map((l) => JSON.parse(l) as { method?: string; id?: number })
        .find((m) => m.method === 'elicitation/create'),
    );
    child.writeLine(JSON.stringify({ jsonrpc: '2.0', id: question.id, result: 'yes' }));
    const response = (await child.response(callId)) as { result: Record<string, unknown> };
    assert.deepEqual(
      { ...response, result: stripMeta(response.result) },
      {
        result: {
          content: [{ type: 'text', text: 'permission denied: write on "/tmp/a": the user could not be asked' }],
          isError: true,
        },
        jsonrpc: '2.0',
        id: callId,
      },
    );
    assert.deepEqual(await child.request('ping'), { result: {}, jsonrpc: '2.0', id: callId + 1 });
    assert.deepEqual(
      child.lines.map((l) => (JSON.parse(l) as { id?: unknown }).id).filter((id) => id === question.id),
      [question.id],
      'only the question itself carries its id: the bad reply is not answered',
    );
  },
);

for (const transport of ['stdio', 'http'] as const) {
  test(
    `robust ${transport}: a path deny rule cannot be stepped around by "..", "//", ".", case, a relative path, NUL or naming the folder itself`,
    { timeout: 120_000 },
    async (t) => {
      const p = await peer(t, transport, {
        policy: {
          pathBase: '/srv/app/work',
          rules: [
            { effect: 'deny', path: '/etc/**', capabilities: ['write'], reason: 'system files are read-only' },
            { effect: 'allow', path: '/tmp/**' },
          ],
        },
      });
      for (const path of [
        '/etc/passwd',
        '/srv/../etc/passwd',
        '//etc/passwd',
        '/etc/./passwd',
        '/ETC/passwd',
        '/tmp/../etc/passwd',
        '/../etc/passwd',
        '../../../../etc/passwd',
        '../../../etc/passwd',
        '/etc',
        '/etc/',
        '/Etc',
      ]) {
        assert.deepEqual(
          stripMeta(await call(p, 'write', { path })),
          failed(`permission denied: write on ${JSON.stringify(path)}: system files are read-only`),
          path,
        );
      }
      assert.deepEqual(
        stripMeta(await call(p, 'write', { path: '/etc/passwd\0' })),
        failed('permission denied: write on "/etc/passwd\\u0000": the path cannot be resolved: it holds a NUL byte'),
      );
      assert.deepEqual(stripMeta(await call(p, 'write', { path: '/tmp//a' })), text('wrote /tmp//a'));
      assert.deepEqual(
        stripMeta(await call(p, 'write', { path: '../../../../tmp/b' })),
        text('wrote ../../../../tmp/b'),
      );
      // An allow path rule respects case: /TMP is not /tmp on a case-sensitive file system, so
      // nothing allows it and nobody can be asked.
      assert.deepEqual(
        stripMeta(await call(p, 'write', { path: '/TMP/a' })),
        failed('permission denied: write on "/TMP/a": the user did not answer'),
      );
    },
  );
}

/** The result without its `_meta` (the permission record, pinned by the permission suites). */
function stripMeta(result: unknown): unknown {
  const { _meta, ...rest } = result as Record<string, unknown>;
  return rest;
}

test(
  'robust: the floating-rejection handler is installed by serveStdio and serveHttp only, never by createHttpHandler or addTools',
  { timeout: 120_000 },
  async () => {
    const entry = new URL('../src/mcp/index.js', import.meta.url).href;
    const script = (body: string) =>
      `import * as mcp from ${JSON.stringify(entry)};\n${body}\nprocess.stdout.write(String(process.listenerCount('unhandledRejection')));\nprocess.exit(0);`;
    const run = async (body: string) =>
      (await runProcess(process.execPath, ['--input-type=module', '-e', script(body)], { timeoutMs: 30_000 })).stdout;
    assert.equal(await run(`mcp.createHttpHandler(() => mcp.createServer({ name: 'x', version: '1' }, []));`), '0');
    assert.equal(
      await run(
        `const { Server } = await import('@modelcontextprotocol/server'); mcp.addTools(new Server({ name: 'x', version: '1' }, { capabilities: {} }), []);`,
      ),
      '0',
    );
    assert.equal(await run(`await mcp.serveHttp({ name: 'x', version: '1' }, []);`), '1');
    assert.equal(
      await run(`process.on('unhandledRejection', () => {}); await mcp.serveHttp({ name: 'x', version: '1' }, []);`),
      '1',
      'an application listener of its own is kept, none added',
    );
  },
);

test(
  'robust http: a permission reply that is not an object gets 202, denies at once, and nothing is sent back for it',
  { timeout: 120_000 },
  async (t) => {
    const server = await connectRobust('http');
    t.after(() => server.close());
    const port = Number(new URL(server.url!).port);
    const init = await rawRequest(port, {
      headers: POST_HEADERS,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: { elicitation: {} },
          clientInfo: { name: 'raw', version: '1.0.0' },
        },
      }),
    });
    const session = String(init.headers['mcp-session-id']);
    const headers = { ...POST_HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' };
    assert.equal(
      (
        await rawRequest(port, {
          headers,
          body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
        })
      ).status,
      202,
    );
    const pending = openRequest(port, {
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'write', arguments: { path: '/tmp/a' } },
      }),
    });
    const stream = await pending.response;
    stream.setEncoding('utf8');
    let text = '';
    const seenOnStream = (
      predicate: (m: { method?: string; id?: unknown }) => boolean,
    ): Promise<{ method?: string; id?: unknown; result?: unknown }> =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          const found = (sseMessages(text) as Array<{ method?: string; id?: unknown }>).find(predicate);
          if (found === undefined) return;
          stream.off('data', onData);
          clearTimeout(timer);
          resolve(found);
        };
        const onData = (chunk: string): void => {
          text += chunk;
          check();
        };
        const timer = setTimeout(() => reject(new Error(`timed out; stream so far:\n${text}`)), ROBUST_WAIT_MS);
        stream.on('data', onData);
        check();
      });
    const question = await seenOnStream((m) => m.method === 'elicitation/create');
    const reply = await rawRequest(port, {
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: question.id, result: 'yes' }),
    });
    assert.deepEqual([reply.status, reply.text], [202, '']);
    const answer = await seenOnStream((m) => m.id === 2);
    assert.deepEqual(
      { ...answer, result: stripMeta(answer.result) },
      {
        result: {
          content: [{ type: 'text', text: 'permission denied: write on "/tmp/a": the user could not be asked' }],
          isError: true,
        },
        jsonrpc: '2.0',
        id: 2,
      },
    );
  },
);

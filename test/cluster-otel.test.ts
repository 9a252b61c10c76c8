import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { OUT_DIR } from './support/cli-paths.js';

/*
 * The cluster sample's node with `CLUSTER_TRACE=1` (as `CLUSTER_TRACE=1 npm run cluster` runs
 * each of its processes): a 2026-07-28 call carrying `traceparent` in `_meta` shows on the
 * node's stderr as the server span and the call's span of the client's trace. One process, no
 * balancer or Redis needed. About 1 s.
 */

const NODE_MAIN = join(OUT_DIR, 'samples', 'cluster', 'node-main.js');
const TRACE_ID = '6af7651916cd43dd8448eb211c80319c';
const PARENT = 'd7ad6b7169203331';

test('a traced cluster node prints the spans of a call in the client trace', { timeout: 30_000 }, async () => {
  const child = spawn(process.execPath, [NODE_MAIN], {
    env: { ...process.env, CLUSTER_TRACE: '1', NODE_ID: 'node-t', PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const ready = await new Promise<{ port: number }>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`no ready line within 20 s: ${err}`)), 20_000);
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        const line = out.split('\n')[0];
        if (out.includes('\n') && line !== undefined) {
          clearTimeout(timer);
          resolve(JSON.parse(line) as { port: number });
        }
      });
    });
    const client = new Client(
      { name: 'cluster-otel', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${ready.port}/mcp`)));
    await client.callTool({ name: 'whoami', arguments: {}, _meta: { traceparent: `00-${TRACE_ID}-${PARENT}-01` } });
    await client.close();
    for (let i = 0; i < 200 && !err.includes('execute_tool whoami'); i++) await new Promise((r) => setTimeout(r, 10));
    const lines = err
      .split('\n')
      .filter((line) => line.startsWith(`span ${TRACE_ID} `))
      .map((line) => line.split(' '));
    const server = lines.find((fields) => fields[5] === 'tools/call');
    assert.ok(server, err);
    assert.deepEqual([server[3], server[4], server[6], server[7]], [PARENT, 'SERVER', 'whoami', 'ok']);
    const tool = lines.find((fields) => fields[5] === 'execute_tool');
    assert.ok(tool, err);
    assert.deepEqual([tool[3], tool[4], tool[6], tool[7]], [server[2], 'INTERNAL', 'whoami', 'ok']);
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
});

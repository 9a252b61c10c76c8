import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { connectRobust, ROBUST_WAIT_MS, type RobustPeer } from './support/robust-connect.js';

const SESSIONS = Number(process.env.LOAD_SESSIONS ?? 200);
const MiB = 1024 * 1024;

interface Memory {
  readonly rss: number;
  readonly heapUsed: number;
}

/** The server process's memory after a full garbage collection (it runs with --expose-gc). */
async function memoryOf(monitor: RobustPeer): Promise<Memory> {
  const result = await monitor.client.callTool({ name: 'memory', arguments: {} });
  return JSON.parse((result.content as Array<{ text: string }>)[0]!.text) as Memory;
}

const mib = (bytes: number): string => `${(bytes / MiB).toFixed(1)} MiB`;

test(
  `robust load: ${SESSIONS} concurrent HTTP sessions with progress and per-session state, no leakage; memory back near the baseline`,
  { timeout: 300_000 },
  async (t) => {
    // Every client of this test comes from 127.0.0.1: lift the per-address session limit (null is Infinity).
    const monitor = await connectRobust('http', { nodeArgs: ['--expose-gc'], server: { maxSessionsPerAddress: null } });
    t.after(() => monitor.close());
    await memoryOf(monitor);
    const baseline = await memoryOf(monitor);

    const clients = await Promise.all(
      Array.from({ length: SESSIONS }, async () => {
        const transport = new StreamableHTTPClientTransport(new URL(monitor.url!));
        const client = new Client({ name: 'load', version: '1.0.0' });
        await client.connect(transport);
        return { client, transport };
      }),
    );
    const outcomes = await Promise.all(
      clients.map(async ({ client, transport }) => {
        const id = transport.sessionId!;
        const counts: string[] = [];
        for (let i = 0; i < 3; i++)
          counts.push(
            ((await client.callTool({ name: 'counter', arguments: {} })).content as Array<{ text: string }>)[0]!.text,
          );
        const progress: number[] = [];
        const flood = await client.callTool({ name: 'flood', arguments: { count: 10 } }, undefined, {
          onprogress: (p) => progress.push(p.progress),
          timeout: ROBUST_WAIT_MS,
        });
        return { id, counts, progress, flood };
      }),
    );
    const ids = new Set(outcomes.map((o) => o.id));
    assert.equal(ids.size, SESSIONS, 'every session has its own id');
    for (const outcome of outcomes) {
      assert.deepEqual(
        outcome.counts,
        [`${outcome.id}:1`, `${outcome.id}:2`, `${outcome.id}:3`],
        'each session sees only its own counter',
      );
      assert.deepEqual(
        outcome.progress,
        [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
        'each session gets its own progress, in order',
      );
      assert.deepEqual(outcome.flood, { content: [{ type: 'text', text: 'flooded 10' }] });
    }

    const busy = await memoryOf(monitor);
    const perSession = (busy.heapUsed - baseline.heapUsed) / SESSIONS;
    t.diagnostic(
      `baseline heap ${mib(baseline.heapUsed)} rss ${mib(baseline.rss)}; with ${SESSIONS} idle sessions heap ${mib(busy.heapUsed)} rss ${mib(busy.rss)}; ${(perSession / 1024).toFixed(1)} KiB of heap per idle session`,
    );
    assert.ok(
      perSession < 256 * 1024,
      `an idle session costs ${(perSession / 1024).toFixed(1)} KiB of heap (band: under 256 KiB)`,
    );

    await Promise.all(
      clients.map(async ({ client, transport }) => {
        await transport.terminateSession();
        await client.close();
      }),
    );
    await memoryOf(monitor);
    const after = await memoryOf(monitor);
    t.diagnostic(
      `after the sessions ended: heap ${mib(after.heapUsed)} rss ${mib(after.rss)} (baseline heap ${mib(baseline.heapUsed)})`,
    );
    assert.ok(
      after.heapUsed - baseline.heapUsed < 8 * MiB,
      `heap back within 8 MiB of the baseline: ${mib(after.heapUsed - baseline.heapUsed)} above it`,
    );
  },
);

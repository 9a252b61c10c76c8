import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { connectRobust, type RobustPeer } from './support/robust-connect.js';

/**
 * Soak: the session create/call/delete loop over HTTP and a stream of stdio calls, with the
 * server's heap sampled (after a full collection) ten times along the way; the samples after
 * warm-up must stay within a band. `npm test` runs the short version; `npm run test:soak`
 * (SOAK_LONG=1) the long one: 20,000 sessions and 100,000 stdio calls. SOAK_SESSIONS and
 * SOAK_CALLS set other counts.
 */
const LONG = process.env.SOAK_LONG === '1';
const SESSIONS = Number(process.env.SOAK_SESSIONS ?? (LONG ? 20_000 : 150));
const CALLS = Number(process.env.SOAK_CALLS ?? (LONG ? 100_000 : 2_000));
const SAMPLES = 10;
const BAND = 8 * 1024 * 1024;
const MiB = 1024 * 1024;

/**
 * RSS samples, printed beside the heap (RSS is not returned to the system promptly, so only the
 * heap is held to the band).
 */
const rssSamples = new Map<RobustPeer, number[]>();

async function heapOf(monitor: RobustPeer): Promise<number> {
  const result = await monitor.client.callTool({ name: 'memory', arguments: {} });
  const { heapUsed, rss } = JSON.parse((result.content as Array<{ text: string }>)[0]!.text) as {
    heapUsed: number;
    rss: number;
  };
  rssSamples.set(monitor, [...(rssSamples.get(monitor) ?? []), rss]);
  return heapUsed;
}

function rssLine(monitor: RobustPeer): string {
  return `RSS samples (MiB) ${(rssSamples.get(monitor) ?? []).map((s) => (s / MiB).toFixed(0)).join(', ')}`;
}

/** Asserts the samples after the first two (warm-up) stay within `BAND` of their lowest. */
function assertFlat(samples: readonly number[], what: string): string {
  const settled = samples.slice(2);
  const low = Math.min(...settled);
  const high = Math.max(...settled);
  const shown = samples.map((s) => (s / MiB).toFixed(1)).join(', ');
  assert.ok(
    high - low < BAND,
    `${what}: heap samples (MiB) ${shown} spread ${((high - low) / MiB).toFixed(1)} MiB, over the ${BAND / MiB} MiB band`,
  );
  return `${what}: heap samples (MiB) ${shown}; spread after warm-up ${((high - low) / MiB).toFixed(1)} MiB (band ${BAND / MiB} MiB)`;
}

test(
  `robust soak: ${SESSIONS} HTTP sessions created, called three times and deleted; the server's heap stays flat`,
  { timeout: LONG ? 6 * 3600_000 : 300_000 },
  async (t) => {
    const monitor = await connectRobust('http', { nodeArgs: ['--expose-gc'] });
    t.after(() => monitor.close());
    const samples: number[] = [await heapOf(monitor)];
    for (let i = 1; i <= SESSIONS; i++) {
      const transport = new StreamableHTTPClientTransport(new URL(monitor.url!));
      const client = new Client({ name: 'soak', version: '1.0.0' });
      await client.connect(transport);
      for (let call = 0; call < 3; call++) {
        const result = await client.callTool({ name: 'echo', arguments: { text: `${i}.${call}` } });
        assert.deepEqual(result, { content: [{ type: 'text', text: `${i}.${call}` }] });
      }
      await transport.terminateSession();
      await client.close();
      if (i % Math.ceil(SESSIONS / SAMPLES) === 0) samples.push(await heapOf(monitor));
    }
    t.diagnostic(assertFlat(samples, `${SESSIONS} sessions`));
    t.diagnostic(rssLine(monitor));
  },
);

test(
  `robust soak: ${CALLS} stdio calls; the server's heap stays flat`,
  { timeout: LONG ? 6 * 3600_000 : 300_000 },
  async (t) => {
    const peer = await connectRobust('stdio', { nodeArgs: ['--expose-gc'] });
    t.after(() => peer.close());
    const samples: number[] = [await heapOf(peer)];
    for (let i = 1; i <= CALLS; i++) {
      const result = await peer.client.callTool({ name: 'echo', arguments: { text: String(i) } });
      assert.deepEqual(result, { content: [{ type: 'text', text: String(i) }] });
      if (i % Math.ceil(CALLS / SAMPLES) === 0) samples.push(await heapOf(peer));
    }
    t.diagnostic(assertFlat(samples, `${CALLS} stdio calls`));
    t.diagnostic(rssLine(peer));
  },
);

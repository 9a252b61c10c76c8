/**
 * What a 2026-07-28 call parked for the client's answers keeps alive (issue 28, memory): over
 * HTTP every 2026-era request gets an SDK `Server` of its own, and a parked call must not hold
 * the one of the request that started it (before, each parked call kept its request's whole
 * server: about 6 KiB of handlers, maps and closures). Counted in real heap snapshots (V8 collects
 * garbage before taking one), never timed; the parked calls are then resumed and answer as before.
 * Runs in a few seconds.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { getHeapSnapshot } from 'node:v8';
import { Worker } from 'node:worker_threads';
import type { ContractTool } from '../src/contract/index.js';
import { serveHttp, type HttpHandle } from '../src/mcp/index.js';
import { envelope, modernPost, resultOf, withoutServerInfo } from './support/modern-http.js';

const PARKED = 10;
const ELICIT_CAPS = { elicitation: { form: {} } };
const FORM = { type: 'object', properties: { name: { type: 'string' } } };

/** The `greet` tool: asks for a name, greets it. Made anew for each server (its scheduling is kept per tool). */
const greet = (): ContractTool => ({
  name: 'greet',
  description: 'Asks for a name, greets it',
  async execute(_args, ctx) {
    const answer = await ctx.elicit({ message: 'Your name?', schema: FORM });
    return answer.action === 'accept' ? `hello ${String(answer.content?.name)}` : `no name (${answer.action})`;
  },
});
const tools: ContractTool[] = [greet()];

let handle: HttpHandle;
before(async () => {
  handle = await serveHttp({ name: 'parked-memory', version: '1.0.0' }, tools);
});
after(async () => {
  await handle.close();
});

/** What a fresh heap snapshot says: how many objects named `name` it holds, and the bytes of all it holds. */
async function heapNow(name: string): Promise<{ readonly named: number; readonly bytes: number }> {
  // Node's fetch keeps a timing entry per request: the client's, not the server's.
  performance.clearResourceTimings();
  const chunks: string[] = [];
  for await (const chunk of getHeapSnapshot()) chunks.push(String(chunk));
  const snapshot = JSON.parse(chunks.join('')) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
    nodes: number[];
    strings: string[];
  };
  const fields = snapshot.snapshot.meta.node_fields;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const objectType = snapshot.snapshot.meta.node_types[0].indexOf('object');
  // Compiled code comes and goes as the JIT warms up: it is not what a parked call keeps.
  const codeType = snapshot.snapshot.meta.node_types[0].indexOf('code');
  let named = 0;
  let bytes = 0;
  for (let i = 0; i < snapshot.nodes.length; i += fields.length) {
    if (snapshot.nodes[i + typeAt] !== codeType) bytes += snapshot.nodes[i + sizeAt]!;
    if (snapshot.nodes[i + typeAt] === objectType && snapshot.strings[snapshot.nodes[i + nameAt]!] === name) named++;
  }
  return { named, bytes };
}

/** How many objects named `name` the heap holds, from a fresh heap snapshot. */
async function objectsNamed(name: string): Promise<number> {
  return (await heapNow(name)).named;
}

const call = (id: number, params: Record<string, unknown> = {}) => ({
  id,
  method: 'tools/call',
  params: { name: 'greet', arguments: {}, ...params },
});

/** Resumes the call parked under `requestState` on `url` with the answer `name`, and checks it greets that name. */
async function assertResumes(url: string, id: number, requestState: unknown, name: string): Promise<void> {
  const retry = call(id, {
    inputResponses: { elicit_1: { action: 'accept', content: { name } } },
    requestState,
  });
  assert.deepEqual(withoutServerInfo(resultOf(await modernPost(url, retry, envelope(ELICIT_CAPS)))), {
    content: [{ type: 'text', text: `hello ${name}` }],
    resultType: 'complete',
  });
}

test('a parked 2026-07-28 call keeps no SDK Server of its request alive, and still resumes', async () => {
  // One call parked and resumed first, so whatever the first request builds once is built.
  const warm = resultOf(await modernPost(handle.url, call(1), envelope(ELICIT_CAPS)));
  const warmRetry = call(2, {
    inputResponses: { elicit_1: { action: 'accept', content: { name: 'Warm' } } },
    requestState: warm.requestState,
  });
  assert.deepEqual(withoutServerInfo(resultOf(await modernPost(handle.url, warmRetry, envelope(ELICIT_CAPS)))), {
    content: [{ type: 'text', text: 'hello Warm' }],
    resultType: 'complete',
  });
  const serversBefore = await objectsNamed('Server');
  const states: unknown[] = [];
  for (let i = 0; i < PARKED; i++) {
    const first = resultOf(await modernPost(handle.url, call(10 + i), envelope(ELICIT_CAPS)));
    assert.equal(first.resultType, 'input_required', `call ${i} was not parked: ${JSON.stringify(first)}`);
    states.push(first.requestState);
  }
  // The 2026-07-28 leg closes each request's server on the next turn (setImmediate) after its
  // answer: let the last one close before counting.
  await new Promise((resolve) => setImmediate(resolve));
  const serversParked = await objectsNamed('Server');
  assert.equal(
    serversParked - serversBefore,
    0,
    `${PARKED} parked calls keep ${serversParked - serversBefore} more SDK Server objects alive`,
  );
  for (const [i, requestState] of states.entries()) await assertResumes(handle.url, 100 + i, requestState, `Ada ${i}`);
});

/**
 * The heap one parked call keeps (measured this round with this tool: 11.8 KiB on main, 9.9 KiB after; the SDK
 * parks nothing, the edge bench prints both side by side). Counted as the growth of everything
 * a heap snapshot holds but compiled code (V8 collects garbage first) over `MANY` parked calls,
 * after `WARM` of them; the calls are parked by a worker thread, so that the client's objects
 * are not counted. Never timed.
 */
const WARM = 40;
/**
 * Lets what the last requests leave behind go first: each request's server closes on the next
 * turn, its socket's timers and finalizers a little later.
 */
const quiet = (): Promise<void> => new Promise((resolve) => setTimeout(() => setImmediate(resolve), 50));
const MANY = 200;
const BYTES_PER_PARKED_CALL = 11.5 * 1024;

test('a parked 2026-07-28 call keeps at most 11.5 KiB of heap, and still resumes', async (t) => {
  // A parked call holds its scheduling slot and counts against its client's parked calls.
  const roomy = await serveHttp({ name: 'parked-memory-many', version: '1.0.0' }, [greet()], {
    scheduling: { maxConcurrent: 1000 },
    inputRounds: { maxParkedPerClient: 1000 },
  });
  const client = new Worker(new URL('./support/parking-client.js', import.meta.url));
  t.after(async () => {
    await client.terminate();
    await roomy.close();
  });
  const park = (from: number, count: number): Promise<unknown[]> =>
    new Promise((resolve, reject) => {
      client.once('message', (answer: { states?: unknown[]; error?: string }) =>
        answer.states === undefined ? reject(new Error(answer.error)) : resolve(answer.states),
      );
      client.postMessage({ url: roomy.url, from, count });
    });
  // Whatever the first calls build once (caches, pools, feedback) is built before counting.
  const warm = await park(1000, WARM);
  await quiet();
  const before = await heapNow('Server');
  const states = await park(2000, MANY);
  await quiet();
  const parked = await heapNow('Server');
  const perCall = (parked.bytes - before.bytes) / MANY;
  if (process.env.PARKED_MEMORY_PRINT !== undefined) console.log(`parked call: ${(perCall / 1024).toFixed(2)} KiB`);
  assert.ok(
    perCall <= BYTES_PER_PARKED_CALL,
    `each parked call keeps ${(perCall / 1024).toFixed(2)} KiB of heap (bound ${BYTES_PER_PARKED_CALL / 1024} KiB)`,
  );
  // A few of them still resume (closing the server stops the others).
  for (const [i, requestState] of [warm[0], states[0], states[MANY - 1]].entries())
    await assertResumes(roomy.url, 3000 + i, requestState, `Bo ${i}`);
});

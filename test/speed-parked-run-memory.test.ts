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
import type { ContractTool } from '../src/contract/index.js';
import { serveHttp, type HttpHandle } from '../src/mcp/index.js';
import { envelope, modernPost, resultOf, withoutServerInfo } from './support/modern-http.js';

const PARKED = 10;
const ELICIT_CAPS = { elicitation: { form: {} } };
const FORM = { type: 'object', properties: { name: { type: 'string' } } };

const tools: ContractTool[] = [
  {
    name: 'greet',
    description: 'Asks for a name, greets it',
    async execute(_args, ctx) {
      const answer = await ctx.elicit({ message: 'Your name?', schema: FORM });
      return answer.action === 'accept' ? `hello ${String(answer.content?.name)}` : `no name (${answer.action})`;
    },
  },
];

let handle: HttpHandle;
before(async () => {
  handle = await serveHttp({ name: 'parked-memory', version: '1.0.0' }, tools);
});
after(async () => {
  await handle.close();
});

/** How many objects named `name` the heap holds, from a fresh heap snapshot. */
async function objectsNamed(name: string): Promise<number> {
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
  const objectType = snapshot.snapshot.meta.node_types[0].indexOf('object');
  let count = 0;
  for (let i = 0; i < snapshot.nodes.length; i += fields.length)
    if (snapshot.nodes[i + typeAt] === objectType && snapshot.strings[snapshot.nodes[i + nameAt]!] === name) count++;
  return count;
}

const call = (id: number, params: Record<string, unknown> = {}) => ({
  id,
  method: 'tools/call',
  params: { name: 'greet', arguments: {}, ...params },
});

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
  for (const [i, requestState] of states.entries()) {
    const retry = call(100 + i, {
      inputResponses: { elicit_1: { action: 'accept', content: { name: `Ada ${i}` } } },
      requestState,
    });
    assert.deepEqual(withoutServerInfo(resultOf(await modernPost(handle.url, retry, envelope(ELICIT_CAPS)))), {
      content: [{ type: 'text', text: `hello Ada ${i}` }],
      resultType: 'complete',
    });
  }
});

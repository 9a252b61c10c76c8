import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { IDEMPOTENCY_KEY_META, STALE_STATE_TEXT } from '../src/mcp/index.js';
import { startCluster, textOf, type TestCluster } from './support/cluster.js';
import { modernCall, modernClient, type RawCall } from './support/cluster-clients.js';
import { haproxySkipReason } from './support/haproxy.js';
import { envelope } from './support/modern-http.js';
import { redisSkip, startRedisServer, type RedisServer } from './support/redis-server.js';

/*
 * Three toolwright processes behind a real HAProxy sharing a real redis-server: a 2026-07-28-era
 * call parked on one process is answered through another (relayed over Redis pub/sub), a retry
 * of another principal is refused, a dead owner's retry is told to call again, and Redis going
 * away fails relayed retries with a clear error until it is back; keyed calls (the `order` tool
 * with an idempotency key) run once across the processes, and one lost with its process is
 * reported by the replay rules (still running while its lease holds, then lost, never re-run).
 * One Redis, one HAProxy and one set of processes (bearer tokens `dev-<principal>`, replay lease
 * 1 s) for the file. About 15 s.
 */

const skip = haproxySkipReason() ?? redisSkip;
let redis: RedisServer;
let cluster: TestCluster;

before(async () => {
  if (skip !== undefined) return;
  redis = await startRedisServer();
  cluster = await startCluster(3, { REDIS_URL: redis.url, DEV_AUTH: '1', REPLAY_LEASE_MS: '1000' });
});

after(async () => {
  await cluster?.stop();
  await redis?.stop();
});

const ELICIT = envelope({ elicitation: { form: {} } });
const OK = { elicit_1: { action: 'accept', content: { ok: true } } };
const stale = { content: [{ type: 'text', text: STALE_STATE_TEXT }], isError: true, resultType: 'complete' };

/** Node `i`'s own URL (not through the balancer), to place a call on a chosen process. */
const direct = (i: number): string => cluster.processes.nodes[i]!.url;
/** What `confirm` answers when the call ran on node `i` from its start to its end. */
const confirmed = (i: number) => ({
  content: [
    {
      type: 'text',
      text: `accept {"ok":true}; asked and finished by ${JSON.stringify({ pid: cluster.processes.nodes[i]!.pid, node: cluster.processes.nodes[i]!.nodeId })}`,
    },
  ],
  resultType: 'complete',
});

/** Parks a `confirm` call on node `i` as `who` and returns its `requestState`. */
async function park(i: number, who = 'alice'): Promise<string> {
  const first = await modernCall(direct(i), 'confirm', {}, ELICIT, { token: `dev-${who}` });
  const state = first.result?.requestState;
  assert.equal(typeof state, 'string', JSON.stringify(first));
  assert.match(state as string, new RegExp(`^node-${i + 1}\\.[0-9a-f]{32}$`));
  return state as string;
}

/** Retries `state` on node `i` as `who`. */
function retry(i: number, state: string, who = 'alice'): Promise<RawCall> {
  return modernCall(direct(i), 'confirm', { requestState: state, inputResponses: OK }, ELICIT, { token: `dev-${who}` });
}

test(
  'cluster + redis: a call parked on one process is answered through another; it ran once, on its owner',
  { skip },
  async () => {
    const state = await park(0);
    assert.deepEqual((await retry(1, state)).result, confirmed(0));
    // Answered once: the same retry again, anywhere, is stale.
    assert.deepEqual((await retry(2, state)).result, stale);
    assert.deepEqual((await retry(0, state)).result, stale);
  },
);

test(
  'cluster + redis: the SDK 2.x client (2026-07-28) through the balancer: every parked call completes wherever its retry lands',
  { skip },
  async () => {
    const client = await modernClient(cluster.url, { token: 'dev-alice' });
    try {
      const texts: string[] = [];
      for (let i = 0; i < 6; i++) texts.push(textOf(await client.call('confirm')));
      for (const text of texts)
        assert.match(text, /^accept \{"ok":true\}; asked and finished by \{"pid":\d+,"node":"node-[123]"\}$/);
    } finally {
      await client.close();
    }
  },
);

test(
  'cluster + redis: a relayed retry of another principal is refused; the call stays for its own',
  { skip },
  async () => {
    const state = await park(0, 'alice');
    assert.deepEqual((await retry(2, state, 'mallory')).result, stale);
    assert.deepEqual((await retry(1, state, 'alice')).result, confirmed(0));
  },
);

test(
  'cluster + redis: Redis going away fails a relayed retry with a clear error; once Redis is back the same retry is answered',
  { skip, timeout: 60_000 },
  async () => {
    const state = await park(0);
    await redis.down();
    const failed = await retry(1, state);
    const text = textOf(failed.result);
    assert.match(
      text,
      new RegExp(
        `^the answers could not be passed to the process running this call \\(Redis at redis://127\\.0\\.0\\.1:${redis.port} cannot be reached: .+\\); call the tool again$`,
      ),
    );
    assert.equal(failed.result?.isError, true);
    // A call that needs no relay is served meanwhile.
    const local = await park(1);
    assert.deepEqual((await retry(1, local)).result, confirmed(1));
    await redis.up();
    // The parked call never heard of the failed retry: once both nodes are back on Redis, it is answered.
    let last: RawCall | undefined;
    for (let i = 0; i < 60; i++) {
      last = await retry(1, state);
      if (last.result?.isError !== true) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    assert.deepEqual(last?.result, confirmed(0));
  },
);

test(
  'cluster + redis: a retry whose owner died is told to call the tool again at once; the others keep relaying',
  { skip, timeout: 60_000 },
  async () => {
    const orphan = await park(2);
    const living = await park(0);
    await cluster.processes.kill(2);
    assert.deepEqual((await retry(1, orphan)).result, stale);
    assert.deepEqual((await retry(1, living)).result, confirmed(0));
    await cluster.processes.restart(2);
    // The restarted process has the old node id but none of the old calls.
    assert.deepEqual((await retry(0, orphan)).result, stale);
    const fresh = await park(2);
    assert.deepEqual((await retry(0, fresh)).result, confirmed(2));
  },
);

/** POSTs a keyed `order` call with idempotency key `key` to `url` as alice. */
function order(url: string, key: string, ms: number): Promise<RawCall> {
  return modernCall(
    url,
    'order',
    { arguments: { item: 'tea', ms } },
    { ...ELICIT, [IDEMPOTENCY_KEY_META]: key },
    { token: 'dev-alice' },
  );
}

/** The order an `order` result names: its number and the node that placed it. */
function placed(call: RawCall): { order: number; node: string } {
  const { order: number, node } = JSON.parse(textOf(call.result)) as { order: number; node: string };
  return { order: number, node };
}

test(
  'cluster + redis: the same idempotency key sent through the balancer twice at once runs once; a later retry gets the first outcome',
  { skip, timeout: 30_000 },
  async () => {
    const key = `order-${Date.now()}`;
    // Round robin sends the two to different processes.
    const [a, b] = await Promise.all([order(cluster.url, key, 500), order(cluster.url, key, 500)]);
    const outcomes = [a, b].map((call) => (call.result?.isError === true ? textOf(call.result) : placed(call)));
    const first = outcomes.find((o) => typeof o !== 'string') as { order: number; node: string };
    assert.deepEqual(
      outcomes.filter((o) => typeof o === 'string'),
      [`idempotency key "${key}" is in use by a call that is still running`],
      JSON.stringify(outcomes),
    );
    for (let i = 0; i < 3; i++) assert.deepEqual(placed(await order(cluster.url, key, 500)), first);
  },
);

test(
  'cluster + redis: a keyed call lost with its process: a retry elsewhere is refused while its claim lease holds, then reported lost, never run again',
  { skip, timeout: 60_000 },
  async () => {
    const key = `lost-${Date.now()}`;
    const lost = order(direct(0), key, 60_000).then(
      () => 'answered',
      (error: Error) => `${error.name}: ${error.message}`,
    );
    // Until node-1 runs it.
    const probe = await modernClient(direct(0), { token: 'dev-alice' });
    try {
      for (
        let i = 0;
        i < 100 && (JSON.parse(textOf(await probe.call('whoami'))) as { running: number }).running === 0;
        i++
      )
        await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      await probe.close();
    }
    await cluster.processes.kill(0);
    assert.equal(await lost, 'TypeError: fetch failed');
    const retried = await order(direct(1), key, 60_000);
    assert.deepEqual(retried.result, {
      content: [{ type: 'text', text: `idempotency key "${key}" is in use by a call that is still running` }],
      isError: true,
      resultType: 'complete',
    });
    // The lease (1 s) lapses without the dead process renewing it: the outcome is lost.
    const lostText = `the call that first used idempotency key "${key}" ended without an outcome (the process running it stopped or lost the shared store); whether it acted is unknown, so it is not run again`;
    let last: RawCall | undefined;
    for (let i = 0; i < 50; i++) {
      last = await order(direct(2), key, 60_000);
      if (textOf(last.result) === lostText) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.deepEqual(last?.result, {
      content: [{ type: 'text', text: lostText }],
      isError: true,
      resultType: 'complete',
    });
    await cluster.processes.restart(0);
  },
);

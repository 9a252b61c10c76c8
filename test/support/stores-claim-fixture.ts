/*
 * A process that claims one idempotency key in a shared RedisReplayStore and then never finishes
 * its call: the test kills it (SIGKILL) to show what a retry sees once the claim's lease lapses.
 * Arguments: <redis url> <key> <leaseMs>. Prints `claimed <status>` once the claim answered.
 */
import { connectRedis, RedisReplayStore } from '../../src/redis/index.js';

const [url, key, lease] = process.argv.slice(2);
const connection = await connectRedis({ url: url! });
const store = new RedisReplayStore(connection, { leaseMs: Number(lease) });
const begun = await store.begin({ key: key!, tool: 'charge', args: { amount: 5 } });
process.stdout.write(`claimed ${begun.status}\n`);
// Keep the process (and its lease renewals) alive until it is killed.
setInterval(() => undefined, 1_000);

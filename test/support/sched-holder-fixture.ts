/*
 * A process that takes one turn on resource "db" in a shared RedisSchedulingStore and then never
 * gives it back: the test kills it (SIGKILL) to show that the turn is released when its lease
 * ends. Arguments: <redis url> <scope> <leaseMs>. Prints `holding <fencing token>` once it holds
 * the turn, and keeps renewing it until killed.
 */
import { connectRedis, RedisSchedulingStore } from '../../src/redis/index.js';

const [url, scope, lease] = process.argv.slice(2);
const connection = await connectRedis({ url: url! });
const store = new RedisSchedulingStore(connection, { leaseMs: Number(lease), pollMs: 20 });
const turn = await store.enter({
  scope: scope!,
  claims: { exclusive: false, resource: 'db', kind: 'resource' },
  label: 'holder',
  maxConcurrent: 16,
});
process.stdout.write(`holding ${turn.fencingToken}\n`);
setInterval(() => undefined, 1_000);

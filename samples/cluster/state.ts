import type { RedisConnection } from '../../src/redis/index.js';

/** One event the `post_entry` tool records as it runs: its start, and its end. */
export interface LedgerEvent {
  readonly entry: string;
  readonly node: string;
  readonly phase: 'start' | 'end';
  /** `Date.now()` in the process that ran the call. */
  readonly at: number;
  /** The call's fencing token (`heldTurnOf(ctx).fencingToken`), when its turn came from Redis. */
  readonly fence?: number;
}

/**
 * The state the sample's tools share across the processes: order numbers, and the ledger (its
 * entries, and the start and end of every `post_entry` call, in the order Redis received them).
 * Kept in Redis when the node has one, else in this process's memory.
 */
export interface SampleState {
  /** The next order number (1, 2, ...), unique across every process. */
  nextOrder(): Promise<number>;
  /** How many orders were placed so far. */
  orders(): Promise<number>;
  /** Appends an event of a `post_entry` call. */
  record(event: LedgerEvent): Promise<void>;
  /**
   * Appends `entry` to the ledger when `fence` is larger than the largest one the ledger saw
   * (a writer whose turn was lost, and so holds an older token, is refused: false).
   */
  append(entry: string, fence: number | undefined): Promise<boolean>;
  /** Every event recorded so far, in order. */
  events(): Promise<LedgerEvent[]>;
}

/** The sample's state in this process's memory (a node without Redis). */
export function memoryState(): SampleState {
  let orders = 0;
  let lastFence = 0;
  const events: LedgerEvent[] = [];
  return {
    nextOrder: async () => ++orders,
    orders: async () => orders,
    record: async (event) => void events.push(event),
    append: async (_entry, fence) => {
      if (fence === undefined) return true;
      if (fence <= lastFence) return false;
      lastFence = fence;
      return true;
    },
    events: async () => [...events],
  };
}

/** KEYS: the ledger list, its last fence. ARGV: entry, fence ('' for none). 1 when appended. */
const APPEND = `if ARGV[2] ~= '' then
  local last = tonumber(redis.call('GET', KEYS[2]) or '0')
  if tonumber(ARGV[2]) <= last then return 0 end
  redis.call('SET', KEYS[2], ARGV[2])
end
redis.call('RPUSH', KEYS[1], ARGV[1])
return 1`;

/**
 * The sample's state in Redis, under the connection's key prefix: `sample:orders` (a counter),
 * `sample:ledger` (the entries), `sample:ledger-fence` (the largest fencing token written) and
 * `sample:ledger-events` (a list of JSON events).
 */
export function redisState(redis: RedisConnection): SampleState {
  const key = (name: string): string => `${redis.keyPrefix}sample:${name}`;
  return {
    nextOrder: async () => Number(await redis.command(['INCR', key('orders')])),
    orders: async () => Number((await redis.command(['GET', key('orders')])) ?? 0),
    record: async (event) => void (await redis.command(['RPUSH', key('ledger-events'), JSON.stringify(event)])),
    append: async (entry, fence) =>
      Number(
        await redis.command([
          'EVAL',
          APPEND,
          '2',
          key('ledger'),
          key('ledger-fence'),
          entry,
          fence === undefined ? '' : String(fence),
        ]),
      ) === 1,
    events: async () =>
      ((await redis.command(['LRANGE', key('ledger-events'), '0', '-1'])) as string[]).map(
        (line) => JSON.parse(line) as LedgerEvent,
      ),
  };
}

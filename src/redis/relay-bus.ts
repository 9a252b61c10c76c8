import type { RelayBus, RelayListener } from '../mcp/index.js';
import { errorText } from '../util/describe.js';
import { raceTimeout } from '../util/timeout.js';
import {
  checkRedisUrl,
  closeBounded,
  DEFAULT_REDIS_TIMEOUT_MS,
  DEFAULT_REDIS_URL,
  openRedisClient,
  redactedRedisUrl,
  type RedisConnection,
} from './connection.js';
import { RedisUnavailableError } from './errors.js';
import { checkOptionsObject, optionKeys } from '../util/options.js';

/**
 * A Redis client in subscriber mode, as node-redis (`@redis/client`, 5.x or 6.x) has it: a host
 * may pass its own (`client.duplicate()`, connected), which toolwright then never closes.
 */
export interface RedisSubscriber {
  /** Listens on `channel`, calling `listener` with each message. */
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  /** Stops listening on `channel` (with `listener`: that listener only). */
  unsubscribe(channel: string, listener?: (message: string) => void): Promise<unknown>;
}

/** Options of `redisRelayBus`. */
export interface RedisRelayBusOptions {
  /** The connection messages are published on (`connectRedis`); its `keyPrefix` starts every channel name. */
  readonly connection: RedisConnection;
  /**
   * Where the subscriber connects (Redis pub/sub needs a connection of its own): a
   * `redis[s]://` URL, default `redis://127.0.0.1:6379`. Ignored with `subscriber`.
   */
  readonly url?: string;
  /** A subscriber client of the host's own (see `RedisSubscriber`), instead of one made from `url`. */
  readonly subscriber?: RedisSubscriber;
  /** How long the subscriber's first connection may take, in milliseconds; default 2000. */
  readonly connectTimeoutMs?: number;
}

const OPTION_KEYS = optionKeys<RedisRelayBusOptions>()('connection', 'url', 'subscriber', 'connectTimeoutMs');

/** A relay bus over Redis, with a way to close the subscriber connection it made. */
export interface RedisRelayBus extends RelayBus {
  /**
   * Closes the subscriber connection this bus made (a host's own subscriber stays open), waiting
   * at most `connectTimeoutMs` for it (Redis away: its socket is destroyed). Idempotent.
   */
  close(): Promise<void>;
}

/** What the bus needs of `@redis/client`'s client. */
interface OwnedSubscriber extends RedisSubscriber {
  connect(): Promise<unknown>;
  destroy(): void;
  close(): Promise<void>;
  on(event: 'error', listener: (error: unknown) => void): unknown;
}

/**
 * The parked-run relay's bus over Redis pub/sub (pass it as `inputRounds.relay`, with a
 * `nodeId` per process): a node listens on the channel `<keyPrefix>relay:<nodeId>`; a message is
 * sent with `PUBLISH` on the connection, whose reply (how many subscribers got it) tells whether
 * the node is alive. Pub/sub keeps nothing: a message to a node that is not listening at that
 * moment is lost, which the relay answers "call the tool again".
 *
 * Failures: a send while Redis is down rejects with the connection's `RedisUnavailableError`
 * (the retry is answered with it, see `relayFailedText`); listening while Redis is down rejects
 * with `RedisUnavailableError` too. The subscriber made here reconnects on its own and subscribes
 * again when Redis is back. Bad options throw a `TypeError` naming the option.
 */
export function redisRelayBus(options: RedisRelayBusOptions): RedisRelayBus {
  checkOptionsObject('redisRelayBus', options, OPTION_KEYS);
  const connection = options.connection;
  if (typeof (connection as { command?: unknown } | undefined)?.command !== 'function')
    throw new TypeError('redisRelayBus: "connection" must be a RedisConnection (from connectRedis)');
  checkRedisUrl('redisRelayBus', options.url);
  if (
    options.subscriber !== undefined &&
    (typeof options.subscriber.subscribe !== 'function' || typeof options.subscriber.unsubscribe !== 'function')
  ) {
    throw new TypeError(
      'redisRelayBus: "subscriber" must have subscribe(channel, listener) and unsubscribe(channel) methods (a node-redis client)',
    );
  }
  const url = options.url ?? DEFAULT_REDIS_URL;
  const where = redactedRedisUrl(url);
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_REDIS_TIMEOUT_MS;
  let owned: Promise<OwnedSubscriber> | undefined;
  let closed = false;
  const channelOf = (node: string): string => `${connection.keyPrefix}relay:${node}`;

  const subscriber = async (): Promise<RedisSubscriber> => {
    if (options.subscriber !== undefined) return options.subscriber;
    owned ??= openRedisClient<OwnedSubscriber>({ caller: 'redisRelayBus', url, connectTimeoutMs, offlineQueue: true });
    // A failed connection is tried again by the next listen rather than remembered.
    return owned.catch((error: unknown) => {
      owned = undefined;
      throw error;
    });
  };

  return {
    async send(node, message) {
      const receivers = await connection.command(['PUBLISH', channelOf(node), message]);
      return typeof receivers === 'number' && receivers > 0;
    },
    async listen(node, onMessage): Promise<RelayListener> {
      if (closed) throw new RedisUnavailableError(where, 'is not connected: the relay bus was closed');
      const client = await subscriber();
      const channel = channelOf(node);
      const listener = (message: string): void => onMessage(message);
      try {
        await client.subscribe(channel, listener);
      } catch (thrown) {
        throw thrown instanceof RedisUnavailableError
          ? thrown
          : new RedisUnavailableError(where, `cannot be reached: ${errorText(thrown)}`, { cause: thrown });
      }
      // Bounded: while Redis is away the subscriber queues the unsubscribe until it is back.
      return {
        close: async () =>
          void (await raceTimeout(
            client.unsubscribe(channel, listener).catch(() => undefined),
            connectTimeoutMs,
            () => undefined,
          )),
      };
    },
    async close() {
      closed = true;
      const made = owned;
      owned = undefined;
      const client = await made?.catch(() => undefined);
      if (client === undefined) return;
      await closeBounded(client, connectTimeoutMs);
    },
  };
}

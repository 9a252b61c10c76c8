import { errorText, kindOf } from '../util/describe.js';
import { raceTimeout } from '../util/timeout.js';
import { isPositiveInteger, MAX_TIMEOUT_MS } from '../util/limits.js';
import { RedisUnavailableError } from './errors.js';
import { checkOptionsObject, invalidOption, optionKeys } from '../util/options.js';
import {
  checkRedisDurability,
  durabilityWarning,
  RedisClusterUnsupportedError,
  RedisDurabilityError,
  type RedisDurability,
  type RedisDurabilityMode,
} from './durability.js';
import { RedisGeneration } from './generation.js';
import { runScript, type RedisScript } from './script.js';

/**
 * The one thing toolwright's Redis stores need of a client: send one command, as its words, and
 * resolve the reply. A node-redis client (`@redis/client` or `redis`, 5.x or 6.x) has this method
 * as it is; for ioredis, pass `{ sendCommand: (args) => redis.call(args[0], ...args.slice(1)) }`.
 */
export interface RedisCommandClient {
  /** Sends one command (`['SET', 'k', 'v']`) and resolves its reply; `timeout` bounds it in milliseconds. */
  sendCommand(args: string[], options?: { timeout?: number }): Promise<unknown>;
}

/** Options of `connectRedis`. Every member is optional. */
export interface ConnectRedisOptions {
  /**
   * Where Redis is: `redis[s]://[[user][:password]@]host[:port][/db]` (default
   * `redis://127.0.0.1:6379`). Ignored with `client`.
   */
  readonly url?: string;
  /**
   * A client the host made and connected itself (see `RedisCommandClient`). toolwright then
   * never connects, reconnects or closes it; `close()` leaves it open.
   */
  readonly client?: RedisCommandClient;
  /** How long the first connection may take, in milliseconds (a positive integer; default 2000). */
  readonly connectTimeoutMs?: number;
  /** How long one command may take, in milliseconds, before it fails with `RedisUnavailableError` (default 2000). */
  readonly commandTimeoutMs?: number;
  /**
   * Prepended to every key toolwright's stores write (default `toolwright:`); give each deployment
   * sharing one Redis its own.
   */
  readonly keyPrefix?: string;
  /**
   * What to do when Redis could lose what the stores promise (persistence off, an evicting
   * memory policy; see `checkRedisDurability`): `'require'` (the default) rejects with
   * `RedisDurabilityError`, `'warn'` connects and logs it once, `'off'` does not look. A Redis
   * that refuses `INFO` is connected to with a warning whatever the mode but `'off'`.
   */
  readonly durability?: RedisDurabilityMode;
  /**
   * Where the connection's warnings go (a Redis that may lose data, a loss found; see
   * `RedisGeneration`). Default: one line on stderr, `toolwright: <message>`.
   */
  readonly log?: (message: string) => void;
}

const OPTION_KEYS = optionKeys<ConnectRedisOptions>()(
  'url',
  'client',
  'connectTimeoutMs',
  'commandTimeoutMs',
  'keyPrefix',
  'durability',
  'log',
);

const DURABILITY_MODES: ReadonlySet<unknown> = new Set(['require', 'warn', 'off']);

/** The URL `connectRedis` uses when given none. */
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';
/** The default bound on the first connection and on each command: 2 s. */
export const DEFAULT_REDIS_TIMEOUT_MS = 2_000;
/** The default key prefix of toolwright's stores. */
export const DEFAULT_REDIS_KEY_PREFIX = 'toolwright:';

/** The longest wait between two reconnection attempts after Redis went away. */
const MAX_RECONNECT_DELAY_MS = 1_000;

/**
 * `url` without its user name and password, for messages. A URL that cannot be parsed is named as
 * given up to its `@`.
 */
export function redactedRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    const at = url.lastIndexOf('@');
    return at < 0 ? url : `…@${url.slice(at + 1)}`;
  }
}

/**
 * Throws a `TypeError` naming `caller` when `url` is given and is not a `redis://` or `rediss://`
 * URL (the URL is shown without its credentials). Internal: every Redis entry point checks its
 * `url` here.
 */
export function checkRedisUrl(caller: string, url: unknown): void {
  if (url === undefined || (typeof url === 'string' && /^rediss?:\/\//.test(url))) return;
  throw new TypeError(
    `${caller}: "url" must be a redis:// or rediss:// URL, got ${typeof url === 'string' ? JSON.stringify(redactedRedisUrl(url)) : kindOf(url)}`,
  );
}

function checkOptions(options: ConnectRedisOptions): void {
  checkOptionsObject('connectRedis', options, OPTION_KEYS);
  checkRedisUrl('connectRedis', options.url);
  if (
    options.client !== undefined &&
    typeof (options.client as { sendCommand?: unknown } | null)?.sendCommand !== 'function'
  ) {
    throw new TypeError(
      'connectRedis: "client" must have a sendCommand(args) method (a node-redis client, or an adapter for another client)',
    );
  }
  for (const name of ['connectTimeoutMs', 'commandTimeoutMs'] as const) {
    const value = options[name];
    if (value !== undefined && !(isPositiveInteger(value) && value <= MAX_TIMEOUT_MS))
      throw new TypeError(
        `connectRedis: "${name}" must be a positive whole number of milliseconds, got ${String(value)}`,
      );
  }
  if (options.keyPrefix !== undefined && typeof options.keyPrefix !== 'string')
    throw invalidOption('connectRedis', 'keyPrefix', 'a string', options.keyPrefix);
  if (options.durability !== undefined && !DURABILITY_MODES.has(options.durability))
    throw invalidOption(
      'connectRedis',
      'durability',
      "'require', 'warn' or 'off'",
      options.durability,
      typeof options.durability === 'string' ? JSON.stringify(options.durability) : undefined,
    );
  if (options.log !== undefined && typeof options.log !== 'function')
    throw invalidOption('connectRedis', 'log', 'a function', options.log);
  if (isClusterClient(options.client)) throw new RedisClusterUnsupportedError('connectRedis: "client"');
}

/** True for a node-redis cluster client (`createCluster`), which routes each command by its first key. */
function isClusterClient(client: unknown): boolean {
  return (
    typeof client === 'object' &&
    client !== null &&
    typeof (client as { nodeClient?: unknown }).nodeClient === 'function' &&
    'masters' in client
  );
}

/** Writes one warning line on stderr (the default `log`). */
function stderrLine(message: string): void {
  process.stderr.write(`toolwright: ${message}\n`);
}

/** What `connectRedis` needs of `@redis/client`'s client: connect, send, close, and its events. */
interface OwnedClient extends RedisCommandClient {
  connect(): Promise<unknown>;
  destroy(): void;
  close(): Promise<void>;
  on(event: 'error', listener: (error: unknown) => void): unknown;
}

/**
 * One way to Redis, shared by every toolwright store that uses it: each command is bounded by
 * `commandTimeoutMs` and fails with `RedisUnavailableError` (naming Redis and its URL) when Redis
 * is down, refuses, or does not answer in time, so a call that needs the store never hangs. A
 * connection made by `connectRedis({ url })` reconnects on its own when Redis comes back
 * (commands sent while it is away fail at once instead of waiting in a queue). It carries the
 * pieces every Redis-backed store shares: scripts by `EVALSHA` (`script`), the generation marker
 * that detects a Redis that lost its data (`generation`), and what the persistence check at
 * connect found (`durability`).
 */
export class RedisConnection {
  /** Prepended to every key the stores write. */
  readonly keyPrefix: string;
  /** Where Redis is, without credentials (for messages). */
  readonly where: string;
  readonly commandTimeoutMs: number;
  /** Detects a Redis that lost its data since this process last saw it (see `RedisGeneration`). */
  readonly generation: RedisGeneration;
  /** What the check at connect found, or `undefined` when it did not look (`durability: 'off'`). */
  durability: RedisDurability | undefined;
  /** Where the connection's warnings go (`ConnectRedisOptions.log`). */
  readonly log: (message: string) => void;
  private readonly owned: OwnedClient | undefined;
  private closed = false;

  /**
   * Use `connectRedis`; this constructor neither connects nor checks its arguments.
   *
   * @internal
   */
  constructor(
    private readonly client: RedisCommandClient,
    options: {
      readonly where: string;
      readonly keyPrefix: string;
      readonly commandTimeoutMs: number;
      readonly owned: OwnedClient | undefined;
      readonly log?: (message: string) => void;
    },
  ) {
    this.where = options.where;
    this.keyPrefix = options.keyPrefix;
    this.commandTimeoutMs = options.commandTimeoutMs;
    this.owned = options.owned;
    this.log = options.log ?? stderrLine;
    this.generation = new RedisGeneration(this, this.keyPrefix, this.log, this.where);
  }

  /**
   * Sends one command and resolves Redis's reply. Rejects with `RedisUnavailableError` when the
   * connection is closed, Redis cannot be reached or does not answer within `commandTimeoutMs`;
   * an error reply of Redis itself (a wrong type, a script error) rejects as the client gives it.
   */
  async command(args: readonly string[]): Promise<unknown> {
    if (this.closed) throw new RedisUnavailableError(this.where, 'is not connected: the connection was closed');
    const sent = this.client.sendCommand([...args], { timeout: this.commandTimeoutMs });
    try {
      return await raceTimeout(sent, this.commandTimeoutMs, () => {
        throw new RedisUnavailableError(this.where, `did not answer within ${this.commandTimeoutMs} ms`);
      });
    } catch (thrown) {
      throw unavailableOrAsIs(this.where, thrown, this.commandTimeoutMs);
    }
  }

  /**
   * Runs a Lua script with its `keys` (every key it touches) and `args`, by `EVALSHA`, falling
   * back to `EVAL` when Redis does not hold it (see `runScript`). For a script that must run only
   * in the generation this process knows, use `generation.run`.
   */
  script(script: RedisScript, keys: readonly string[], args: readonly string[]): Promise<unknown> {
    return runScript(this, script, keys, args);
  }

  /**
   * Whether Redis answers now: `PING` within `commandTimeoutMs` (at most 1 s). Never rejects:
   * resolves `{ ok: true }`, or `{ ok: false, detail }` with the `RedisUnavailableError`'s
   * message. For health and readiness reports.
   */
  async health(): Promise<{ readonly ok: boolean; readonly detail?: string }> {
    try {
      await raceTimeout(this.command(['PING']), Math.min(this.commandTimeoutMs, 1_000), () => {
        throw new RedisUnavailableError(
          this.where,
          `did not answer within ${Math.min(this.commandTimeoutMs, 1_000)} ms`,
        );
      });
      return { ok: true };
    } catch (thrown) {
      return { ok: false, detail: errorText(thrown) };
    }
  }

  /**
   * Closes a connection `connectRedis` made (a host's own client stays open). Commands then fail.
   * Bounded: when the client has not closed within `commandTimeoutMs` (Redis unreachable, a
   * command stuck), its socket is destroyed. Idempotent.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.owned === undefined) return;
    await closeBounded(this.owned, this.commandTimeoutMs);
  }
}

/**
 * Closes a client of `@redis/client`, waiting at most `timeoutMs` for it to finish what it has
 * sent; past that (or when closing fails) destroys it. Never rejects. Internal.
 */
export async function closeBounded(
  client: { close(): Promise<void>; destroy(): void },
  timeoutMs: number,
): Promise<void> {
  let closed = false;
  try {
    closed = await raceTimeout(
      client.close().then(() => true),
      timeoutMs,
      () => false,
    );
  } catch {
    closed = false;
  }
  if (!closed) {
    try {
      client.destroy();
    } catch {
      // Already gone.
    }
  }
}

/** Messages of node-redis errors that mean Redis is not there (rather than a reply of Redis). */
const UNAVAILABLE =
  /closed|offline|socket|connect|ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|timeout|LOADING/i;

/**
 * The error a failed command rejects with: `RedisUnavailableError` for a connection problem, else
 * the client's error as is.
 */
function unavailableOrAsIs(where: string, thrown: unknown, timeoutMs: number): unknown {
  if (thrown instanceof RedisUnavailableError) return thrown;
  const name = (thrown as { name?: unknown } | null)?.name;
  const text = errorText(thrown);
  if (name === 'TimeoutError' || name === 'CommandTimeoutDuringMaintenanceError')
    return new RedisUnavailableError(where, `did not answer within ${timeoutMs} ms`, { cause: thrown });
  if (
    name === 'ClientClosedError' ||
    name === 'ClientOfflineError' ||
    name === 'SocketClosedUnexpectedlyError' ||
    name === 'ConnectionTimeoutError' ||
    UNAVAILABLE.test(text)
  ) {
    return new RedisUnavailableError(where, `cannot be reached: ${text}`, { cause: thrown });
  }
  return thrown;
}

/**
 * Connects to Redis for toolwright's stores and resolves the connection once Redis answered.
 * With `client`, uses the host's client as it is (no connection is made here). Otherwise it
 * loads `@redis/client` (an optional peer dependency: install it next to toolwright; nothing in
 * toolwright loads it unless this is called) and connects to `url`; it rejects with
 * `RedisUnavailableError` when Redis cannot be reached within `connectTimeoutMs`, and with an
 * `Error` naming the package when `@redis/client` is not installed. Bad options throw a
 * `TypeError` naming the option.
 *
 * Then it checks, unless `durability` is `'off'`, that Redis can keep what the stores promise
 * (see `checkRedisDurability`): persistence on (`appendonly yes`) and no eviction
 * (`maxmemory-policy noeviction`, or no `maxmemory`). By default a Redis that fails the check is
 * refused with `RedisDurabilityError` listing every problem; with `durability: 'warn'` it is
 * connected to and the problems are logged once. A Redis that refuses `INFO` is connected to with
 * a warning. A Redis Cluster (`redis_mode:cluster`, or a node-redis cluster client as `client`)
 * is refused with `RedisClusterUnsupportedError` whatever the mode but `'off'` (a cluster client
 * always).
 */
export async function connectRedis(options: ConnectRedisOptions = {}): Promise<RedisConnection> {
  checkOptions(options);
  const keyPrefix = options.keyPrefix ?? DEFAULT_REDIS_KEY_PREFIX;
  const commandTimeoutMs = options.commandTimeoutMs ?? DEFAULT_REDIS_TIMEOUT_MS;
  const log = options.log ?? stderrLine;
  let connection: RedisConnection;
  if (options.client !== undefined) {
    connection = new RedisConnection(options.client, {
      where: "the host's client",
      keyPrefix,
      commandTimeoutMs,
      owned: undefined,
      log,
    });
  } else {
    const url = options.url ?? DEFAULT_REDIS_URL;
    const where = redactedRedisUrl(url);
    const client = await openRedisClient<OwnedClient>({
      caller: 'connectRedis',
      url,
      connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_REDIS_TIMEOUT_MS,
      offlineQueue: false,
    });
    connection = new RedisConnection(client, { where, keyPrefix, commandTimeoutMs, owned: client, log });
  }
  const mode = options.durability ?? 'require';
  if (mode === 'off') return connection;
  try {
    const durability = await checkRedisDurability(connection);
    connection.durability = durability;
    if (durability.mode === 'cluster') throw new RedisClusterUnsupportedError(`Redis at ${connection.where}`);
    if (mode === 'require' && durability.problems.length > 0)
      throw new RedisDurabilityError(connection.where, durability.problems);
    const warning = durabilityWarning(connection.where, durability);
    if (warning !== undefined) log(warning);
  } catch (thrown) {
    await connection.close();
    throw thrown;
  }
  return connection;
}

/** What `openRedisClient` needs of every client of `@redis/client` it makes. */
interface OpenedClient {
  connect(): Promise<unknown>;
  destroy(): void;
  on(event: 'error', listener: (error: unknown) => void): unknown;
}

/**
 * Makes a client of `@redis/client` for `url` and resolves it once connected: the one connection
 * factory of toolwright's Redis code (`connectRedis`, and the relay bus's subscriber). The client
 * reconnects on its own after Redis went away (every 50 ms doubling to at most
 * `MAX_RECONNECT_DELAY_MS`), and has an `error` listener (without one node-redis would crash the
 * process). With `offlineQueue: false`, commands sent while Redis is away fail at once instead of
 * waiting in a queue. Rejects with `RedisUnavailableError` (naming the URL without credentials)
 * when no connection is made within `connectTimeoutMs`, destroying the client, and with an `Error`
 * naming `caller` and the package when `@redis/client` is not installed. Internal.
 */
export async function openRedisClient<C extends OpenedClient>(options: {
  readonly caller: string;
  readonly url: string;
  readonly connectTimeoutMs: number;
  readonly offlineQueue: boolean;
}): Promise<C> {
  const { caller, url, connectTimeoutMs } = options;
  const where = redactedRedisUrl(url);
  let createClient: (options: object) => C;
  try {
    ({ createClient } = (await import('@redis/client')) as unknown as { createClient: (options: object) => C });
  } catch (thrown) {
    throw new Error(
      `${caller}: the package "@redis/client" is not installed; run \`npm install @redis/client\` (an optional peer dependency of toolwright, needed only for the Redis stores)`,
      { cause: thrown },
    );
  }
  const client = createClient({
    url,
    ...(options.offlineQueue ? {} : { disableOfflineQueue: true }),
    socket: {
      connectTimeout: connectTimeoutMs,
      reconnectStrategy: (retries: number) => Math.min(50 * 2 ** Math.min(retries, 5), MAX_RECONNECT_DELAY_MS),
    },
  });
  let lastError: unknown;
  // node-redis reports every connection problem as an 'error' event; without a listener the
  // process would crash. The reconnect strategy keeps trying; commands fail fast meanwhile.
  client.on('error', (error) => {
    lastError = error;
  });
  try {
    await raceTimeout(client.connect(), connectTimeoutMs, () => {
      const last = lastError === undefined ? '' : ` (${errorText(lastError)})`;
      throw new RedisUnavailableError(where, `cannot be reached: no connection within ${connectTimeoutMs} ms${last}`);
    });
  } catch (thrown) {
    client.destroy();
    throw thrown instanceof RedisUnavailableError
      ? thrown
      : new RedisUnavailableError(where, `cannot be reached: ${errorText(thrown)}`, { cause: thrown });
  }
  return client;
}

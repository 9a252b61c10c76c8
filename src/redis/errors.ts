import { ToolwrightError } from '../contract/index.js';

/**
 * Redis could not be reached, or did not answer in time: the shared store a call needs is not
 * there. The message names Redis, where it was looked for (the URL without credentials) and what
 * went wrong, for example `Redis at redis://127.0.0.1:6379 did not answer within 2000 ms (the
 * shared store toolwright keeps replay and decisions in)`. Code `redis-unavailable`. A call that
 * fails with it can be tried again once Redis is back: nothing was stored for it.
 */
export class RedisUnavailableError extends ToolwrightError {
  override readonly name = 'RedisUnavailableError';
  /** Where Redis was looked for, without credentials. */
  readonly where: string;

  constructor(where: string, problem: string, options?: { cause?: unknown }) {
    super(
      'redis-unavailable',
      `Redis at ${where} ${problem} (the shared store toolwright keeps replay and decisions in)`,
      options,
    );
    this.where = where;
  }
}

/**
 * Redis answered something a toolwright store did not write there (another program's value
 * under the store's key prefix, or a stored outcome that is not JSON). Code `redis-bad-reply`.
 */
export class RedisBadReplyError extends ToolwrightError {
  override readonly name = 'RedisBadReplyError';

  constructor(message: string) {
    super('redis-bad-reply', message);
  }
}

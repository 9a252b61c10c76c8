/**
 * How long a failed fetch of an issuer's metadata, keys or introspection endpoint is remembered by
 * default, in milliseconds.
 */
export const DEFAULT_FAILED_FETCH_CACHE_MS = 5_000;

/**
 * Keeps a token verifier's fetches of what does not depend on the token (the issuer's metadata,
 * its JWKS) from growing with the requests it verifies, so garbage tokens sent while the issuer
 * is down cannot be amplified into fetches. `shared(key, fetch)`:
 *
 * - while a fetch for `key` is in flight, every caller waits for it and gets its outcome
 *   (concurrent fetches are coalesced into one);
 * - a fetch for `key` that failed is remembered for `failureMs`: a caller in that window is
 *   rejected at once with that failure (the message says so) and nothing is fetched; the first
 *   caller after the window fetches again.
 *
 * So while a key's fetch keeps failing, it is attempted at most once per `failureMs` (plus the
 * time the failing attempt took), however many callers ask. Success is never remembered here:
 * the caller keeps what it fetched. `failureMs` 0 remembers nothing (fetches are still
 * coalesced). Keys are a verifier's few fixed names, never request data: a fetch whose failure
 * a token could cause (an introspection request) must not go through a guard, or one bad token
 * would shut every other token out for `failureMs`.
 */
export class FetchGuard {
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private readonly failures = new Map<string, { readonly until: number; readonly error: Error }>();

  constructor(
    private readonly failureMs: number,
    private readonly now: () => number,
  ) {}

  /** Runs `fetch` for `key`, joining one already in flight, unless a failure is remembered. */
  shared<T>(key: string, fetch: () => Promise<T>): Promise<T> {
    const running = this.inFlight.get(key);
    if (running !== undefined) return running as Promise<T>;
    const started = this.attempt(key, fetch).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, started);
    return started;
  }

  private async attempt<T>(key: string, fetch: () => Promise<T>): Promise<T> {
    const failed = this.failures.get(key);
    if (failed !== undefined) {
      const left = failed.until - this.now();
      if (left > 0)
        throw new Error(`${failed.error.message} (not fetched again for ${Math.ceil(left)} ms)`, {
          cause: failed.error,
        });
      this.failures.delete(key);
    }
    try {
      return await fetch();
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error));
      if (this.failureMs > 0) this.failures.set(key, { until: this.now() + this.failureMs, error: failure });
      throw error;
    }
  }
}

/**
 * Checks a `failedFetchCacheMs` option: a non-negative finite number, or `undefined` for the
 * default. Throws a `TypeError` naming `owner` otherwise.
 */
export function failedFetchCacheMsOf(owner: string, value: unknown): number {
  if (value === undefined) return DEFAULT_FAILED_FETCH_CACHE_MS;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
    throw new TypeError(
      `${owner}: failedFetchCacheMs must be a non-negative number of milliseconds, got ${JSON.stringify(value) ?? String(value)}`,
    );
  return value;
}

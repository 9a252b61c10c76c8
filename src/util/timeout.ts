import { MAX_TIMEOUT_MS } from './limits.js';

/**
 * Settles as `work` does, unless `timeoutMs` passes first: then as `onTimeout()` does (what it
 * returns resolves, what it throws rejects). The timer is cleared as soon as either side settles,
 * so a finished race never holds the process open. `Infinity` never times out (no timer is set);
 * a delay over `MAX_TIMEOUT_MS` waits that long, and a negative one times out at the next timer
 * turn. A rejection of `work` after the timeout is ignored (never an unhandled rejection); `work`
 * itself is never stopped, which is the caller's job.
 */
export async function raceTimeout<T, U>(work: PromiseLike<T>, timeoutMs: number, onTimeout: () => U): Promise<T | U> {
  const running = Promise.resolve(work);
  running.catch(() => undefined);
  if (timeoutMs === Infinity) return running;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<U>((resolve, reject) => {
    timer = setTimeout(
      () => {
        try {
          resolve(onTimeout());
        } catch (thrown) {
          reject(thrown as Error);
        }
      },
      Math.min(Math.max(timeoutMs, 0), MAX_TIMEOUT_MS),
    );
  });
  try {
    return await Promise.race([running, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Resolves after `ms` milliseconds, or at once when `signal` aborts (already aborted: at the next
 * turn); never rejects, so a poll loop checks the signal itself after it. The timer and the
 * listener are removed as soon as it resolves.
 */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, Math.min(Math.max(ms, 0), MAX_TIMEOUT_MS));
    if (signal?.aborted === true) done();
    else signal?.addEventListener('abort', done, { once: true });
  });
}

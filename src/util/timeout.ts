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

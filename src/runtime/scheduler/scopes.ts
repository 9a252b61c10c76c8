import { Scheduler } from './scheduler.js';

/**
 * One `Scheduler` per scope key, made on first use and dropped as soon as it is empty (nothing
 * waiting, nothing running), so keys that come and go (sessions, principals) leave nothing
 * behind. Every scheduler it makes has the same `maxConcurrent`. Keys are opaque strings; the
 * caller makes them distinct per scope kind (e.g. `principal:alice`, `server`).
 */
export class ScopedSchedulers {
  private readonly schedulers = new Map<string, Scheduler>();

  /** Throws as `new Scheduler` does for a bad `maxConcurrent`. */
  constructor(private readonly maxConcurrent: number = Number.POSITIVE_INFINITY) {
    new Scheduler({ maxConcurrent });
  }

  /** The scheduler of `key`, made now when the key has none. */
  schedulerOf(key: string): Scheduler {
    let scheduler = this.schedulers.get(key);
    if (scheduler === undefined) {
      const made: Scheduler = new Scheduler({
        maxConcurrent: this.maxConcurrent,
        onIdle: () => {
          if (this.schedulers.get(key) === made) this.schedulers.delete(key);
        },
      });
      scheduler = made;
      this.schedulers.set(key, scheduler);
    }
    return scheduler;
  }

  /** How many scopes have calls waiting or running now. */
  get size(): number {
    return this.schedulers.size;
  }
}

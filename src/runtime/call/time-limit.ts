import type { CallContext } from '../../contract/index.js';
import { carryMember, defineLazySignal } from '../../contract/internal.js';
import { kindOf } from '../../util/describe.js';
import { MAX_TIMEOUT_MS } from '../../util/limits.js';
import { CallTimeoutError } from './errors.js';

export { MAX_TIMEOUT_MS };

/**
 * Checks a time limit in milliseconds: `undefined` (no limit) or a positive number up to
 * `MAX_TIMEOUT_MS`. Returns what is wrong with it in words, or `undefined` when it is fine.
 */
export function checkTimeout(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > MAX_TIMEOUT_MS) {
    return `expected a positive number of milliseconds up to ${MAX_TIMEOUT_MS}, got ${typeof value === 'number' ? String(value) : kindOf(value)}`;
  }
  return undefined;
}

/**
 * The time limit of one call: the one implementation every host uses. Each run of the tool's
 * `execute` gets the whole limit (a permission question between runs is not counted). When the
 * limit passes during a run, the signal `execute` sees aborts with a `CallTimeoutError`
 * (`tool "<name>" timed out after <ms> ms`) and `expired` resolves with that error, so the host
 * stops waiting at once; the tool may still be running, and what it settles with later is left
 * to whoever reads the call's own end.
 */
export class CallTimeLimit {
  /**
   * Resolves with the call's end (the timeout error) once the limit passed during a run, before
   * the signal aborts, so the timeout decides even when the tool rejects on abort; never rejects.
   */
  readonly expired: Promise<{ readonly ok: false; readonly error: CallTimeoutError }>;
  private resolveExpired!: (end: { readonly ok: false; readonly error: CallTimeoutError }) => void;
  private controller: AbortController | undefined;
  private error: CallTimeoutError | undefined;

  /** `kind` names what is limited in the timeout's message (`tool` by default; see `CallTimeoutError`). */
  constructor(
    private readonly tool: string,
    private readonly limitMs: number,
    private readonly kind = 'tool',
  ) {
    this.expired = new Promise((resolve) => {
      this.resolveExpired = resolve;
    });
  }

  /**
   * Runs one `execute` under the limit: the timer starts before `work` is called and stops when
   * its promise settles. What `work` settles with is returned as it is.
   */
  run<T>(work: () => Promise<T>): Promise<T> {
    const timer = setTimeout(() => this.expire(), this.limitMs);
    let running: Promise<T>;
    try {
      running = work();
    } catch (thrown) {
      clearTimeout(timer);
      return Promise.reject(thrown);
    }
    const stop = (): void => clearTimeout(timer);
    running.then(stop, stop);
    return running;
  }

  /**
   * `ctx` with the signal `execute` sees: it fires when `ctx.signal` does, or when the limit
   * passes (reason: the `CallTimeoutError`). Every other member is carried over as it is (a
   * getter stays a getter). The signal is made on first read, once per context.
   */
  contextFor(ctx: CallContext): CallContext {
    const source = ctx as unknown as Record<string, unknown>;
    const copy: Record<string, unknown> = {};
    for (const key in source) {
      if (key === 'signal') continue;
      carryMember(source, copy, key);
    }
    let signal: AbortSignal | undefined;
    // The shared lazy getter, not an accessor closure of its own (one hidden class per call in V8).
    defineLazySignal(copy, () => (signal ??= AbortSignal.any([ctx.signal, this.ownSignal()])));
    return Object.freeze(copy) as unknown as CallContext;
  }

  private ownSignal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.error !== undefined) this.controller.abort(this.error);
    }
    return this.controller.signal;
  }

  private expire(): void {
    if (this.error !== undefined) return;
    this.error = new CallTimeoutError(this.tool, this.limitMs, this.kind);
    this.resolveExpired({ ok: false, error: this.error });
    this.controller?.abort(this.error);
  }
}

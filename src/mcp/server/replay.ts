import { replayOf, principalKey, type CallContext, type JsonObject } from '../../contract/index.js';
import type { ReplayOutcome, ReplayStore } from '../../runtime/index.js';
import { IdempotencyConflictError, recordOnSettle } from '../../runtime/internal.js';
import { runToolCall, type CallEnd, type CallObserver, type PreparedTool } from '../../runtime/call/index.js';
import { IDEMPOTENCY_KEY_META } from './constants.js';
import { invalidParams } from './protocol-error.js';
import { invalidOption } from '../../util/options.js';

/** The longest idempotency key a server accepts. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 256;

/**
 * The idempotency key a `tools/call` request carries in `_meta[IDEMPOTENCY_KEY_META]`, or
 * `undefined` when it carries none. Throws a `-32602` protocol error, `tools/call:
 * params._meta["io.github.christopherdavenport.agenttool/idempotency-key"] must be a non-empty
 * string of at most 256 characters`, for anything else under that key.
 */
export function idempotencyKeyOf(meta: Readonly<Record<string, unknown>> | undefined): string | undefined {
  const key = meta?.[IDEMPOTENCY_KEY_META];
  if (key === undefined) return undefined;
  if (typeof key !== 'string' || key === '' || key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw invalidParams(
      `tools/call: params._meta[${JSON.stringify(IDEMPOTENCY_KEY_META)}] must be a non-empty string of at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`,
    );
  }
  return key;
}

/** Throws a `TypeError` naming `where` unless `replay` is absent or a store with `begin` and `complete`. */
export function checkReplayOption(replay: unknown, where: string): void {
  if (replay === undefined) return;
  if (
    typeof replay !== 'object' ||
    replay === null ||
    typeof (replay as ReplayStore).begin !== 'function' ||
    typeof (replay as ReplayStore).complete !== 'function'
  ) {
    throw invalidOption(
      where,
      'replay',
      'a replay store with "begin" and "complete" methods (a MemoryReplayStore, a RedisReplayStore)',
      replay,
    );
  }
}

/**
 * Runs one served call through the call core, deduplicated on its idempotency key when the
 * server has a `replay` store, the request carried a key and the tool's replay claim answers
 * `keyed` for these arguments; otherwise it simply runs the call. Keys are kept per principal
 * (`ReplayClaim.owner`), one shared space without one. The store answers:
 * - `new`: the call runs, and its real outcome is recorded when the tool settles, before the
 *   call is answered (so a retry right after the answer finds it); a time limit that answers
 *   first does not wait, and the real outcome is recorded when the tool settles after all;
 * - `done`: the first outcome is the call's end, and the tool does not run;
 * - `running` / `different-arguments`: the call ends with `IdempotencyConflictError`
 *   (`idempotency key "k" is in use by a call that is still running` / `... was first used with
 *   different arguments`), and the tool does not run.
 * A store that fails to answer (Redis down: `RedisUnavailableError`) ends the call with its
 * error, and the tool does not run. `observer.settled` is called once in every case.
 */
export function callOnce(
  replay: ReplayStore | undefined,
  prepared: PreparedTool,
  args: Record<string, unknown>,
  ctx: CallContext,
  key: string | undefined,
  observer: CallObserver,
): Promise<CallEnd> {
  // The common case (no store, or no key) adds nothing to the call: no promise, no tick.
  if (replay === undefined || key === undefined) return runToolCall(prepared, args, ctx, observer);
  return keyedCall(replay, prepared, args, ctx, key, observer);
}

/** `callOnce` with a store and a key. */
async function keyedCall(
  replay: ReplayStore,
  prepared: PreparedTool,
  args: Record<string, unknown>,
  ctx: CallContext,
  key: string,
  observer: CallObserver,
): Promise<CallEnd> {
  const settledWith = (end: CallEnd): CallEnd => {
    try {
      observer.settled?.(end);
    } catch {
      // An observer's failure never changes the call's end.
    }
    return end;
  };
  let keyed: boolean;
  try {
    const tool = prepared.tool;
    keyed =
      tool.replay === 'keyed' ||
      (typeof tool.replay === 'function' && (await replayOf(tool, args as JsonObject, ctx)) === 'keyed');
  } catch {
    keyed = false;
  }
  if (!keyed) return runToolCall(prepared, args, ctx, observer);
  const principal = ctx.principal === undefined ? undefined : principalKey(ctx.principal);
  try {
    const begun = await replay.begin(
      principal === undefined
        ? { key, tool: prepared.name, args }
        : { key, tool: prepared.name, args, owner: principal },
    );
    if (begun.status === 'done') return settledWith(begun.outcome as CallEnd);
    if (begun.status === 'running' || begun.status === 'different-arguments')
      return settledWith({ ok: false, error: new IdempotencyConflictError(key, begun.status) });
    if (begun.status !== 'new')
      throw new Error(
        `the replay store answered ${JSON.stringify((begun as { status?: unknown }).status) ?? 'nothing'} for idempotency key ${JSON.stringify(key)}; expected "new", "done", "running" or "different-arguments"`,
      );
  } catch (thrown) {
    return settledWith({ ok: false, error: thrown instanceof Error ? thrown : new Error(String(thrown)) });
  }
  const recording = recordOnSettle(replay, key, principal);
  const end = await runToolCall(prepared, args, ctx, {
    started: observer.started,
    settled: (real) => {
      recording.settled(real as ReplayOutcome);
      observer.settled?.(real);
    },
  });
  // The outcome is recorded before the call is answered (see `recordOnSettle`).
  await recording.recorded();
  return end;
}

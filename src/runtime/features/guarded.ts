import type { CallContext, PermissionRequest, Requirement } from '../../contract/index.js';
import { CallTimeLimit } from '../call/time-limit.js';
import { runUnderPolicy } from '../permissions/apply.js';
import type { PermissionPolicy } from '../permissions/policy.js';
import { checkDeclared, requireEveryThrough, type RequireEvery } from '../permissions/requirements.js';

/** What one guarded run of a resource read, prompt rendering or listing needs. */
export interface GuardedRun<T> {
  /**
   * How the policy and the timeout name it: `resource:<name>` or `prompt:<name>` for the policy,
   * the name for a timeout.
   */
  readonly policyName: string;
  /** What a timeout's message calls it (`resource "config://app" timed out after 100 ms`). */
  readonly kind: 'resource' | 'prompt';
  readonly label: string;
  readonly timeoutMs: number | undefined;
  readonly policy: PermissionPolicy | undefined;
  readonly requires: readonly Requirement[];
  /** The plain values the requirements' subjects read. */
  readonly plain: Record<string, unknown>;
  /** A request checked under a policy before the requirements (a read's `read` on its URI); none without a policy. */
  readonly implicit: PermissionRequest | undefined;
  /** The work itself, given the context it must use (its signal carries the time limit). */
  readonly work: (ctx: CallContext) => Promise<T>;
}

/**
 * Runs the permission and time-limit steps of the call core around `run.work`, the way tool
 * calls get them (see `runToolCall`):
 *
 * 1. **Permissions**: with a policy, the run goes through `runUnderPolicy` under
 *    `run.policyName`: first `run.implicit` (a resource read is a `read` request on its URI),
 *    then each requirement on `run.plain`, each asked or decided by the policy (a question waits
 *    in place); `ctx.requirePermission` inside the work answers from the policy too. Without a
 *    policy, only the requirements are checked, through the context's own `requirePermission`
 *    (nothing is granted by default). A denial rejects with `PermissionDeniedError`.
 * 2. **Time limit**: `run.timeoutMs`, when set, around the work: when it passes, the work's
 *    signal aborts and the run rejects at once with `CallTimeoutError`
 *    (`resource "config://app" timed out after 100 ms`), whatever the work does.
 *
 * Whatever the work rejects with passes through unchanged.
 */
export async function runGuarded<T>(run: GuardedRun<T>, ctx: CallContext): Promise<T> {
  // Nothing to check and no limit: the work itself, as most reads and renderings are.
  if (run.policy === undefined && run.timeoutMs === undefined && run.requires.length === 0) return run.work(ctx);
  const limit = run.timeoutMs === undefined ? undefined : new CallTimeLimit(run.label, run.timeoutMs, run.kind);
  const attempt = async (runCtx: CallContext, requireEvery: RequireEvery, implicit: boolean): Promise<T> => {
    if (implicit && run.implicit !== undefined) await requireEvery(run.implicit);
    if (run.requires.length > 0) await checkDeclared(run.requires, run.plain, requireEvery);
    if (limit === undefined) return run.work(runCtx);
    const limited = limit.contextFor(runCtx);
    return raceLimit(
      limit,
      limit.run(() => run.work(limited)),
    );
  };
  if (run.policy === undefined) return attempt(ctx, requireEveryThrough(ctx), false);
  const policyCtx = limit === undefined ? ctx : limit.contextFor(ctx);
  return (
    await runUnderPolicy(run.policy, run.policyName, policyCtx, (runCtx, requireEvery) =>
      attempt(runCtx, requireEvery, true),
    )
  ).value;
}

/**
 * What `working` settles with, unless `limit` expires first: then it rejects with the timeout.
 * The limit resolves `expired` before it aborts the signal, so a run that settles on the abort
 * (say, resolves with what it had) still ends as timed out. What a run the limit ended settles
 * with later is nobody's to read.
 */
export async function raceLimit<T>(limit: CallTimeLimit, working: Promise<T>): Promise<T> {
  const settled = working.then((value) => ({ value }));
  settled.catch(() => undefined);
  const outcome = await Promise.race([settled, limit.expired]);
  if ('error' in outcome) throw outcome.error;
  return outcome.value;
}

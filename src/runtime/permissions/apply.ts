import type { CallContext, ToolRecord } from '../../contract/index.js';
import { contextWith, throwIfAborted } from './context.js';
import { askQuestion } from './decisions.js';
import { PermissionDeniedError, TooManyPermissionQuestionsError } from './errors.js';
import { PermissionInvocation } from './invocation.js';
import type { PermissionPolicy } from './policy.js';
import type { RequireEvery } from './requirements.js';

/** What one run of a call under a policy gets: its context and its declarative check. */
export type PolicyAttempt<T> = (runCtx: CallContext, requireEvery: RequireEvery) => Promise<T>;

/** What a call under a policy ended with: the last run's value and the call's permission record. */
export interface PolicyRun<T> {
  readonly value: T;
  readonly record: ToolRecord | undefined;
}

/**
 * Runs one call under `policy` (the call core's permissions step). Each run calls `attempt` with
 * a context whose `requirePermission` answers from the policy and with the declarative check of
 * the same run; per call:
 * 1. when a check finds nothing decided, the run is discarded (whatever it returned or threw),
 *    the user is asked (the policy's `ask`, else `ctx.elicit` with a confirmation form; no
 *    answer is deny once), the answer applied, and `attempt` runs again from the start. "Once"
 *    answers hold for this call only; rules and remembered decisions are checked afresh on every
 *    run. After `maxQuestions` questions a further one fails with
 *    `TooManyPermissionQuestionsError`;
 * 2. the call's `toolwright:permissions` record `{ decisions, grants }` (the answers of the call
 *    and the checks of its final run, each as made) is resolved with the value when anything was
 *    checked or asked; a `PermissionDeniedError` leaving the call carries it as `error.record`.
 *    Other errors pass through unchanged.
 * Tools must finish their checks before any side effect: a run that needs a question is run
 * again, and a side effect done before its check would be done twice.
 */
export async function runUnderPolicy<T>(policy: PermissionPolicy, toolName: string, ctx: CallContext, attempt: PolicyAttempt<T>): Promise<PolicyRun<T>> {
  const invocation = new PermissionInvocation(policy, toolName, ctx);
  // One run per question answered, plus the last: at most maxQuestions + 1 runs.
  for (let runs = 0; runs <= policy.maxQuestions; runs += 1) {
    const run = invocation.newRun();
    const runCtx = contextWith(ctx, { requirePermission: run.require });
    let value: T | undefined;
    let failure: unknown;
    let failed = false;
    try {
      value = await attempt(runCtx, (request) => run.requireEvery(request));
    } catch (err) {
      failed = true;
      failure = err;
    }
    const needed = run.pending;
    if (needed !== undefined) {
      if (invocation.decisions.length >= policy.maxQuestions) throw new TooManyPermissionQuestionsError(toolName, policy.maxQuestions);
      throwIfAborted(ctx.signal);
      invocation.apply(needed.question, await askQuestion(needed.question, ctx, policy.ask, policy.askTimeoutMs));
      throwIfAborted(ctx.signal);
      continue;
    }
    const record = invocation.recordOf(run);
    if (failed) {
      if (failure instanceof PermissionDeniedError && record !== undefined) failure.record = record;
      throw failure;
    }
    return { value: value as T, record };
  }
  throw new TooManyPermissionQuestionsError(toolName, policy.maxQuestions);
}

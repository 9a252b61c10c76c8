import type { CallContext, ToolRecord } from '../../contract/index.js';
import { contextWith } from './context.js';
import { PermissionDeniedError } from './errors.js';
import { PermissionInvocation, type QuestionAnswered } from './invocation.js';
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
 * Runs one call under `policy` (the call core's permissions step). `attempt` runs once, with a
 * context whose `requirePermission` answers from the policy and with the declarative check of
 * the same run; per call:
 * 1. when a check finds something undecided, it asks the user right there (the policy's `ask`,
 *    else `ctx.elicit` with a confirmation form; no answer is deny once) and the check waits in
 *    place for the answer, then decides: the tool is never run again, so a side effect done
 *    before a check is done once. "Once" answers hold for this call only; rules and remembered
 *    decisions are checked afresh on every check. After `maxQuestions` questions a further one
 *    fails with `TooManyPermissionQuestionsError`;
 * 2. the call's `toolwright:permissions` record `{ decisions, grants }` (the answers of the call
 *    and its checks, each as made) is resolved with the value when anything was checked or
 *    asked; a `PermissionDeniedError` leaving the call carries it as `error.record`. Other
 *    errors pass through unchanged. Either way `recorded`, when given, is told the record (once,
 *    when there is one) before the call's value or error leaves; `asked`, when given, is told
 *    each question once its answer came (for the call's observers: tracing).
 */
export async function runUnderPolicy<T>(
  policy: PermissionPolicy,
  toolName: string,
  ctx: CallContext,
  attempt: PolicyAttempt<T>,
  recorded?: (record: ToolRecord) => void,
  asked?: QuestionAnswered,
): Promise<PolicyRun<T>> {
  const invocation = new PermissionInvocation(policy, toolName, ctx, asked);
  const run = invocation.newRun(ctx);
  const runCtx = contextWith(ctx, { requirePermission: run.require });
  let value: T;
  try {
    value = await attempt(runCtx, (request) => run.requireEvery(request));
  } catch (failure) {
    const record = invocation.recordOf(run);
    if (failure instanceof PermissionDeniedError && record !== undefined) failure.record = record;
    if (record !== undefined) recorded?.(record);
    throw failure;
  }
  const record = invocation.recordOf(run);
  if (record !== undefined) recorded?.(record);
  return { value, record };
}

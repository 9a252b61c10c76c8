import { resultOf, wrap, type CallContext, type ContractTool, type ToolOutput, type ToolRecord } from '../../contract/index.js';
import { isContractTool } from '../../contract/shapes.js';
import { contextWith, throwIfAborted } from './context.js';
import { askQuestion } from './decisions.js';
import { PermissionDeniedError, TooManyPermissionQuestionsError } from './errors.js';
import { PermissionInvocation, type PermissionRun } from './invocation.js';
import type { PermissionPolicy } from './policy.js';
import { argumentsForRequirements, requestOf, subjectsOf } from './requirements.js';

async function checkDeclared(tool: ContractTool, raw: unknown, run: PermissionRun): Promise<void> {
  const requirements = tool.requires ?? [];
  if (requirements.length === 0) return;
  const args = argumentsForRequirements(tool, raw);
  for (const requirement of requirements) await run.requireEvery(requestOf(requirement, subjectsOf(requirement, args)));
}

/** Adds the permission record to a result, unless the tool left a record of its own (which always wins). */
function withRecord(output: ToolOutput, record: ToolRecord | undefined): ToolOutput {
  if (record === undefined) return output;
  const result = resultOf(output);
  return result.record === undefined ? { ...result, record } : result;
}

async function runUnderPolicy(policy: PermissionPolicy, args: unknown, ctx: CallContext, inner: ContractTool): Promise<ToolOutput> {
  const invocation = new PermissionInvocation(policy, inner.name, ctx);
  // One run per question answered, plus the last: at most maxQuestions + 1 runs.
  for (let runs = 0; runs <= policy.maxQuestions; runs += 1) {
    const run = invocation.newRun();
    const runCtx = contextWith(ctx, { requirePermission: run.require });
    let output: ToolOutput | undefined;
    let failure: unknown;
    let failed = false;
    try {
      await checkDeclared(inner, args, run);
      output = await inner.execute(args, runCtx);
    } catch (err) {
      failed = true;
      failure = err;
    }
    const needed = run.pending;
    if (needed !== undefined) {
      // The run stopped at a check nothing has decided (or swallowed the signal): ask, then
      // run again from the start. Whatever the run returned or threw is discarded.
      if (invocation.decisions.length >= policy.maxQuestions) throw new TooManyPermissionQuestionsError(inner.name, policy.maxQuestions);
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
    return withRecord(output!, record);
  }
  throw new TooManyPermissionQuestionsError(inner.name, policy.maxQuestions);
}

/**
 * Puts `policy` in front of one tool. The wrapper forwards every property of the tool (see
 * `wrap`) and, per call:
 * 1. checks the tool's declarative `requires` (subjects from the schema-checked raw arguments),
 *    then runs the tool with a context whose `requirePermission` answers from the policy;
 * 2. when a check finds nothing decided, it discards the run, asks the user (the policy's `ask`,
 *    else `ctx.elicit` with a confirmation form; no answer is deny once), applies the answer and
 *    runs the tool again from the start. "Once" answers hold for this call only; rules and
 *    remembered decisions are checked afresh on every run. After `maxQuestions` questions a
 *    further one fails with `TooManyPermissionQuestionsError`;
 * 3. leaves a `toolwright:permissions` record `{ decisions, grants }` on the result (the answers
 *    of the call and the checks of its final run) when anything was checked or asked, unless
 *    the tool returned a record of its own, which is kept unchanged. A `PermissionDeniedError`
 *    leaving the call carries the record as `error.record`. Other errors pass through unchanged.
 * Tools must finish their checks before any side effect: a run that needs a question is run
 * again, and a side effect done before its check would be done twice.
 */
export function withPolicy(tool: ContractTool, policy: PermissionPolicy): ContractTool {
  if (!isContractTool(tool)) throw new TypeError('applyPolicy: expected contract tools (objects with a name and execute)');
  return wrap(tool, (args, ctx, inner) => runUnderPolicy(policy, args, ctx, inner));
}

/**
 * Puts `policy` in front of every tool (see `withPolicy`), in the same order, for a host to serve
 * or run. Apply interceptors first (`applyPolicy(applyInterceptors(tools, hooks), policy)`) so
 * they run again with each re-run, as the tool does.
 */
export function applyPolicy(tools: Iterable<ContractTool>, policy: PermissionPolicy): ContractTool[] {
  return [...tools].map((tool) => withPolicy(tool, policy));
}

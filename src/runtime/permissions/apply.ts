import { resultOf, wrap, type CallContext, type ContractTool, type ToolOutput, type ToolRecord } from '../../contract/index.js';
import { isContractTool } from '../../contract/shapes.js';
import { contextWith } from './context.js';
import { PermissionDeniedError } from './errors.js';
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
  const invocation = new PermissionInvocation(policy, inner.name);
  const run = invocation.newRun(ctx);
  const runCtx = contextWith(ctx, { requirePermission: run.require });
  let output: ToolOutput;
  try {
    await checkDeclared(inner, args, run);
    output = await inner.execute(args, runCtx);
  } catch (failure) {
    const record = invocation.recordOf(run);
    if (failure instanceof PermissionDeniedError && record !== undefined) failure.record = record;
    throw failure;
  }
  return withRecord(output, invocation.recordOf(run));
}

/**
 * Puts `policy` in front of one tool. The wrapper forwards every property of the tool (see
 * `wrap`) and, per call:
 * 1. checks the tool's declarative `requires` (subjects from the schema-checked raw arguments),
 *    then runs the tool with a context whose `requirePermission` answers from the policy;
 * 2. when a check finds something undecided, it asks the user right there (the policy's `ask`,
 *    else `ctx.elicit` with a confirmation form; no answer is deny once) and the check waits in
 *    place for the answer, then decides: the tool is never run again, so a side effect done
 *    before a check is done once. "Once" answers hold for this call only; rules and remembered
 *    decisions are checked afresh on every check. After `maxQuestions` questions a further one
 *    fails with `TooManyPermissionQuestionsError`;
 * 3. leaves a `toolwright:permissions` record `{ decisions, grants }` on the result (the answers
 *    of the call and the checks of its final run) when anything was checked or asked, unless
 *    the tool returned a record of its own, which is kept unchanged. A `PermissionDeniedError`
 *    leaving the call carries the record as `error.record`. Other errors pass through unchanged.
 */
export function withPolicy(tool: ContractTool, policy: PermissionPolicy): ContractTool {
  if (!isContractTool(tool)) throw new TypeError('applyPolicy: expected contract tools (objects with a name and execute)');
  return wrap(tool, (args, ctx, inner) => runUnderPolicy(policy, args, ctx, inner));
}

/**
 * Puts `policy` in front of every tool (see `withPolicy`), in the same order, for a host to serve
 * or run. Apply interceptors first (`applyPolicy(applyInterceptors(tools, hooks), policy)`) so
 * they see the tool's own context (with `requirePermission` answered by the policy).
 */
export function applyPolicy(tools: Iterable<ContractTool>, policy: PermissionPolicy): ContractTool[] {
  return [...tools].map((tool) => withPolicy(tool, policy));
}

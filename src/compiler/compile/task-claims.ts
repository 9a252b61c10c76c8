import { DEFAULT_TASK_TTL_MS, taskClaimProblem, type ContractIssue } from '../../contract/index.js';

/** The claims the task checks read: the task claim and the time limit. */
interface TaskAndTimeout {
  readonly task?: unknown;
  readonly timeoutMs?: unknown;
}

/**
 * The `conflicting-claims` issue of a tool whose `@Timeout` is longer than its tasks' TTL (a task
 * would be discarded while its call may still run), or `undefined`. `label` names the tool
 * (`class Deploy`, `hand-built tool "deploy"`); the caller adds the class name.
 */
export function taskTimeoutConflict(
  claims: TaskAndTimeout,
  label: string,
): Omit<ContractIssue, 'className'> | undefined {
  const task = claims.task as { ttlMs?: unknown } | undefined;
  if (task === undefined || typeof claims.timeoutMs !== 'number') return undefined;
  const ttl = typeof task.ttlMs === 'number' ? task.ttlMs : DEFAULT_TASK_TTL_MS;
  if (claims.timeoutMs <= ttl) return undefined;
  return {
    code: 'conflicting-claims',
    member: 'task',
    message: `${label}: its time limit (@Timeout, ${claims.timeoutMs} ms) is longer than the TTL of its tasks (@TaskSupport, ${ttl} ms), so a task could be discarded while its call still runs: raise "ttlMs" to at least ${claims.timeoutMs}, or shorten the time limit`,
  };
}

/**
 * The issues of a hand-built tool's `task` claim: `invalid-claim` for a claim that is not a valid
 * `ToolTaskClaim` (see `taskClaimProblem`), `conflicting-claims` for a `timeoutMs` longer than its
 * TTL. None for a tool without one.
 */
export function handBuiltTaskIssues(tool: TaskAndTimeout, label: string): ContractIssue[] {
  if (tool.task === undefined) return [];
  const problem = taskClaimProblem(tool.task);
  if (problem !== undefined)
    return [{ code: 'invalid-claim', className: '', member: 'task', message: `${label}: "task" ${problem}` }];
  const conflict = taskTimeoutConflict(tool, label);
  return conflict === undefined ? [] : [{ ...conflict, className: '' }];
}

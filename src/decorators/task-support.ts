import {
  DecoratorError,
  taskClaimProblem,
  type TaskSupportMode as Support,
  type ToolTaskClaim,
} from '../contract/index.js';
import { checkOnApply, classTarget } from './guards.js';
import { addClaims } from './metadata.js';

/** The options of `@TaskSupport` besides the support itself. */
export interface TaskSupportOptions {
  /**
   * How long each task is kept, from its creation, in milliseconds (its result is readable until
   * then; a task still running then ends `failed`). Default 3,600,000 (one hour); 1 to 86,400,000.
   */
  readonly ttlMs?: number;
  /** The poll interval each task suggests to clients, in milliseconds. Default 1,000; 1 to the TTL. */
  readonly pollIntervalMs?: number;
  /**
   * `true`: in the 2026-07-28 era, a call whose request declares the tasks extension starts as a
   * plain call (its questions are `input_required` rounds) and becomes a task at
   * `ctx.continueAsTask()`; see `CallContext.continueAsTask`. Default `false`.
   */
  readonly startsAsCall?: boolean;
}

/**
 * Lets (`'optional'`) or makes (`'required'`) the tool's calls run as MCP tasks: a task-augmented
 * call answers at once with a task, runs detached from its request through the same call core,
 * and the client polls its status and reads its result later (the 2025-11-25 tasks utility, the
 * 2026-07-28 `io.modelcontextprotocol/tasks` extension). `@Timeout` and a held `@Resource` cover
 * the whole task. With `startsAsCall`, a 2026-07-28 call gathers its input first and turns into a
 * task where the tool calls `ctx.continueAsTask()`. A tool without it never runs as a task
 * (MCP's `forbidden`). Throws a
 * `DecoratorError` naming the class, as the class is defined, for a support other than
 * `required` or `optional` (`forbidden` is said by leaving it off), a TTL that is not a whole
 * number from 1 to 86,400,000, a poll interval that is not a whole number from 1 to the TTL, a
 * `startsAsCall` that is not a boolean, an unknown option, or a target that is not a class.
 * `compile` adds one check across claims: a `@Timeout` longer than the TTL (`conflicting-claims`).
 */
export function TaskSupport(support: Support, options: TaskSupportOptions = {}): ClassDecorator {
  const checked = checkOnApply('@TaskSupport()', () => checkedClaim(support, options));
  return (...args: unknown[]) => {
    const cls = classTarget('@TaskSupport()', args);
    addClaims(cls, { task: checked(args) });
  };
}

/** The plain-function twin of `@TaskSupport(support, options)` on the tool class `cls`. */
export function defineTaskSupport(cls: Function, support: Support, options: TaskSupportOptions = {}): void {
  TaskSupport(support, options)(cls);
}

function checkedClaim(support: unknown, options: unknown): ToolTaskClaim {
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new DecoratorError(
      `@TaskSupport(): the options must be an object { ttlMs?, pollIntervalMs?, startsAsCall? }, got ${options === null ? 'null' : Array.isArray(options) ? 'an array' : typeof options}`,
    );
  if ('support' in options)
    throw new DecoratorError(
      '@TaskSupport(): has no option "support" (known options: ttlMs, pollIntervalMs, startsAsCall); the support is the first argument',
    );
  const claim = { support, ...(options as TaskSupportOptions) };
  const problem = taskClaimProblem(claim);
  if (problem !== undefined) throw new DecoratorError(`@TaskSupport(): ${problem}`);
  return Object.freeze(claim as ToolTaskClaim);
}

/**
 * Whether a tool's calls may or must run as MCP tasks: `optional` runs either way (as a task when
 * the client asks for one), `required` runs only as a task (a call without one is refused as the
 * client's era says). A tool without the claim is `forbidden`: it never runs as a task.
 */
export type TaskSupportMode = 'required' | 'optional';

/** The task claim of a tool (`@TaskSupport`): how its calls run as tasks, and for how long they are kept. */
export interface ToolTaskClaim {
  readonly support: TaskSupportMode;
  /**
   * How long a task of this tool is kept, counted from its creation, in milliseconds: its result
   * can be read until then, and a task still running at that time ends `failed`. A client may
   * ask for less, never for more. Default `DEFAULT_TASK_TTL_MS` (one hour); at most
   * `MAX_TASK_TTL_MS` (24 hours).
   */
  readonly ttlMs?: number;
  /**
   * How often a client should poll the task's status, in milliseconds. Default
   * `DEFAULT_TASK_POLL_INTERVAL_MS` (1 second).
   */
  readonly pollIntervalMs?: number;
  /**
   * `true`: in the 2026-07-28 era a call by a request that declares the tasks extension starts as
   * a plain call (its questions are MRTR `input_required` rounds) and becomes a task where the
   * tool calls `ctx.continueAsTask()`; the request being answered then gets the task. Default
   * `false`: such a call is a task from its first answer. Nothing changes in the 2025-11-25 era,
   * whose client decides up front (`params.task`).
   */
  readonly startsAsCall?: boolean;
}

/** The TTL of a task whose tool states none: 3,600,000 ms (one hour). */
export const DEFAULT_TASK_TTL_MS = 3_600_000;

/** The longest TTL a task may have, whatever its tool or client asks: 86,400,000 ms (24 hours). */
export const MAX_TASK_TTL_MS = 86_400_000;

/** The poll interval a task suggests when its tool states none: 1,000 ms. */
export const DEFAULT_TASK_POLL_INTERVAL_MS = 1_000;

/** How a tool's calls run as tasks, read with the contract's defaults (see `taskClaimOf`). */
export interface TaskTerms {
  /** `forbidden` for a tool without a task claim. */
  readonly support: TaskSupportMode | 'forbidden';
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  /** The claim's `startsAsCall`: `false` unless it is `true`. */
  readonly startsAsCall: boolean;
}

/**
 * The task terms of `tool`: its `task` claim with the defaults applied, or `forbidden` (with the
 * default TTL and interval) when it has none or a claim whose `support` is neither `required`
 * nor `optional`. A TTL above `MAX_TASK_TTL_MS` reads as the ceiling.
 */
export function taskTermsOf(tool: { readonly task?: ToolTaskClaim }): TaskTerms {
  const claim = tool.task;
  const support = claim?.support === 'required' || claim?.support === 'optional' ? claim.support : 'forbidden';
  const ttlMs = Math.min(
    typeof claim?.ttlMs === 'number' && claim.ttlMs >= 1 ? claim.ttlMs : DEFAULT_TASK_TTL_MS,
    MAX_TASK_TTL_MS,
  );
  const pollIntervalMs =
    typeof claim?.pollIntervalMs === 'number' && claim.pollIntervalMs >= 1
      ? claim.pollIntervalMs
      : DEFAULT_TASK_POLL_INTERVAL_MS;
  return { support, ttlMs, pollIntervalMs, startsAsCall: claim?.startsAsCall === true };
}

/**
 * The problem with a task claim given as `claim`, as a sentence naming the field, or `undefined`
 * when it is a valid claim: `support` must be `"required"` or `"optional"` (`"forbidden"` is
 * said by leaving the claim off), `ttlMs` a whole number of milliseconds from 1 to
 * `MAX_TASK_TTL_MS`, `pollIntervalMs` a whole number from 1 to the TTL, `startsAsCall` a
 * boolean. Shared by the decorator
 * and `compile`'s check of hand-built tools.
 */
export function taskClaimProblem(claim: unknown): string | undefined {
  if (typeof claim !== 'object' || claim === null || Array.isArray(claim))
    return `expected { support: "required" | "optional", ttlMs?, pollIntervalMs?, startsAsCall? }, got ${claim === null ? 'null' : Array.isArray(claim) ? 'an array' : typeof claim}`;
  const { support, ttlMs, pollIntervalMs, startsAsCall, ...rest } = claim as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length > 0)
    return `has no option "${unknown[0]}" (known options: support, ttlMs, pollIntervalMs, startsAsCall)`;
  if (support === 'forbidden')
    return 'support "forbidden" is what a tool without the claim has: leave the claim off instead';
  if (support !== 'required' && support !== 'optional')
    return `support must be "required" or "optional", got ${JSON.stringify(support) ?? typeof support}`;
  if (ttlMs !== undefined && !wholeIn(ttlMs, 1, MAX_TASK_TTL_MS))
    return `"ttlMs" must be a whole number of milliseconds from 1 to ${MAX_TASK_TTL_MS} (24 hours), got ${shown(ttlMs)}`;
  const ttl = (ttlMs as number | undefined) ?? DEFAULT_TASK_TTL_MS;
  if (pollIntervalMs !== undefined && !wholeIn(pollIntervalMs, 1, ttl))
    return `"pollIntervalMs" must be a whole number of milliseconds from 1 to the TTL (${ttl}), got ${shown(pollIntervalMs)}`;
  if (startsAsCall !== undefined && typeof startsAsCall !== 'boolean')
    return `"startsAsCall" must be true or false, got ${shown(startsAsCall)}`;
  return undefined;
}

function wholeIn(value: unknown, min: number, max: number): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

function shown(value: unknown): string {
  return typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? typeof value);
}

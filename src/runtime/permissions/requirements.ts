import {
  InvalidArgumentsError,
  type CallContext,
  type PermissionRequest,
  type Requirement,
} from '../../contract/index.js';
import { errorText } from '../../util/describe.js';
import { PermissionDeniedError } from './errors.js';
import { markingProblemOf, resolveSubjects, subjectProblemOf, unresolvedReason } from './paths.js';

/**
 * The subjects of one requirement for `args`: `subject(args)` as a non-empty list of non-empty
 * strings. A throw or any other answer fails the call with
 * `invalid arguments: cannot tell the permission subject: <why>`, and the tool never runs; so
 * does a path subject that cannot be resolved (see `checkPathSubjects`).
 */
export function subjectsOf(requirement: Requirement, args: Record<string, unknown>): string[] {
  let given: unknown;
  try {
    given = requirement.subject(args);
  } catch (err) {
    throw new InvalidArgumentsError([
      { pointer: '', message: `cannot tell the permission subject: ${errorText(err)}` },
    ]);
  }
  const list = typeof given === 'string' ? [given] : Array.isArray(given) ? given : undefined;
  if (list === undefined || list.length === 0 || !list.every((s) => typeof s === 'string' && s !== '')) {
    throw new InvalidArgumentsError([
      {
        pointer: '',
        message: `cannot tell the permission subject: subject() must return a non-empty string or a non-empty array of them, got ${describe(given)}`,
      },
    ]);
  }
  if (requirement.path !== undefined && requirement.path !== false) checkPathSubjects(requirement, list as string[]);
  return list as string[];
}

/**
 * Checks the subjects of a requirement marked `path` (see `PathSubjects`): its marking must be
 * `true` or `{ base }` with an absolute base, and no subject may hold what no path can (a NUL
 * byte, a lone surrogate). Throws `InvalidArgumentsError`
 * (`cannot tell the permission subject: the path "/etc/passwd\u0000" cannot be resolved: it holds a NUL byte`).
 */
function checkPathSubjects(requirement: Requirement, subjects: readonly string[]): void {
  const fail = (message: string): never => {
    throw new InvalidArgumentsError([{ pointer: '', message: `cannot tell the permission subject: ${message}` }]);
  };
  const marking = markingProblemOf(requirement.path);
  if (marking !== undefined) fail(`the requirement's "path" cannot be used: ${marking}`);
  for (const subject of subjects) {
    const problem = subjectProblemOf(subject);
    if (problem !== undefined) fail(`the path ${JSON.stringify(subject)} cannot be resolved: ${problem}`);
  }
}

/**
 * `request` with its path subjects resolved against its base or `process.cwd()`; throws
 * `PermissionDeniedError` for one that cannot be.
 */
function resolvedRequest(request: PermissionRequest): PermissionRequest {
  const extra = request.subjects ?? [];
  const { resolved, subject, problem } = resolveSubjects(
    [request.subject, ...extra.map((s) => s.subject)],
    request.path!,
    () => process.cwd(),
  );
  if (problem !== undefined)
    throw new PermissionDeniedError([
      { subject, capabilities: request.capabilities, reason: unresolvedReason(problem) },
    ]);
  return {
    ...request,
    subject: resolved[0]!,
    ...(request.subjects === undefined
      ? {}
      : { subjects: extra.map((s, i) => ({ label: s.label, subject: resolved[i + 1]! })) }),
  };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === 'string') return JSON.stringify(value);
  return typeof value;
}

/**
 * The permission request a requirement makes for its subjects (the label applies to each); a
 * requirement marked `path` marks its request the same way, and whoever decides resolves them.
 */
export function requestOf(requirement: Requirement, subjects: readonly string[]): PermissionRequest {
  const label = requirement.label;
  return {
    subject: subjects[0]!,
    ...(subjects.length > 1 || label !== undefined
      ? { subjects: subjects.map((subject) => ({ label: label ?? '', subject })) }
      : {}),
    capabilities: requirement.capabilities,
    ...(requirement.reason === undefined ? {} : { reason: requirement.reason }),
    ...(requirement.path === undefined || requirement.path === false ? {} : { path: requirement.path }),
  };
}

/**
 * Asks for every capability of a request and resolves them all, or rejects (`PermissionDeniedError`
 * on a partial grant).
 */
export type RequireEvery = (request: PermissionRequest) => Promise<readonly string[]>;

/**
 * The declarative check through a host's own `ctx.requirePermission` (no policy in the core):
 * resolves the grant when it holds every capability asked, and rejects with
 * `PermissionDeniedError` naming the capabilities missing on the first subject otherwise.
 * Path subjects (see `PathSubjects`) reach the host resolved, against the requirement's base or
 * `process.cwd()`; one that cannot be resolved is denied without asking the host. Without any
 * permission source, `ctx.requirePermission` rejects (`NoPermissionPolicyError`), so nothing
 * runs unchecked.
 */
export function requireEveryThrough(ctx: CallContext): RequireEvery {
  return async (given) => {
    const request = given.path === undefined || given.path === false ? given : resolvedRequest(given);
    const granted = await ctx.requirePermission(request);
    const missing = request.capabilities.filter((c) => !granted.includes(c));
    if (missing.length > 0) throw new PermissionDeniedError([{ subject: request.subject, capabilities: missing }]);
    return granted;
  };
}

/**
 * Checks a tool's declarative requirements (`@Requires`) on validated arguments, in order, with
 * `requireEvery`: every capability of each requirement on every subject. The call core calls it
 * once per run of a call, before interceptors and `execute`; a subject that cannot be told fails
 * with `InvalidArgumentsError` (see `subjectsOf`).
 */
export async function checkDeclared(
  requirements: readonly Requirement[],
  args: Record<string, unknown>,
  requireEvery: RequireEvery,
): Promise<void> {
  for (const requirement of requirements) await requireEvery(requestOf(requirement, subjectsOf(requirement, args)));
}

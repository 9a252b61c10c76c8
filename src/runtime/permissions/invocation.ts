import type { CallContext, PermissionRequest, PermissionSubject, ToolRecord } from '../../contract/index.js';
import type { DecisionOwner } from './owner.js';
import { throwIfAborted } from './context.js';
import { isCapabilityName } from './capabilities.js';
import { askQuestion } from './ask.js';
import type { PermissionAnswer, PermissionDecision, PermissionVerdict } from './decision.js';
import { DecisionMap } from './decision-map.js';
import {
  PermissionDeniedError,
  TooManyPermissionQuestionsError,
  type PermissionDenial,
  type PermissionQuestion,
} from './errors.js';
import type { PermissionPolicy } from './policy.js';
import { markingProblemOf, resolveSubjects, unresolvedReason } from './paths.js';

/** The namespace of the record the call core leaves on a call's result under a policy. */
export const PERMISSIONS_RECORD_NS = 'toolwright:permissions';

/** One answered question of a call, in the call's record. */
export interface PermissionDecisionEntry {
  readonly subject: string;
  readonly label?: string;
  readonly capabilities: readonly string[];
  readonly decision: PermissionDecision;
  readonly reason?: string;
}

/**
 * One completed permission check of the call's final run, in the call's record (`granted` is `[]`
 * when it was denied).
 */
export interface PermissionGrantEntry {
  readonly subjects: readonly string[];
  readonly capabilities: readonly string[];
  readonly granted: readonly string[];
}

/** The data of a `toolwright:permissions` record. */
export interface PermissionRecordData {
  readonly decisions: readonly PermissionDecisionEntry[];
  readonly grants: readonly PermissionGrantEntry[];
}

interface Target {
  readonly subject: string;
  readonly label?: string;
}

/** Whether a check needs every capability asked (declarative) or accepts fewer (imperative). */
type Need = 'some' | 'every';

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}

/**
 * Checks a `PermissionRequest` a tool made and returns its subjects, main subject first, each
 * once (a label given in `subjects` for the main subject is kept). Throws a `TypeError` beginning
 * `requirePermission:` naming the malformed member.
 */
export function targetsOf(request: PermissionRequest): Target[] {
  if (typeof request !== 'object' || request === null)
    throw new TypeError('requirePermission: expected a request object { subject, capabilities, reason? }');
  if (typeof request.subject !== 'string' || request.subject === '')
    throw new TypeError('requirePermission: "subject" must be a non-empty string');
  if (
    !Array.isArray(request.capabilities) ||
    request.capabilities.length === 0 ||
    !request.capabilities.every(isCapabilityName)
  ) {
    throw new TypeError('requirePermission: "capabilities" must be a non-empty array of capability names');
  }
  if (request.reason !== undefined && typeof request.reason !== 'string')
    throw new TypeError('requirePermission: "reason" must be a string');
  const marking = markingProblemOf(request.path);
  if (marking !== undefined) throw new TypeError(`requirePermission: "path" ${marking}`);
  const extra: readonly PermissionSubject[] = request.subjects ?? [];
  if (
    !Array.isArray(extra) ||
    !extra.every(
      (s) =>
        typeof s === 'object' &&
        s !== null &&
        typeof s.subject === 'string' &&
        s.subject !== '' &&
        (s.label === undefined || typeof s.label === 'string'),
    )
  ) {
    throw new TypeError('requirePermission: "subjects" must be an array of { label, subject } with non-empty subjects');
  }
  const targets = new Map<string, Target>();
  const labelOf = (subject: string): string | undefined =>
    extra.find((s) => s.subject === subject && s.label !== undefined && s.label !== '')?.label;
  for (const subject of [request.subject, ...extra.map((s) => s.subject)]) {
    if (targets.has(subject)) continue;
    const label = labelOf(subject);
    targets.set(subject, label === undefined ? { subject } : { subject, label });
  }
  return [...targets.values()];
}

/**
 * The one run of a tool under a policy: the checks it made. `require` is what the run's
 * `ctx.requirePermission` is. A check that finds something undecided asks the user right there
 * and waits in place for the answer (pushed as an elicitation in the 2025 era, a parked call
 * answered through `input_required` in the 2026-07-28 era), then checks again: the tool is never
 * re-run, so nothing it did before the check is repeated.
 */
export class PermissionRun {
  readonly grants: PermissionGrantEntry[] = [];

  constructor(
    private readonly invocation: PermissionInvocation,
    private readonly ctx: CallContext,
  ) {}

  /**
   * The imperative check: resolves the capabilities granted on every subject (the
   * intersection), in the order asked, possibly fewer than asked. Rejects with
   * `PermissionDeniedError` when none is granted, with `TooManyPermissionQuestionsError` when the
   * call already asked `maxQuestions` questions, and with the call's abort reason when it is
   * cancelled while a question waits.
   */
  readonly require = async (request: PermissionRequest): Promise<readonly string[]> => this.check(request, 'some');

  /** The declarative check: like `require`, but every capability asked must be granted. */
  async requireEvery(request: PermissionRequest): Promise<readonly string[]> {
    return this.check(request, 'every');
  }

  /** Records a completed check, as made (the call core checks `@Requires` once, so nothing is listed twice for it). */
  private noteGrant(entry: PermissionGrantEntry): void {
    this.grants.push(
      Object.freeze({
        subjects: Object.freeze([...entry.subjects]),
        capabilities: Object.freeze([...entry.capabilities]),
        granted: Object.freeze([...entry.granted]),
      }),
    );
  }

  /**
   * The first undecided question of a check, or the verdicts of every subject when all is
   * decided. The policy's decision store is asked once per subject (not at all when the rules
   * decide); a store that cannot answer (Redis down) rejects, and the check with it.
   */
  private async decide(
    targets: readonly Target[],
    capabilities: readonly string[],
    reason: string | undefined,
  ): Promise<PermissionQuestion | Map<string, Map<string, PermissionVerdict>>> {
    const { policy, tool, once } = this.invocation;
    const verdicts = new Map<string, Map<string, PermissionVerdict>>();
    for (const target of targets) {
      const byCapability = new Map<string, PermissionVerdict>();
      const undecided: string[] = [];
      const given = policy.verdictsOn(tool, target.subject, capabilities, once, this.invocation.owner);
      const decided = given instanceof Map ? given : await given;
      for (const capability of capabilities) {
        const verdict = decided.get(capability);
        if (verdict === undefined) undecided.push(capability);
        else byCapability.set(capability, verdict);
      }
      if (undecided.length > 0) {
        return {
          tool,
          subject: target.subject,
          ...(target.label === undefined ? {} : { label: target.label }),
          capabilities: undecided,
          ...(reason === undefined ? {} : { reason }),
        };
      }
      verdicts.set(target.subject, byCapability);
    }
    return verdicts;
  }

  /**
   * The subjects of a request (see `targetsOf`); path subjects (see `PathSubjects`) resolved
   * against the request's base or the policy's `pathBase`, each once. A path subject that cannot
   * be resolved ends the check, noted and denied (`the path cannot be resolved: ...`), before
   * any rule or question.
   */
  private resolvedTargets(request: PermissionRequest): Target[] {
    const targets = targetsOf(request);
    const capabilities = unique(request.capabilities);
    if (request.path === undefined || request.path === false) return targets;
    const { policy } = this.invocation;
    const { resolved, subject, problem } = resolveSubjects(
      targets.map((t) => t.subject),
      request.path,
      () => policy.basePath(),
    );
    if (problem !== undefined) {
      this.noteGrant({ subjects: targets.map((t) => t.subject), capabilities, granted: [] });
      throw new PermissionDeniedError([{ subject, capabilities, reason: unresolvedReason(problem) }]);
    }
    const byPath = new Map<string, Target>();
    targets.forEach((target, i) => {
      const path = resolved[i]!;
      const known = byPath.get(path);
      if (known === undefined) byPath.set(path, { ...target, subject: path });
      else if (known.label === undefined && target.label !== undefined)
        byPath.set(path, { ...known, label: target.label });
    });
    return [...byPath.values()];
  }

  private async check(request: PermissionRequest, need: Need): Promise<readonly string[]> {
    const targets = this.resolvedTargets(request);
    const capabilities = unique(request.capabilities);
    const { policy, tool } = this.invocation;
    // Each pass either decides everything or asks one question; maxQuestions bounds the passes.
    for (;;) {
      const decided = await this.decide(targets, capabilities, request.reason);
      if (!(decided instanceof Map)) {
        if (this.invocation.decisions.length >= policy.maxQuestions)
          throw new TooManyPermissionQuestionsError(tool, policy.maxQuestions);
        throwIfAborted(this.ctx.signal);
        const askedAt = Date.now();
        const answer = await askQuestion(decided, this.ctx, policy.ask, policy.askTimeoutMs);
        try {
          this.invocation.asked?.(decided, answer.decision, askedAt);
        } catch {
          // Watching never changes a call.
        }
        throwIfAborted(this.ctx.signal);
        await this.invocation.apply(decided, answer);
        continue;
      }
      // Every capability is decided on every subject. The grant is the intersection: a capability
      // allowed on one subject never authorises another.
      const granted = capabilities.filter((capability) =>
        targets.every((t) => decided.get(t.subject)!.get(capability)!.effect === 'allow'),
      );
      this.noteGrant({ subjects: targets.map((t) => t.subject), capabilities, granted });
      if (granted.length === 0 || (need === 'every' && granted.length < capabilities.length)) {
        throw new PermissionDeniedError(denialsOf(targets, capabilities, decided));
      }
      return Object.freeze(granted);
    }
  }
}

/** The denied capabilities of each subject, grouped by reason, in the order asked. */
function denialsOf(
  targets: readonly Target[],
  capabilities: readonly string[],
  verdicts: Map<string, Map<string, PermissionVerdict>>,
): PermissionDenial[] {
  const denials: PermissionDenial[] = [];
  for (const target of targets) {
    const byReason = new Map<string | undefined, string[]>();
    for (const capability of capabilities) {
      const verdict = verdicts.get(target.subject)!.get(capability)!;
      if (verdict.effect !== 'deny') continue;
      const listed = byReason.get(verdict.reason);
      if (listed === undefined) byReason.set(verdict.reason, [capability]);
      else listed.push(capability);
    }
    for (const [reason, denied] of byReason)
      denials.push(
        reason === undefined
          ? { subject: target.subject, capabilities: denied }
          : { subject: target.subject, capabilities: denied, reason },
      );
  }
  return denials;
}

/** Told a permission question once its answer came: the question, the decision, when it was asked (epoch ms). */
export type QuestionAnswered = (question: PermissionQuestion, decision: PermissionDecision, askedAt: number) => void;

/**
 * One call of a tool under a policy: the "once" answers (valid for this call only) and every
 * answered question.
 */
export class PermissionInvocation {
  readonly once = new DecisionMap();
  readonly decisions: PermissionDecisionEntry[] = [];
  /** Whom this call's "always" answers belong to (see `PermissionPolicy.ownerOf`). */
  readonly owner: DecisionOwner;

  constructor(
    readonly policy: PermissionPolicy,
    readonly tool: string,
    ctx?: CallContext,
    /** Told each question once its answer came (for the call's observers); a throw is ignored. */
    readonly asked?: QuestionAnswered,
  ) {
    this.owner = policy.ownerOf(ctx);
  }

  /** Starts the call's run, asking its questions through `ctx` (its `elicit`, or the policy's `ask`). */
  newRun(ctx: CallContext): PermissionRun {
    return new PermissionRun(this, ctx);
  }

  /**
   * Applies an answer: "always" goes to the policy's memory for this call's owner, "once" to
   * this call only; with no owner to remember for (a stateless request), "always" is kept as
   * "once" (the record still shows the answer given). Resolves once an "always" answer is
   * remembered; rejects when the policy's decision store cannot remember it (Redis down), and
   * the check that asked fails with that error.
   */
  async apply(question: PermissionQuestion, answer: PermissionAnswer): Promise<void> {
    this.decisions.push(
      Object.freeze({
        subject: question.subject,
        ...(question.label === undefined ? {} : { label: question.label }),
        capabilities: question.capabilities,
        decision: answer.decision,
        ...(answer.reason === undefined ? {} : { reason: answer.reason }),
      }),
    );
    const effect = answer.decision === 'allow_once' || answer.decision === 'allow_always' ? 'allow' : 'deny';
    if ((answer.decision === 'allow_always' || answer.decision === 'deny_always') && this.owner.kind !== 'none') {
      await this.policy.remember(this.tool, question.subject, question.capabilities, effect, answer.reason, this.owner);
    } else {
      this.once.set(this.tool, question.subject, question.capabilities, effect, answer.reason);
    }
  }

  /** The call's record, or `undefined` when the call checked nothing and asked nothing. */
  recordOf(run: PermissionRun): ToolRecord | undefined {
    if (this.decisions.length === 0 && run.grants.length === 0) return undefined;
    const data: PermissionRecordData = { decisions: [...this.decisions], grants: [...run.grants] };
    return Object.freeze({ ns: PERMISSIONS_RECORD_NS, data });
  }
}

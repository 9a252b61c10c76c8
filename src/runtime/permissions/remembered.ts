import { closureOf, type Implications } from './capabilities.js';
import type { PermissionEffect, StoredDecision } from './decision.js';
import type { DecisionOwner } from './owner.js';

/** Which remembered decisions `revoke` forgets: those matching every member given (all of the owner's without any). */
export interface DecisionSelector {
  readonly tool?: string;
  readonly subject?: string;
  readonly capability?: string;
}

/**
 * Where a `PermissionPolicy` keeps its remembered ("always") decisions, per owner (see
 * `DecisionOwner`: the whole server, one principal, one session; nothing is kept for `none`).
 * Every method may answer synchronously or with a promise. Two implementations ship:
 * `MemoryDecisionStore`, in this process's memory (the default), and `RedisDecisionStore`
 * (`toolwright/redis`), which every process sharing one Redis sees at once. A store that cannot
 * answer (Redis down) rejects, and the call that needed the answer fails with that error.
 */
export interface RememberedDecisionStore {
  /** The decisions remembered for `owner` about `tool` on `subject`, one per capability. */
  decisionsOn(
    owner: DecisionOwner,
    tool: string,
    subject: string,
  ): readonly StoredDecision[] | Promise<readonly StoredDecision[]>;
  /**
   * Remembers `effect` for each capability of `tool` on `subject` for `owner`, replacing what was
   * remembered for it. Keeps nothing for the `none` owner.
   */
  remember(
    owner: DecisionOwner,
    tool: string,
    subject: string,
    capabilities: readonly string[],
    effect: PermissionEffect,
    reason?: string,
  ): void | Promise<void>;
  /** Every decision remembered for `owner`, in the order remembered. */
  list(owner: DecisionOwner): readonly StoredDecision[] | Promise<readonly StoredDecision[]>;
  /**
   * Forgets the decisions of `owner` that match `selector` (all of them without one) and answers
   * how many it forgot.
   */
  revoke(owner: DecisionOwner, selector?: DecisionSelector): number | Promise<number>;
  /** Forgets every owner's decisions. */
  clear(): void | Promise<void>;
}

/** The method names a `RememberedDecisionStore` needs, for option checks. */
export const REMEMBERED_STORE_METHODS: readonly string[] = Object.freeze([
  'decisionsOn',
  'remember',
  'list',
  'revoke',
  'clear',
]);

/**
 * The decision among `byCapability` (one subject's decisions, by capability) that covers
 * `capability`, following the implications: a deny of `capability` or of anything it implies
 * wins (first in implication order); else an allow of a capability that implies it (first in
 * the order given); else `undefined`.
 */
export function decisionCovering(
  byCapability: ReadonlyMap<string, StoredDecision>,
  capability: string,
  implications: Implications,
): StoredDecision | undefined {
  for (const implied of closureOf(implications, [capability])) {
    const stored = byCapability.get(implied);
    if (stored?.effect === 'deny') return stored;
  }
  for (const stored of byCapability.values()) {
    if (stored.effect === 'allow' && closureOf(implications, [stored.capability]).has(capability)) return stored;
  }
  return undefined;
}

/** True when `decision` matches every member `selector` gives. */
export function selects(selector: DecisionSelector | undefined, decision: StoredDecision): boolean {
  return (
    selector === undefined ||
    ((selector.tool === undefined || selector.tool === decision.tool) &&
      (selector.subject === undefined || selector.subject === decision.subject) &&
      (selector.capability === undefined || selector.capability === decision.capability))
  );
}

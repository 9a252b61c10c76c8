import type { CallContext } from '../../contract/index.js';
import type { PermissionQuestion } from './errors.js';

/*
 * What a permission decision is: the user's answers, what decided a capability, and a decision
 * kept for later. Types and constants only; asking is ask.ts's, keeping decisions
 * decision-map.ts's and memory-decision-store.ts's.
 */

/** The user's four answers: allow or deny, for this call only or from now on. */
export type PermissionDecision = 'allow_once' | 'allow_always' | 'deny_once' | 'deny_always';

/** The decisions in the order they are offered. */
export const PERMISSION_DECISIONS: readonly PermissionDecision[] = Object.freeze([
  'allow_once',
  'allow_always',
  'deny_once',
  'deny_always',
]);

/** An answer to a `PermissionQuestion`; `reason` is shown in the denial message. */
export interface PermissionAnswer {
  readonly decision: PermissionDecision;
  readonly reason?: string;
}

/**
 * A host's own way to ask (a terminal prompt, a desktop dialog). It takes precedence over
 * `ctx.elicit`. Resolving `undefined`, throwing or answering anything that is not a
 * `PermissionAnswer` counts as deny once.
 */
export type AskPermission = (
  question: PermissionQuestion,
  ctx: CallContext,
) => PermissionAnswer | undefined | Promise<PermissionAnswer | undefined>;

/** Allow or deny. */
export type PermissionEffect = 'allow' | 'deny';

/** What decided one capability, and how. */
export interface PermissionVerdict {
  readonly effect: PermissionEffect;
  readonly source: 'rule' | 'remembered' | 'once';
  readonly reason?: string;
}

/** A decision kept by a `DecisionMap` (and listed by every `RememberedDecisionStore`). */
export interface StoredDecision {
  readonly tool: string;
  readonly subject: string;
  readonly capability: string;
  readonly effect: PermissionEffect;
  readonly reason?: string;
}

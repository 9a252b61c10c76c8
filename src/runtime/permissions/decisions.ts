import type { CallContext, ElicitAnswer, Elicitation, JsonObject, Session } from '../../contract/index.js';
import { deepFreeze } from '../../util/freeze.js';
import { raceTimeout } from '../../util/timeout.js';
import type { Implications } from './capabilities.js';
import type { PermissionQuestion } from './errors.js';
import type { DecisionOwner } from './owner.js';
import { decisionCovering, selects, type DecisionSelector, type RememberedDecisionStore } from './remembered.js';

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

/** A decision kept by a `DecisionStore`. */
export interface StoredDecision {
  readonly tool: string;
  readonly subject: string;
  readonly capability: string;
  readonly effect: PermissionEffect;
  readonly reason?: string;
}

/**
 * Decisions per tool, subject and capability (the policy's "always" memory, and one call's "once"
 * grants). Looking one up follows the implications: a stored `allow` of `write` answers `read`,
 * a stored `deny` of `read` answers `write`; a deny found this way wins over an allow.
 */
export class DecisionStore {
  private readonly byTool = new Map<string, Map<string, Map<string, StoredDecision>>>();

  /** Stores `effect` for each capability, replacing what was stored for it. */
  set(tool: string, subject: string, capabilities: readonly string[], effect: PermissionEffect, reason?: string): void {
    let bySubject = this.byTool.get(tool);
    if (bySubject === undefined) this.byTool.set(tool, (bySubject = new Map()));
    let byCapability = bySubject.get(subject);
    if (byCapability === undefined) bySubject.set(subject, (byCapability = new Map()));
    for (const capability of capabilities) {
      byCapability.set(
        capability,
        Object.freeze(
          reason === undefined ? { tool, subject, capability, effect } : { tool, subject, capability, effect, reason },
        ),
      );
    }
  }

  /** The stored decision covering `capability`, or `undefined`. */
  lookup(tool: string, subject: string, capability: string, implications: Implications): StoredDecision | undefined {
    const byCapability = this.byTool.get(tool)?.get(subject);
    return byCapability === undefined ? undefined : decisionCovering(byCapability, capability, implications);
  }

  /** The decisions stored for `tool` on `subject`, one per capability, in the order stored. */
  on(tool: string, subject: string): StoredDecision[] {
    return [...(this.byTool.get(tool)?.get(subject)?.values() ?? [])];
  }

  /** Forgets the stored decisions that match `selector` (all without one); answers how many. */
  revoke(selector?: DecisionSelector): number {
    let forgotten = 0;
    for (const [tool, bySubject] of this.byTool) {
      for (const [subject, byCapability] of bySubject) {
        for (const [capability, stored] of byCapability) {
          if (!selects(selector, stored)) continue;
          byCapability.delete(capability);
          forgotten += 1;
        }
        if (byCapability.size === 0) bySubject.delete(subject);
      }
      if (bySubject.size === 0) this.byTool.delete(tool);
    }
    return forgotten;
  }

  /** Every stored decision, in the order stored. */
  list(): StoredDecision[] {
    const all: StoredDecision[] = [];
    for (const bySubject of this.byTool.values())
      for (const byCapability of bySubject.values()) all.push(...byCapability.values());
    return all;
  }

  /** Forgets everything. */
  clear(): void {
    this.byTool.clear();
  }
}

const DECISION_TITLES: ReadonlyMap<PermissionDecision, string> = new Map([
  ['allow_once', 'Allow once'],
  ['allow_always', 'Allow always'],
  ['deny_once', 'Deny once'],
  ['deny_always', 'Deny always'],
]);

/**
 * The confirmation form sent through `ctx.elicit`: a required `decision` (a titled single-select
 * enum of the four decisions) and an optional `reason`.
 */
export const PERMISSION_FORM: JsonObject = deepFreeze({
  type: 'object',
  properties: {
    decision: {
      type: 'string',
      title: 'Decision',
      oneOf: PERMISSION_DECISIONS.map((decision) => ({ const: decision, title: DECISION_TITLES.get(decision)! })),
    },
    reason: { type: 'string', title: 'Reason', description: 'Optional: why, shown to the model when you deny' },
  },
  required: ['decision'],
});

/**
 * The question's text: `Allow the tool "write_file" to use write on "/tmp/a.txt"?`, with the label
 * before the subject when there is one (`on the destination file "/b"`) and `Reason: <reason>` on
 * a second line when the request gave one.
 */
export function questionText(question: PermissionQuestion): string {
  const subject =
    question.label === undefined || question.label === ''
      ? JSON.stringify(question.subject)
      : `the ${question.label} ${JSON.stringify(question.subject)}`;
  const head = `Allow the tool ${JSON.stringify(question.tool)} to use ${question.capabilities.join(', ')} on ${subject}?`;
  return question.reason === undefined || question.reason === '' ? head : `${head}\nReason: ${question.reason}`;
}

/** The elicitation for a question: its text and `PERMISSION_FORM`. */
export function questionElicitation(question: PermissionQuestion): Elicitation {
  return { message: questionText(question), schema: PERMISSION_FORM };
}

/** The reason recorded when nobody answered (cancel, no client that can be asked). */
export const NO_ANSWER_REASON = 'the user did not answer';
/** The reason recorded when asking failed. */
export const ASK_FAILED_REASON = 'the user could not be asked';
/** The reason recorded when no answer came within the policy's `askTimeoutMs`. */
export const ASK_TIMED_OUT_REASON = 'the user did not answer in time';

/**
 * Default time one permission question may wait for its answer (60 s, the MCP SDK's own request
 * timeout, which bounds an elicitation over MCP anyway); then the question counts as deny once.
 */
export const DEFAULT_ASK_TIMEOUT_MS = 60_000;

/** True when `value` is a well-formed `PermissionAnswer`. */
function isAnswer(value: unknown): value is PermissionAnswer {
  if (typeof value !== 'object' || value === null) return false;
  const { decision, reason } = value as { decision?: unknown; reason?: unknown };
  return (
    typeof decision === 'string' &&
    DECISION_TITLES.has(decision as PermissionDecision) &&
    (reason === undefined || typeof reason === 'string')
  );
}

/** Keeps a non-empty reason; drops an empty one. */
function answer(decision: PermissionDecision, reason: unknown): PermissionAnswer {
  return typeof reason === 'string' && reason.trim() !== '' ? { decision, reason: reason.trim() } : { decision };
}

/**
 * Reads an elicitation answer: `accept` with a known `decision` is that decision (with its
 * reason); `decline` is deny once; `cancel`, or an `accept` without a known decision, is deny
 * once because the user did not answer.
 */
export function answerOfElicitation(reply: ElicitAnswer): PermissionAnswer {
  if (reply.action === 'accept' && isAnswer(reply.content)) return answer(reply.content.decision, reply.content.reason);
  if (reply.action === 'decline') return { decision: 'deny_once' };
  return { decision: 'deny_once', reason: NO_ANSWER_REASON };
}

/**
 * Asks one question: through the host's `ask` when given, otherwise through `ctx.elicit`.
 * Never rejects: a failure to ask is deny once (`the user could not be asked`), no answer is
 * deny once (`the user did not answer`), and so is an answer that has not come within
 * `timeoutMs` (default `DEFAULT_ASK_TIMEOUT_MS`; reason `the user did not answer in time`; a
 * late answer is ignored). `Infinity` waits for ever.
 */
export async function askQuestion(
  question: PermissionQuestion,
  ctx: CallContext,
  ask: AskPermission | undefined,
  timeoutMs: number = DEFAULT_ASK_TIMEOUT_MS,
): Promise<PermissionAnswer> {
  const asking = (async (): Promise<PermissionAnswer> => {
    if (ask !== undefined) {
      const given = await ask(question, ctx);
      return isAnswer(given)
        ? answer(given.decision, given.reason)
        : { decision: 'deny_once', reason: NO_ANSWER_REASON };
    }
    return answerOfElicitation(await ctx.elicit(questionElicitation(question)));
  })();
  try {
    return await raceTimeout(asking, Number.isFinite(timeoutMs) ? timeoutMs : Infinity, () => ({
      decision: 'deny_once' as const,
      reason: ASK_TIMED_OUT_REASON,
    }));
  } catch {
    return { decision: 'deny_once', reason: ASK_FAILED_REASON };
  }
}

/**
 * The remembered ("always") decisions of one policy in this process's memory (the default
 * `RememberedDecisionStore`), kept apart per owner (see `DecisionOwner`): one store for the
 * whole server, one per principal id, one per session object (in a `WeakMap`, so a session's
 * decisions go when the session goes). A decision remembered for one owner never answers a
 * check made for another. The `none` owner has no store: nothing is kept for it. Every method
 * answers synchronously.
 */
export class ScopedDecisions implements RememberedDecisionStore {
  private readonly server = new DecisionStore();
  private readonly principals = new Map<string, DecisionStore>();
  private sessions = new WeakMap<Session, DecisionStore>();

  /** The store of `owner`; made on first use when `create` is true, else `undefined` until then. */
  storeOf(owner: DecisionOwner, create: boolean): DecisionStore | undefined {
    switch (owner.kind) {
      case 'server':
        return this.server;
      case 'none':
        return undefined;
      case 'principal': {
        let store = this.principals.get(owner.id);
        if (store === undefined && create) this.principals.set(owner.id, (store = new DecisionStore()));
        return store;
      }
      case 'session': {
        let store = this.sessions.get(owner.session);
        if (store === undefined && create) this.sessions.set(owner.session, (store = new DecisionStore()));
        return store;
      }
    }
  }

  decisionsOn(owner: DecisionOwner, tool: string, subject: string): StoredDecision[] {
    return this.storeOf(owner, false)?.on(tool, subject) ?? [];
  }

  remember(
    owner: DecisionOwner,
    tool: string,
    subject: string,
    capabilities: readonly string[],
    effect: PermissionEffect,
    reason?: string,
  ): void {
    this.storeOf(owner, true)?.set(tool, subject, capabilities, effect, reason);
  }

  list(owner: DecisionOwner): StoredDecision[] {
    return this.storeOf(owner, false)?.list() ?? [];
  }

  revoke(owner: DecisionOwner, selector?: DecisionSelector): number {
    return this.storeOf(owner, false)?.revoke(selector) ?? 0;
  }

  /** Forgets what `owner` remembered, or everything (every owner) when `owner` is not given. */
  clear(owner?: DecisionOwner): void {
    if (owner === undefined) {
      this.server.clear();
      this.principals.clear();
      this.sessions = new WeakMap();
      return;
    }
    if (owner.kind === 'principal') this.principals.delete(owner.id);
    else if (owner.kind === 'session') this.sessions.delete(owner.session);
    else this.storeOf(owner, false)?.clear();
  }
}

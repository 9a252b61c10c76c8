import { kindOf } from '../../util/describe.js';
import { isPositiveInteger } from '../../util/limits.js';
import { closureOf, implicationsOf, type Implications, type ImplicationsInit } from './capabilities.js';
import { DecisionStore, type AskPermission, type PermissionEffect, type PermissionVerdict, type StoredDecision } from './decisions.js';
import { compileRule, type CompiledRule, type PermissionRule } from './rules.js';

/** How a `PermissionPolicy` decides. Every member is optional. */
export interface PermissionPolicyOptions {
  /** What each capability brings with it, e.g. `{ write: ['read'] }`. Default: nothing implies anything. */
  readonly implications?: ImplicationsInit;
  /** Ordered rules, checked first; the first matching rule decides a capability. */
  readonly rules?: readonly PermissionRule[];
  /** The host's own way to ask the user; takes precedence over `ctx.elicit`. */
  readonly ask?: AskPermission;
  /** How many questions one call may need before it fails (a positive integer; default 16). */
  readonly maxQuestions?: number;
}

const OPTION_KEYS: ReadonlySet<string> = new Set(['implications', 'rules', 'ask', 'maxQuestions']);

/** The default bound on permission questions in one call. */
export const DEFAULT_MAX_PERMISSION_QUESTIONS = 16;

/**
 * Decides which capabilities a tool gets on a subject. For each capability, in this order:
 * 1. the ordered rules (first match wins; see `PermissionRule`);
 * 2. the decisions remembered from "allow always" / "deny always" answers, per tool, subject
 *    and capability (in memory, for the life of the policy);
 * 3. the current call's "once" answers (kept by the permission wrapper, never here);
 * 4. otherwise nothing has decided, and the wrapper asks the user.
 * Rules come first on every check, so a rule added later supersedes an earlier approval. The
 * policy never runs a tool; `applyPolicy` puts it in front of tools.
 *
 * Partial grants: every capability of a request is decided on its own, so rules and remembered
 * answers may allow some and deny others (a rule allowing `read` on `/docs/**`, a deny rule for
 * `write` there). One question covers the still undecided capabilities of one subject, and its
 * answer applies to all of them. `ctx.requirePermission` then resolves the capabilities allowed
 * on every subject of the request (the intersection over subjects, never the union), possibly
 * fewer than asked, and rejects with `PermissionDeniedError` only when none is left; a
 * declarative `@Requires` needs every capability it names.
 */
export class PermissionPolicy {
  readonly implications: Implications;
  readonly ask: AskPermission | undefined;
  readonly maxQuestions: number;
  private compiled: CompiledRule[];
  private readonly memory = new DecisionStore();

  /** Throws a `TypeError` naming the bad option, rule or implication. */
  constructor(options: PermissionPolicyOptions = {}) {
    if (typeof options !== 'object' || options === null || Array.isArray(options)) throw new TypeError(`permissions: the policy options must be an object, got ${kindOf(options)}`);
    for (const key of Object.keys(options)) {
      if (!OPTION_KEYS.has(key)) throw new TypeError(`permissions: unknown policy option ${JSON.stringify(key)} (known options: implications, rules, ask, maxQuestions)`);
    }
    if (options.ask !== undefined && typeof options.ask !== 'function') throw new TypeError('permissions: "ask" must be a function (question, ctx) => answer');
    const max = options.maxQuestions ?? DEFAULT_MAX_PERMISSION_QUESTIONS;
    if (!isPositiveInteger(max)) throw new TypeError(`permissions: "maxQuestions" must be a positive integer, got ${String(max)}`);
    if (options.rules !== undefined && !Array.isArray(options.rules)) throw new TypeError('permissions: "rules" must be an array of rules');
    this.implications = implicationsOf(options.implications);
    this.ask = options.ask;
    this.maxQuestions = max;
    this.compiled = (options.rules ?? []).map((rule, index) => compileRule(rule, index, this.implications));
  }

  /** The rules, in the order they are checked. */
  get rules(): readonly PermissionRule[] {
    return this.compiled.map((c) => c.rule);
  }

  /** Adds a rule, checked after the others, or before them with `{ first: true }`. */
  addRule(rule: PermissionRule, options: { readonly first?: boolean } = {}): void {
    const compiled = compileRule(rule, this.compiled.length, this.implications);
    this.compiled = options.first === true ? [compiled, ...this.compiled] : [...this.compiled, compiled];
  }

  /** The closure of `grants`: the granted capabilities plus everything they imply, transitively. */
  closure(grants: Iterable<string>): Set<string> {
    return closureOf(this.implications, grants);
  }

  /**
   * Decides one capability from the rules, then the remembered decisions, then `once` (one
   * call's answers). `undefined` means nothing has decided: ask.
   */
  check(tool: string, subject: string, capability: string, once?: DecisionStore): PermissionVerdict | undefined {
    for (const compiled of this.compiled) {
      if (compiled.tool(tool) && compiled.subject(subject) && compiled.covers(capability)) {
        const { effect, reason } = compiled.rule;
        return reason === undefined ? { effect, source: 'rule' } : { effect, source: 'rule', reason };
      }
    }
    const remembered = this.memory.lookup(tool, subject, capability, this.implications);
    if (remembered !== undefined) return verdictOf(remembered, 'remembered');
    const given = once?.lookup(tool, subject, capability, this.implications);
    return given === undefined ? undefined : verdictOf(given, 'once');
  }

  /** Remembers an "always" decision for each capability on `subject` for `tool`. */
  remember(tool: string, subject: string, capabilities: readonly string[], effect: PermissionEffect, reason?: string): void {
    this.memory.set(tool, subject, capabilities, effect, reason);
  }

  /** Every remembered decision, in the order remembered. */
  remembered(): StoredDecision[] {
    return this.memory.list();
  }

  /** Forgets every remembered decision (rules stay). */
  forget(): void {
    this.memory.clear();
  }
}

function verdictOf(stored: StoredDecision, source: 'remembered' | 'once'): PermissionVerdict {
  return stored.reason === undefined ? { effect: stored.effect, source } : { effect: stored.effect, source, reason: stored.reason };
}

/** Makes a `PermissionPolicy` (the same as `new PermissionPolicy(options)`). */
export function createPolicy(options: PermissionPolicyOptions = {}): PermissionPolicy {
  return new PermissionPolicy(options);
}

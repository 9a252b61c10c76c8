import { kindOf } from '../../util/describe.js';
import { isPositiveInteger } from '../../util/limits.js';
import { closureOf, implicationsOf, type Implications, type ImplicationsInit } from './capabilities.js';
import { isStateScope, STATE_SCOPES, type CallContext, type StateScope } from '../../contract/index.js';
import { decisionOwnerOf, SERVER_OWNER, type DecisionOwner } from './owner.js';
import { DEFAULT_ASK_TIMEOUT_MS } from './ask.js';
import type { AskPermission, PermissionEffect, PermissionVerdict, StoredDecision } from './decision.js';
import type { DecisionMap } from './decision-map.js';
import { MemoryDecisionStore } from './memory-decision-store.js';
import {
  decisionCovering,
  REMEMBERED_STORE_METHODS,
  type DecisionSelector,
  type RememberedDecisionStore,
} from './remembered.js';
import { isThenable } from '../../contract/internal.js';
import { compileRule, type CompiledRule, type PermissionRule } from './rules.js';
import { checkOptionsObject, optionKeys, invalidOption } from '../../util/options.js';
import { baseProblemOf, resolvePath, unresolvedReason, type PathResolution } from './paths.js';
import { warnOnStderr } from '../../util/warn.js';

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
  /**
   * Whose "always" answers are: `'principal'` (the default: the call's authenticated principal
   * when it has one, else its session), `'session'` (the connection that answered) or
   * `'server'` (everyone served by this policy). A stateless HTTP request without a principal
   * has nobody to remember for: its "always" counts as "once". Calls with no session (in
   * process) use the policy-wide memory. See `decisionOwnerOf`.
   */
  readonly decisionScope?: StateScope;
  /**
   * How long one question may wait for its answer before it counts as deny once (`the user did
   * not answer in time`), in milliseconds: a positive number or `Infinity`. Default
   * `DEFAULT_ASK_TIMEOUT_MS` (60 s, which is also the MCP SDK's own request timeout for an
   * elicitation; a longer wait needs a client that answers sooner or a host `ask`).
   */
  readonly askTimeoutMs?: number;
  /**
   * Where the "always" answers are kept: a fresh `MemoryDecisionStore` in this process's memory by
   * default, or a shared store (`RedisDecisionStore` from `toolwright/redis`) that every process
   * of a deployment sees, so an answer given through one process is honoured by all. With a
   * store that answers asynchronously, use `decide`/`verdictsOn` rather than the synchronous
   * `check`.
   */
  readonly decisionStore?: RememberedDecisionStore;
  /**
   * What relative path subjects are resolved against: the base of a subject marked `path: true`
   * (see `PathSubjects`) and of every subject a `path` rule tests. An absolute path, such as the
   * workspace root the tools open files in. Default: `process.cwd()`, read at each check (where a
   * tool resolving against its working directory opens the file). Set it to what the tools
   * resolve against; a tool with a root of its own names it in `path: { base }`.
   */
  readonly pathBase?: string;
  /**
   * Receives one-line warnings about the rules (an `allow` rule on a `subject` glob that reads
   * like a path), once, as the policy is built or a rule added. Default: a stderr line prefixed
   * `toolwright: `.
   */
  readonly log?: (message: string) => void;
}

const OPTION_KEYS = optionKeys<PermissionPolicyOptions>()(
  'implications',
  'rules',
  'ask',
  'maxQuestions',
  'decisionScope',
  'askTimeoutMs',
  'decisionStore',
  'pathBase',
  'log',
);

/** A verdict per capability (`undefined`: nothing decided it), in the order asked. */
export type PermissionVerdicts = Map<string, PermissionVerdict | undefined>;

/** The default bound on permission questions in one call. */
export const DEFAULT_MAX_PERMISSION_QUESTIONS = 16;

/**
 * Decides which capabilities a tool gets on a subject. For each capability, in this order:
 * 1. the ordered rules (first match wins; see `PermissionRule`);
 * 2. the decisions remembered from "allow always" / "deny always" answers, per tool, subject
 *    and capability, kept apart per owner (`decisionScope`: per principal, else per session, by
 *    default; in memory, for the life of the policy or the session);
 * 3. the current call's "once" answers (kept by the call core for one call, never here);
 * 4. otherwise nothing has decided, and the call core asks the user.
 * Rules come first on every check, so a rule added later supersedes an earlier approval. The
 * policy never runs a tool; give it to a host (`policy` option), whose call core asks it.
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
  /** Whose "always" answers are (`undefined`: the principal, else the session; see the option). */
  readonly decisionScope: StateScope | undefined;
  readonly askTimeoutMs: number;
  private compiled: CompiledRule[];
  /** Where the "always" answers are kept (see the `decisionStore` option). */
  readonly decisionStore: RememberedDecisionStore;
  /** The default store, when it is the one: read directly, synchronously, on every check. */
  private readonly local: MemoryDecisionStore | undefined;
  /** What relative path subjects are resolved against (`undefined`: `process.cwd()` at each check; see the option). */
  readonly pathBase: string | undefined;
  private readonly log: (message: string) => void;

  /** Throws a `TypeError` naming the bad option, rule or implication. */
  constructor(options: PermissionPolicyOptions = {}) {
    checkOptionsObject('permissions', options, OPTION_KEYS);
    if (options.ask !== undefined && typeof options.ask !== 'function')
      throw new TypeError('permissions: "ask" must be a function (question, ctx) => answer');
    const max = options.maxQuestions ?? DEFAULT_MAX_PERMISSION_QUESTIONS;
    if (!isPositiveInteger(max)) throw invalidOption('permissions', 'maxQuestions', 'a positive integer', max);
    if (options.rules !== undefined && !Array.isArray(options.rules))
      throw new TypeError('permissions: "rules" must be an array of rules');
    if (options.decisionScope !== undefined && !isStateScope(options.decisionScope)) {
      throw new TypeError(
        `permissions: "decisionScope" must be one of ${STATE_SCOPES.map((s) => JSON.stringify(s)).join(', ')}, got ${JSON.stringify(options.decisionScope)}`,
      );
    }
    const askTimeoutMs = options.askTimeoutMs ?? DEFAULT_ASK_TIMEOUT_MS;
    if (typeof askTimeoutMs !== 'number' || !(askTimeoutMs > 0))
      throw invalidOption('permissions', 'askTimeoutMs', 'a positive number of milliseconds or Infinity', askTimeoutMs);
    const store = options.decisionStore;
    if (
      store !== undefined &&
      (typeof store !== 'object' ||
        store === null ||
        REMEMBERED_STORE_METHODS.some((m) => typeof (store as unknown as Record<string, unknown>)[m] !== 'function'))
    ) {
      throw new TypeError(
        `permissions: "decisionStore" must be a remembered-decision store with ${REMEMBERED_STORE_METHODS.join(', ')} methods (a MemoryDecisionStore, a RedisDecisionStore), got ${kindOf(store)}`,
      );
    }
    if (options.pathBase !== undefined && baseProblemOf(options.pathBase) !== undefined)
      throw new TypeError(
        `permissions: "pathBase" must be an absolute path such as "/srv/workspace", got ${typeof options.pathBase === 'string' ? JSON.stringify(options.pathBase) : kindOf(options.pathBase)}`,
      );
    if (options.log !== undefined && typeof options.log !== 'function')
      throw new TypeError(`permissions: "log" must be a function, got ${kindOf(options.log)}`);
    this.pathBase = options.pathBase;
    this.log = options.log ?? warnOnStderr;
    this.decisionStore = store ?? new MemoryDecisionStore();
    this.local = this.decisionStore instanceof MemoryDecisionStore ? this.decisionStore : undefined;
    this.decisionScope = options.decisionScope;
    this.askTimeoutMs = askTimeoutMs;
    this.implications = implicationsOf(options.implications);
    this.ask = options.ask;
    this.maxQuestions = max;
    this.compiled = (options.rules ?? []).map((rule, index) => compileRule(rule, index, this.implications, this.log));
  }

  /** The rules, in the order they are checked. */
  get rules(): readonly PermissionRule[] {
    return this.compiled.map((c) => c.rule);
  }

  /** Adds a rule, checked after the others, or before them with `{ first: true }`. */
  addRule(rule: PermissionRule, options: { readonly first?: boolean } = {}): void {
    const compiled = compileRule(rule, this.compiled.length, this.implications, this.log);
    this.compiled = options.first === true ? [compiled, ...this.compiled] : [...this.compiled, compiled];
  }

  /** The base relative path subjects are resolved against now: `pathBase`, else `process.cwd()`. */
  basePath(): string {
    return this.pathBase ?? process.cwd();
  }

  /** The closure of `grants`: the granted capabilities plus everything they imply, transitively. */
  closure(grants: Iterable<string>): Set<string> {
    return closureOf(this.implications, grants);
  }

  /** Whom an "always" answer given on `ctx` belongs to under this policy's `decisionScope` (see `decisionOwnerOf`). */
  ownerOf(ctx: CallContext | undefined): DecisionOwner {
    return decisionOwnerOf(ctx, this.decisionScope);
  }

  /**
   * Decides one capability from the rules, then the decisions remembered for `owner` (default:
   * the policy-wide memory), then `once` (one call's answers). `undefined` means nothing has
   * decided: ask. Synchronous: with a `decisionStore` that answers asynchronously (Redis) it
   * throws a `TypeError` when it needs the store; use `decide` there.
   */
  check(
    tool: string,
    subject: string,
    capability: string,
    once?: DecisionMap,
    owner: DecisionOwner = SERVER_OWNER,
  ): PermissionVerdict | undefined {
    const verdicts = this.verdictsOn(tool, subject, [capability], once, owner);
    if (isThenable(verdicts)) {
      verdicts.then(undefined, () => undefined);
      throw new TypeError(
        "permissions: check() answers synchronously, but this policy's decisionStore answers asynchronously: use await policy.decide(...)",
      );
    }
    return verdicts.get(capability);
  }

  /**
   * `check`, for any decision store: resolves the verdict (`undefined`: ask), or rejects when the
   * store cannot answer.
   */
  async decide(
    tool: string,
    subject: string,
    capability: string,
    once?: DecisionMap,
    owner: DecisionOwner = SERVER_OWNER,
  ): Promise<PermissionVerdict | undefined> {
    return (await this.verdictsOn(tool, subject, [capability], once, owner)).get(capability);
  }

  /**
   * Decides each of `capabilities` of `tool` on `subject` as `check` does, asking the decision
   * store at most once (and not at all when the rules decide every capability). Answers at once
   * with the default store, with a promise for a store that answers asynchronously (which
   * rejects when the store cannot answer).
   */
  verdictsOn(
    tool: string,
    subject: string,
    capabilities: readonly string[],
    once: DecisionMap | undefined,
    owner: DecisionOwner,
  ): PermissionVerdicts | Promise<PermissionVerdicts> {
    const verdicts: PermissionVerdicts = new Map();
    const open: string[] = [];
    let resolution: PathResolution | undefined;
    const resolved = (): PathResolution => (resolution ??= resolvePath(subject, this.basePath()));
    for (const capability of capabilities) {
      const ruled = this.ruleVerdict(tool, subject, capability, resolved);
      verdicts.set(capability, ruled);
      if (ruled === undefined) open.push(capability);
    }
    if (open.length === 0) return verdicts;
    if (this.local !== undefined) {
      const remembered = this.local.storeOf(owner, false);
      for (const capability of open)
        verdicts.set(
          capability,
          rememberedOrOnce(
            remembered?.lookup(tool, subject, capability, this.implications),
            once,
            tool,
            subject,
            capability,
            this.implications,
          ),
        );
      return verdicts;
    }
    const fill = (decisions: readonly StoredDecision[]): PermissionVerdicts => {
      const byCapability = new Map(decisions.map((d) => [d.capability, d]));
      for (const capability of open)
        verdicts.set(
          capability,
          rememberedOrOnce(
            decisionCovering(byCapability, capability, this.implications),
            once,
            tool,
            subject,
            capability,
            this.implications,
          ),
        );
      return verdicts;
    };
    if (owner.kind === 'none') return fill([]);
    const loaded = this.decisionStore.decisionsOn(owner, tool, subject);
    return isThenable(loaded) ? Promise.resolve(loaded).then(fill) : fill(loaded);
  }

  /**
   * The verdict of the first rule matching `tool`, `subject` and `capability`, or `undefined`. A
   * path rule tests the subject as `resolved` resolves it; when it cannot be resolved, the first
   * path rule whose tool and capabilities apply denies it, whatever its effect.
   */
  private ruleVerdict(
    tool: string,
    subject: string,
    capability: string,
    resolved: () => PathResolution,
  ): PermissionVerdict | undefined {
    for (const compiled of this.compiled) {
      if (!compiled.tool(tool) || !compiled.covers(capability) || !compiled.subject(subject)) continue;
      if (compiled.path !== undefined) {
        const { path, problem } = resolved();
        if (problem !== undefined) return { effect: 'deny', source: 'rule', reason: unresolvedReason(problem) };
        if (!compiled.path(path)) continue;
      }
      const { effect, reason } = compiled.rule;
      return reason === undefined ? { effect, source: 'rule' } : { effect, source: 'rule', reason };
    }
    return undefined;
  }

  /**
   * Remembers an "always" decision for each capability on `subject` for `tool`, for `owner`
   * (default: the policy-wide memory). Nothing is kept for the `none` owner. A promise with a
   * store that answers asynchronously (rejected when it cannot remember).
   */
  remember(
    tool: string,
    subject: string,
    capabilities: readonly string[],
    effect: PermissionEffect,
    reason?: string,
    owner: DecisionOwner = SERVER_OWNER,
  ): void | Promise<void> {
    if (owner.kind === 'none') return;
    return this.decisionStore.remember(owner, tool, subject, capabilities, effect, reason);
  }

  /**
   * The decisions remembered for the owner of `ctx` (see `ownerOf`), in the order remembered;
   * without `ctx`, the policy-wide memory (what in-process calls and the `'server'` scope use).
   * A promise with a store that answers asynchronously.
   */
  remembered(ctx?: CallContext): StoredDecision[] | Promise<StoredDecision[]> {
    const owner = ctx === undefined ? SERVER_OWNER : this.ownerOf(ctx);
    if (owner.kind === 'none') return [];
    const listed = this.decisionStore.list(owner);
    return isThenable(listed) ? Promise.resolve(listed).then((all) => [...all]) : [...listed];
  }

  /**
   * Forgets the decisions remembered for the owner of `ctx`, or every remembered decision of
   * every owner without it (rules stay; with a shared store, every process's). A promise with a
   * store that answers asynchronously.
   */
  forget(ctx?: CallContext): void | Promise<void> {
    if (ctx === undefined) return this.decisionStore.clear();
    const owner = this.ownerOf(ctx);
    if (this.local !== undefined) return this.local.clear(owner);
    if (owner.kind === 'none') return;
    const revoked = this.decisionStore.revoke(owner);
    return isThenable(revoked) ? Promise.resolve(revoked).then(() => undefined) : undefined;
  }

  /**
   * Revokes remembered decisions: those of `owner` (default: the policy-wide memory; a principal's
   * is `{ kind: 'principal', id: principalKey(principal) }`, a call's is `policy.ownerOf(ctx)`)
   * that match `selector` (every member given must match: `tool`, `subject`, `capability`; all
   * of the owner's without one). Answers how many were revoked; with a shared store the
   * revocation holds for every process from its next check. A promise with a store that
   * answers asynchronously.
   */
  revoke(selector?: DecisionSelector, owner: DecisionOwner = SERVER_OWNER): number | Promise<number> {
    if (owner.kind === 'none') return 0;
    return this.decisionStore.revoke(owner, selector);
  }
}

/** The remembered verdict when there is one, else the call's "once" answer, else `undefined`. */
function rememberedOrOnce(
  remembered: StoredDecision | undefined,
  once: DecisionMap | undefined,
  tool: string,
  subject: string,
  capability: string,
  implications: Implications,
): PermissionVerdict | undefined {
  if (remembered !== undefined) return verdictOf(remembered, 'remembered');
  const given = once?.lookup(tool, subject, capability, implications);
  return given === undefined ? undefined : verdictOf(given, 'once');
}

function verdictOf(stored: StoredDecision, source: 'remembered' | 'once'): PermissionVerdict {
  return stored.reason === undefined
    ? { effect: stored.effect, source }
    : { effect: stored.effect, source, reason: stored.reason };
}

/** Makes a `PermissionPolicy` (the same as `new PermissionPolicy(options)`). */
export function createPolicy(options: PermissionPolicyOptions = {}): PermissionPolicy {
  return new PermissionPolicy(options);
}

import {
  createPolicy,
  type AskPermission,
  type ImplicationsInit,
  type PermissionPolicy,
  type PermissionRule,
} from '../../runtime/index.js';

/** The capability an unclassified consumed tool (permission `""`) requires. */
export const UNCLASSIFIED_CAPABILITY = 'unclassified';

/** The reason a consumed tool's call is denied when nothing the host configured allows it. */
export const DENIED_BY_DEFAULT = 'permission denied by default';

/** What the host adds to the consumer's default policy. */
export interface ConsumerPolicyOptions {
  /** The host's ordered rules, checked before the defaults (so a host may deny `read` too). */
  readonly rules?: readonly PermissionRule[];
  /**
   * The host's own question. Only when it is given is anything asked: a call that no rule
   * decides (`write`, unclassified) is then put to it; without it such a call is denied.
   */
  readonly ask?: AskPermission;
  readonly implications?: ImplicationsInit;
}

/**
 * The consumer's default permission policy, the seed's: `read` is allowed; anything else
 * (`write`, `unclassified`, any class the host named) is denied with `permission denied by
 * default` unless one of the host's `rules` allows it or, when the host configured `ask`, the
 * answer to its question does. Unlike a bare `createPolicy`, it never falls back to asking the
 * user through `ctx.elicit` and never allows on its own.
 */
export function consumerPolicy(options: ConsumerPolicyOptions = {}): PermissionPolicy {
  const rules: PermissionRule[] = [...(options.rules ?? []), { effect: 'allow', capabilities: ['read'] }];
  if (options.ask === undefined) rules.push({ effect: 'deny', reason: DENIED_BY_DEFAULT });
  return createPolicy({
    rules,
    ...(options.ask === undefined ? {} : { ask: options.ask }),
    ...(options.implications === undefined ? {} : { implications: options.implications }),
  });
}

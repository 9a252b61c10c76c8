import { closureOf, isCapabilityName, type Implications } from './capabilities.js';
import { matcherOf, pathMatcherOf, type NameMatcher, type NamePattern } from './patterns.js';

/**
 * One ordered permission rule. Rules are checked before anything remembered or asked, one
 * capability at a time, and the first rule that matches decides that capability.
 *
 * A rule matches a capability on a subject for a tool when `tool` and `subject` match (absent =
 * any) and `capabilities` (absent = every capability) covers it. Coverage follows the
 * implications so that a rule never says less than it means:
 * - an `allow` rule covers a capability its capabilities imply (allowing `write` allows `read`);
 * - a `deny` rule covers a capability that implies one of its capabilities (denying `read` also
 *   denies `write`, which would otherwise bring `read` with it).
 *
 * `reason` is shown in the denial message of a `deny` rule.
 */
export interface PermissionRule {
  readonly effect: 'allow' | 'deny';
  readonly tool?: NamePattern;
  readonly subject?: NamePattern;
  /**
   * In place of `subject`: an absolute path glob (`/etc/**`) matched against the subject as a
   * normalised path (see `normalisedPathSubject`), so `/srv/../etc/passwd` and `//etc/passwd`
   * cannot step around it; a subject that is not an absolute path never matches a path rule.
   */
  readonly path?: string;
  /**
   * Whether a `path` rule tells upper from lower case. Default: a `deny` rule ignores case (on a
   * case-insensitive file system, the macOS and Windows default, `/ETC/passwd` is
   * `/etc/passwd`, so a deny must not be stepped around by case), an `allow` rule respects it
   * (so it never grants more than it names on a case-sensitive one). Only with `path`.
   */
  readonly caseSensitive?: boolean;
  readonly capabilities?: readonly string[];
  readonly reason?: string;
}

/** A rule ready to test. */
export interface CompiledRule {
  readonly rule: PermissionRule;
  readonly tool: NameMatcher;
  readonly subject: NameMatcher;
  /** Tests one capability (see `PermissionRule` for how implications count). */
  covers(capability: string): boolean;
}

const RULE_KEYS: ReadonlySet<string> = new Set([
  'effect',
  'tool',
  'subject',
  'path',
  'caseSensitive',
  'capabilities',
  'reason',
]);

/**
 * Checks a rule and compiles it. Throws a `TypeError` beginning `permissions: rule <n>:` for a
 * rule that is not an object, has an unknown key, a bad effect, pattern, capability list or reason.
 */
export function compileRule(rule: PermissionRule, index: number, implications: Implications): CompiledRule {
  const where = `permissions: rule ${index + 1}`;
  if (typeof rule !== 'object' || rule === null || Array.isArray(rule))
    throw new TypeError(`${where}: must be an object like { effect: 'allow', capabilities: ['read'] }`);
  for (const key of Object.keys(rule)) {
    if (!RULE_KEYS.has(key))
      throw new TypeError(
        `${where}: unknown key ${JSON.stringify(key)} (known keys: effect, tool, subject, path, caseSensitive, capabilities, reason)`,
      );
  }
  if (rule.effect !== 'allow' && rule.effect !== 'deny')
    throw new TypeError(`${where}: "effect" must be "allow" or "deny", got ${JSON.stringify(rule.effect)}`);
  if (rule.reason !== undefined && typeof rule.reason !== 'string')
    throw new TypeError(`${where}: "reason" must be a string`);
  const caps = rule.capabilities;
  if (caps !== undefined && (!Array.isArray(caps) || caps.length === 0 || !caps.every(isCapabilityName))) {
    throw new TypeError(
      `${where}: "capabilities" must be a non-empty array of capability names (leave it out to cover every capability)`,
    );
  }
  const tool = matcherOf(rule.tool, `${where}: "tool"`);
  if (rule.path !== undefined && rule.subject !== undefined)
    throw new TypeError(`${where}: give "subject" or "path", not both`);
  if (rule.caseSensitive !== undefined && (typeof rule.caseSensitive !== 'boolean' || rule.path === undefined)) {
    throw new TypeError(`${where}: "caseSensitive" must be a boolean, and only goes with "path"`);
  }
  const subject =
    rule.path === undefined
      ? matcherOf(rule.subject, `${where}: "subject"`)
      : pathMatcherOf(rule.path, `${where}: "path"`, rule.caseSensitive ?? rule.effect === 'allow');
  const frozen = Object.freeze({ ...rule, ...(caps === undefined ? {} : { capabilities: Object.freeze([...caps]) }) });
  let covers: (capability: string) => boolean;
  if (caps === undefined) {
    covers = () => true;
  } else if (rule.effect === 'allow') {
    const allowed = closureOf(implications, caps);
    covers = (capability) => allowed.has(capability);
  } else {
    const denied = new Set(caps);
    covers = (capability) => {
      for (const implied of closureOf(implications, [capability])) if (denied.has(implied)) return true;
      return false;
    };
  }
  return Object.freeze({ rule: frozen, tool, subject, covers });
}

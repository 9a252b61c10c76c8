import { closureOf, isCapabilityName, type Implications } from './capabilities.js';
import { matcherOf, type NameMatcher, type NamePattern } from './patterns.js';
import { looksLikeAPath, pathMatcherOf } from './paths.js';

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
 *
 * A `subject` glob matches the raw string, so it is no guard for paths: a `deny` rule whose
 * `subject` glob reads like a path (it starts with `/`, `\`, `./`, `../`, `~` or a drive letter
 * such as `C:\`) is refused when the policy is built, and such an `allow` rule is built with a
 * warning; both name the `path` form. A `RegExp` subject is taken as meant.
 */
export interface PermissionRule {
  readonly effect: 'allow' | 'deny';
  readonly tool?: NamePattern;
  readonly subject?: NamePattern;
  /**
   * In place of `subject`: an absolute path glob (`/etc/**`; `NamePattern` syntax, no `.` or `..`
   * segments) matched against the subject resolved as a path: a relative subject against the
   * policy's `pathBase` (default `process.cwd()`), `.`, `..`, repeated and trailing `/` applied
   * (see `resolvePathSubject`), so `/srv/../etc/passwd`, `//etc/passwd`, `/etc/` and
   * `../../etc/passwd` cannot step around it. In a `deny` rule a `/**` ending the glob (or
   * between two `/`) also matches no segment, so `/etc/**` covers `/etc` itself; in an `allow`
   * rule it matches one character or more (`/etc/**` allows what is under `/etc`, not `/etc`).
   * A subject that cannot be resolved (a NUL byte, a lone surrogate) is denied by the first path
   * rule whose tool and capabilities apply, whatever its effect
   * (`the path cannot be resolved: it holds a NUL byte`).
   */
  readonly path?: string;
  /**
   * Whether a `path` rule tells upper from lower case. Default: a `deny` rule ignores case and
   * Unicode normalisation form (on a case-insensitive file system, the macOS and Windows
   * default, `/ETC/passwd` is `/etc/passwd`, and on macOS a decomposed `é` is the composed one,
   * so a deny must not be stepped around by either), an `allow` rule respects both (so it never
   * grants more than it names on a case-sensitive one). Only with `path`.
   */
  readonly caseSensitive?: boolean;
  readonly capabilities?: readonly string[];
  readonly reason?: string;
}

/** A rule ready to test. */
export interface CompiledRule {
  readonly rule: PermissionRule;
  readonly tool: NameMatcher;
  /** Tests the raw subject (every subject for a path rule). */
  readonly subject: NameMatcher;
  /** A path rule's test of the resolved subject (see `PermissionRule.path`); `undefined` for other rules. */
  readonly path: NameMatcher | undefined;
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
 * rule that is not an object, has an unknown key, a bad effect, pattern, capability list or
 * reason, or is a deny rule on a `subject` glob that reads like a path; `warn` receives the
 * warning for an allow rule on such a glob.
 */
export function compileRule(
  rule: PermissionRule,
  index: number,
  implications: Implications,
  warn: (message: string) => void,
): CompiledRule {
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
  const subject = matcherOf(rule.subject, `${where}: "subject"`);
  if (typeof rule.subject === 'string' && looksLikeAPath(rule.subject)) {
    const problem = subjectGlobProblem(where, rule.subject, rule.effect);
    if (rule.effect === 'deny') throw new TypeError(problem);
    warn(problem);
  }
  const path =
    rule.path === undefined
      ? undefined
      : pathMatcherOf(rule.path, `${where}: "path"`, {
          caseSensitive: rule.caseSensitive ?? rule.effect === 'allow',
          wholeSegments: rule.effect === 'deny',
        });
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
  return Object.freeze({ rule: frozen, tool, subject, path, covers });
}

/** What is wrong with a `subject` glob that reads like a path, naming the `path` form. */
function subjectGlobProblem(where: string, glob: string, effect: 'allow' | 'deny'): string {
  const pathForm = glob.startsWith('/') ? `{ path: ${JSON.stringify(glob)} }` : '"path" with an absolute glob';
  const risk =
    effect === 'deny'
      ? 'other spellings of the same path ("..", "//", a relative path, case) step around this deny'
      : 'a spelling with ".." that leads out of it matches it too, unless the tool marks its subjects as paths';
  return `${where}: "subject" ${JSON.stringify(glob)} looks like a path, but a subject glob matches the raw string, so ${risk}: write ${pathForm} to match the resolved path, or a RegExp to match the raw string on purpose`;
}

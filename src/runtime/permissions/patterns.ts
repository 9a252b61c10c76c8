import { posix } from 'node:path';
import { kindOf } from '../../util/describe.js';

/**
 * A name pattern of a permission rule: a glob (a string) or a `RegExp`.
 *
 * Globs match the whole name. `**` matches any run of characters, `*` any run without `/`, `?`
 * one character other than `/`; every other character stands for itself. So `/tmp/**` matches
 * every path under `/tmp`, `/tmp/*` only its direct entries, and `fs_*` every tool name starting
 * with `fs_` (tool names hold no `/`).
 *
 * A `RegExp` is tested as written (anchor it yourself); its `g` and `y` flags are dropped so
 * testing keeps no state between calls.
 */
export type NamePattern = string | RegExp;

/** Tests one name against a compiled pattern. */
export type NameMatcher = (name: string) => boolean;

const ANY: NameMatcher = () => true;

/** Turns a glob into an anchored regular expression (see `NamePattern`). */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i += 1) {
    const char = glob[i]!;
    if (char === '*') {
      if (glob[i + 1] === '*') {
        source += '.*';
        i += 1;
      } else {
        source += '[^/]*';
      }
    } else if (char === '?') {
      source += '[^/]';
    } else {
      source += char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    }
  }
  return new RegExp(`^${source}$`, 's');
}

/**
 * Compiles a pattern; `undefined` matches every name. Throws a `TypeError` beginning with `what` for a
 * pattern that is neither a string nor a `RegExp`.
 */
export function matcherOf(pattern: NamePattern | undefined, what: string): NameMatcher {
  if (pattern === undefined) return ANY;
  if (typeof pattern === 'string') {
    const regexp = globToRegExp(pattern);
    return (name) => regexp.test(name);
  }
  if (pattern instanceof RegExp) {
    const regexp = new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, ''));
    return (name) => regexp.test(name);
  }
  throw new TypeError(`${what} must be a glob string or a RegExp, got ${kindOf(pattern)}`);
}

/**
 * The form of a path subject that path rules match: an absolute POSIX path with `.` and `..`
 * resolved, repeated `/` collapsed and no trailing `/` (`/srv/../etc/passwd`, `//etc/passwd` and
 * `/etc/./passwd/` all become `/etc/passwd`; `..` never climbs above `/`). `undefined` for a
 * subject that is not an absolute path (relative paths cannot be resolved here: a tool should
 * give absolute subjects) or holds a NUL character. Backslashes are ordinary characters (POSIX).
 */
export function normalisedPathSubject(subject: string): string | undefined {
  if (!subject.startsWith('/') || subject.includes('\0')) return undefined;
  const normal = posix.normalize(subject);
  return normal.length > 1 && normal.endsWith('/') ? normal.slice(0, -1) : normal;
}

/**
 * Compiles a path glob of a permission rule (see `PermissionRule.path`): the glob (same syntax
 * as `NamePattern` globs; it must itself be an absolute path) is tested against the subject's
 * `normalisedPathSubject`, and a subject that is not an absolute path never matches. With
 * `caseSensitive: false` letters match in either case (`/ETC/passwd` matches `/etc/**`). Throws a
 * `TypeError` beginning with `what` for a glob that is not a string starting with `/`.
 */
export function pathMatcherOf(glob: unknown, what: string, caseSensitive: boolean): NameMatcher {
  if (typeof glob !== 'string' || !glob.startsWith('/'))
    throw new TypeError(
      `${what} must be an absolute path glob such as "/etc/**", got ${typeof glob === 'string' ? JSON.stringify(glob) : kindOf(glob)}`,
    );
  const normalGlob = glob.endsWith('/**') ? glob : (normalisedPathSubject(glob) ?? glob);
  const source = globToRegExp(normalGlob);
  const regexp = caseSensitive ? source : new RegExp(source.source, `${source.flags}i`);
  return (subject) => {
    const path = normalisedPathSubject(subject);
    return path !== undefined && regexp.test(path);
  };
}

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
  return new RegExp(`^${globSource(glob, false)}$`, 's');
}

/**
 * The regular-expression source of a glob (see `NamePattern`), unanchored. With `wholeSegments`
 * (path globs of deny rules), a `/**` that ends the glob or stands between two `/` matches zero
 * or more whole segments: `/etc/**` matches `/etc` itself, and `/a/**` followed by `/b` matches `/a/b`.
 */
export function globSource(glob: string, wholeSegments: boolean): string {
  let source = '';
  for (let i = 0; i < glob.length; i += 1) {
    const char = glob[i]!;
    if (
      wholeSegments &&
      char === '/' &&
      glob.startsWith('**', i + 1) &&
      (i + 3 === glob.length || glob[i + 3] === '/')
    ) {
      source += i + 3 === glob.length ? '(?:/.*)?' : '/(?:.*/)?';
      i += i + 3 === glob.length ? 2 : 3;
    } else if (char === '*') {
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
  return source;
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

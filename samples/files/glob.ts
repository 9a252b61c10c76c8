/**
 * Turns a glob into a regular expression over `/`-separated relative paths: `*` matches within
 * one segment, `**` any number of segments (`**\/` also none), `?` one character other than `/`;
 * every other character matches itself. A pattern without `/` matches the last segment (the file
 * name) anywhere, as `.gitignore` does.
 */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i]!;
    if (char === '*') {
      if (glob[i + 1] === '*') {
        const slash = glob[i + 2] === '/';
        source += slash ? '(?:.*/)?' : '.*';
        i += slash ? 2 : 1;
      } else source += '[^/]*';
    } else if (char === '?') source += '[^/]';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(glob.includes('/') ? `^${source}$` : `(?:^|/)${source}$`);
}

/** True when `relative` matches any of `globs`; an empty list matches everything. */
export function matchesAny(relative: string, globs: readonly RegExp[]): boolean {
  return globs.length === 0 || globs.some((glob) => glob.test(relative));
}

import { posix } from 'node:path';
import type { PathSubjects } from '../../contract/index.js';
import { kindOf } from '../../util/describe.js';
import { globSource, type NameMatcher } from './patterns.js';

/**
 * Path subjects: how a subject that is a file-system path is resolved before a rule sees it, and
 * how a path rule's glob matches the resolved path. The whole resolution is lexical, by POSIX
 * rules (`/` is the only separator, `\` an ordinary character, as on Linux and macOS): `.` and
 * `..` segments are applied (`..` never climbs above `/`), repeated `/` collapse into one and a
 * trailing `/` is dropped. Nothing is read from the file system, so symbolic links are not
 * followed: a tool that follows them must check the real path itself (`fs.realpath` first, then
 * ask for the real path). A path holding a NUL byte (which no file system call accepts) or a lone
 * surrogate (which Node writes as U+FFFD, another name) cannot be resolved.
 */

/** A UTF-16 surrogate without its partner. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** What resolving a path subject gave: the resolved absolute path, or why it cannot be resolved. */
export type PathResolution =
  { readonly path: string; readonly problem?: undefined } | { readonly path?: undefined; readonly problem: string };

function textProblemOf(text: string): string | undefined {
  if (text.includes('\0')) return 'holds a NUL byte';
  if (LONE_SURROGATE.test(text)) return 'holds a lone surrogate (it is not well-formed Unicode)';
  return undefined;
}

/** Why `base` cannot be resolved against (`its base "srv" is not an absolute path`), or `undefined`. */
export function baseProblemOf(base: unknown): string | undefined {
  if (typeof base !== 'string' || !base.startsWith('/'))
    return `its base ${typeof base === 'string' ? JSON.stringify(base) : kindOf(base)} is not an absolute path`;
  const problem = textProblemOf(base);
  return problem === undefined ? undefined : `its base ${JSON.stringify(base)} ${problem}`;
}

/** Why `subject` cannot be resolved against any base (`it holds a NUL byte`), or `undefined`. */
export function subjectProblemOf(subject: string): string | undefined {
  const problem = textProblemOf(subject);
  return problem === undefined ? undefined : `it ${problem}`;
}

/** Resolves `subject` against `base` (see the module comment), or says why it cannot. */
export function resolvePath(subject: string, base: string): PathResolution {
  const problem = subjectProblemOf(subject) ?? baseProblemOf(base);
  return problem === undefined ? { path: posix.resolve(base, subject) } : { problem };
}

/** The reason of a denial for a path that cannot be resolved: `the path cannot be resolved: it holds a NUL byte`. */
export function unresolvedReason(problem: string): string {
  return `the path cannot be resolved: ${problem}`;
}

/**
 * The path a path subject names, resolved lexically against `base` (an absolute path; default
 * `process.cwd()`): `resolvePathSubject('../etc/passwd', '/srv/app')` is `/srv/etc/passwd`,
 * `//etc/./passwd/` is `/etc/passwd`. `undefined` when it cannot be resolved: a NUL byte or a
 * lone surrogate in the subject, or a base that is not an absolute path. No symbolic link is
 * followed (see `PathSubjects`).
 */
export function resolvePathSubject(subject: string, base: string = process.cwd()): string | undefined {
  return resolvePath(subject, base).path;
}

/**
 * An absolute path subject resolved (`/srv/../etc/passwd` is `/etc/passwd`); `undefined` for a
 * relative subject or one that cannot be resolved. Kept for code that calls it: path rules now
 * resolve relative subjects too (see `resolvePathSubject`).
 */
export function normalisedPathSubject(subject: string): string | undefined {
  return subject.startsWith('/') ? resolvePathSubject(subject, '/') : undefined;
}

/** The base a path marking names, or `fallback` for `true`. */
export function baseOf(marking: PathSubjects, fallback: () => string): string {
  return typeof marking === 'object' ? marking.base : fallback();
}

/**
 * Why `marking` is not a `PathSubjects` (`true`, `false` or `{ base }` with an absolute base),
 * or `undefined`.
 */
export function markingProblemOf(marking: unknown): string | undefined {
  if (marking === undefined || typeof marking === 'boolean') return undefined;
  if (typeof marking === 'object' && marking !== null && !Array.isArray(marking)) {
    const keys = Object.keys(marking);
    if (keys.length === 1 && keys[0] === 'base') return baseProblemOf((marking as { base: unknown }).base);
  }
  return `it must be true, false or { base: "<absolute path>" }, got ${kindOf(marking)}`;
}

/**
 * True for a glob that reads like a file-system path: it starts with `/`, `\`, `./`, `../`, `~` or
 * a drive letter (`C:\`).
 */
export function looksLikeAPath(glob: string): boolean {
  return /^(?:[/\\~]|\.{1,2}(?:[/\\]|$)|[A-Za-z]:[/\\])/.test(glob);
}

/** How a path glob matches (see `PermissionRule.path`). */
export interface PathGlobOptions {
  /** Whether letters must match in case; when not, Unicode canonical forms (NFC, NFD) match each other too. */
  readonly caseSensitive: boolean;
  /** Whether a `/**` ending the glob, or between two `/`, also matches no segment at all (deny rules). */
  readonly wholeSegments: boolean;
}

/**
 * Compiles the glob of a path rule into a matcher of resolved paths (see `resolvePath`). The
 * glob has `NamePattern`'s syntax and must be an absolute path without `.` or `..` segments;
 * repeated `/` and a trailing `/` are dropped from it (`//etc/` is `/etc`). Throws a `TypeError`
 * beginning with `what` for a glob that is not a string starting with `/`, holds a NUL byte or a
 * lone surrogate, or has a `.` or `..` segment.
 */
export function pathMatcherOf(glob: unknown, what: string, options: PathGlobOptions): NameMatcher {
  if (typeof glob !== 'string' || !glob.startsWith('/'))
    throw new TypeError(
      `${what} must be an absolute path glob such as "/etc/**", got ${typeof glob === 'string' ? JSON.stringify(glob) : kindOf(glob)}`,
    );
  const problem = textProblemOf(glob);
  if (problem !== undefined) throw new TypeError(`${what} ${JSON.stringify(glob)} ${problem}`);
  const segments = glob.split('/').filter((segment) => segment !== '');
  if (segments.some((segment) => segment === '.' || segment === '..'))
    throw new TypeError(
      `${what} ${JSON.stringify(glob)} has a "." or ".." segment: write the path it stands for (path rules match resolved paths)`,
    );
  const tidy = `/${segments.join('/')}`;
  const source = globSource(options.caseSensitive ? tidy : tidy.normalize('NFC'), options.wholeSegments);
  const regexp = new RegExp(`^${source}$`, options.caseSensitive ? 'su' : 'siu');
  return options.caseSensitive ? (path) => regexp.test(path) : (path) => regexp.test(path.normalize('NFC'));
}

/** Path subjects resolved, in order, or the first one that cannot be, with why. */
export type ResolvedSubjects =
  | { readonly resolved: readonly string[]; readonly subject?: undefined; readonly problem?: undefined }
  | { readonly resolved?: undefined; readonly subject: string; readonly problem: string };

/**
 * Resolves each of `subjects` against the base `marking` names (`fallback()` for `true`; see
 * `PathSubjects`), or answers the first that cannot be resolved and why.
 */
export function resolveSubjects(
  subjects: readonly string[],
  marking: PathSubjects,
  fallback: () => string,
): ResolvedSubjects {
  const base = baseOf(marking, fallback);
  const resolved: string[] = [];
  for (const subject of subjects) {
    const { path, problem } = resolvePath(subject, base);
    if (problem !== undefined) return { subject, problem };
    resolved.push(path);
  }
  return { resolved };
}

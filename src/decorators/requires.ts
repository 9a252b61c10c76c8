import { DecoratorError, type Requirement } from '../contract/index.js';
import { kindOf } from '../util/describe.js';
import { checkOnApply, classTarget, optionalString, plainOptions } from './guards.js';
import { addClaims, getClaims } from './metadata.js';

const REQUIRES_KEYS = ['capabilities', 'subject', 'label', 'reason', 'path'] as const;

function checkRequirement(options: unknown): Requirement {
  const given = plainOptions('@Requires()', options, REQUIRES_KEYS);
  const caps = given.capabilities;
  if (!Array.isArray(caps) || caps.length === 0 || !caps.every((c) => typeof c === 'string' && c !== '')) {
    throw new DecoratorError(
      `@Requires(): "capabilities" must be a non-empty array of capability names such as ['write'], got ${JSON.stringify(caps) ?? typeof caps}`,
    );
  }
  if (typeof given.subject !== 'function') {
    throw new DecoratorError(
      `@Requires(): "subject" must be a function of the arguments such as (args) => args.path, got ${kindOf(given.subject)}`,
    );
  }
  optionalString('@Requires()', 'label', given.label);
  optionalString('@Requires()', 'reason', given.reason);
  checkPathOption(given.path);
  return Object.freeze({ ...(given as unknown as Requirement), capabilities: Object.freeze([...caps]) });
}

/** `path` must be a boolean or `{ base }` with an absolute base path (see `PathSubjects`). */
function checkPathOption(path: unknown): void {
  if (path === undefined || typeof path === 'boolean') return;
  const base = typeof path === 'object' && path !== null ? (path as { base?: unknown }).base : undefined;
  const keys = typeof path === 'object' && path !== null ? Object.keys(path) : [];
  if (
    keys.length === 1 &&
    keys[0] === 'base' &&
    typeof base === 'string' &&
    base.startsWith('/') &&
    !base.includes('\0')
  )
    return;
  throw new DecoratorError(
    `@Requires(): "path" must be true, false or { base: "/absolute/path" } (what relative subjects are resolved against), got ${JSON.stringify(path) ?? kindOf(path)}`,
  );
}

/**
 * Declares a permission the tool needs before it runs: `capabilities` on the subject(s) that
 * `subject(args)` picks out of the arguments (a string or an array of strings, e.g. `(a) => a.path`
 * or `(a) => [a.from, a.to]`); several subjects get the intersection of their grants. `path: true`
 * says the subjects are file-system paths, resolved (against the policy's `pathBase`, default
 * `process.cwd()`; `path: { base }` names another) before any rule sees them, and a path holding a
 * NUL byte fails the call as invalid arguments (see `PathSubjects`). `label` names what the subject
 * is ("destination file") and `reason` says why, both shown to the user. Every host's call core
 * checks every requirement once, after validating the arguments and before interceptors and
 * `execute`, so the call fails with `permission denied: ...` unless each capability is granted: the
 * host's `policy` option asks or decides, and without one the context's `requirePermission` does
 * (nothing is granted by default). Several `@Requires` stack and are checked top to bottom. Throws
 * a `DecoratorError` naming the class, as the class is defined, for bad options or a target that is
 * not a class.
 */
export function Requires(options: Requirement): ClassDecorator {
  const requirement = checkOnApply('@Requires()', () => checkRequirement(options));
  return (...args: unknown[]) => {
    const cls = classTarget('@Requires()', args);
    const checked = requirement(args);
    // Legacy class decorators apply bottom-up: prepend, so the list reads in source order.
    addClaims(cls, { requires: Object.freeze([checked, ...(getClaims(cls).requires ?? [])]) });
  };
}

/** The plain-function twin of `@Requires()`: appends one requirement to the tool class `cls`. */
export function defineRequires(cls: Function, options: Requirement): void {
  const target = classTarget('defineRequires()', [cls]);
  const requirement = checkOnApply('@Requires()', () => checkRequirement(options))([target]);
  addClaims(target, { requires: Object.freeze([...(getClaims(target).requires ?? []), requirement]) });
}

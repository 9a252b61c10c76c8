import { kindOf } from '../../util/describe.js';
import { InvalidOptionError, invalidOption } from '../../util/options.js';
import type { ProtocolEra } from './extra.js';

/**
 * Who may keep a cached result (2026-07-28, `cacheScope`): `'public'`, any client or shared
 * cache, for anyone; `'private'`, only within the authorization context that asked.
 */
export type CacheScope = 'public' | 'private';

/** The list and read methods whose results carry caching hints in the 2026-07-28 era. */
export type CacheableMethod =
  'tools/list' | 'prompts/list' | 'resources/list' | 'resources/templates/list' | 'resources/read';

/** The cacheable methods, in the order the revision lists them. */
export const CACHEABLE_METHODS: readonly CacheableMethod[] = [
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
];

/** One method's caching hint; what it leaves out comes from the level above, then the defaults. */
export interface CacheHint {
  /** How long a client may consider the result fresh, in milliseconds (a non-negative integer). */
  readonly ttlMs?: number;
  /** Who may keep it (see `CacheScope`). */
  readonly cacheScope?: CacheScope;
}

/**
 * The caching hints of a server's list and read results in the 2026-07-28 era (the `cacheHints`
 * server option): `ttlMs` and `cacheScope` for every cacheable method, and `methods` to set them
 * for one method. Default `ttlMs`: 0 (stale at once: the client asks again whenever it needs the
 * list, as the SDK's default says). Default scope: what each result is: `'public'` for
 * `tools/list`, `prompts/list` and `resources/templates/list`, which are the same for every
 * caller; `'private'` for `resources/read` (a read runs with the caller's context) and for a
 * `resources/list` that a template's `list` enumerates (so does that). A `tools/list` that
 * `hideForbiddenTools` filters by the caller's scopes (it is on, and some tool served now has
 * `scopes`) is always `'private'`, whatever is configured: a list filtered per principal is never
 * a shared cache's to keep. Hints are computed from the set served when the result is made, so
 * they change as the set does. 2025-era results carry none (that revision has no such fields).
 */
export interface CacheHints extends CacheHint {
  /** A hint for one method, over the ones above. */
  readonly methods?: { readonly [M in CacheableMethod]?: CacheHint };
}

/**
 * What a result's hint is made of besides the configuration: the scope it has by its nature, and
 * whether it must be private.
 */
export interface NaturalScope {
  readonly scope: CacheScope;
  /** True when the result depends on the caller in a way configuration cannot undo (a filtered `tools/list`). */
  readonly mustBePrivate: boolean;
}

const HINT_KEYS: ReadonlySet<string> = new Set(['ttlMs', 'cacheScope']);

/**
 * Throws a `TypeError` naming the member (`<where>: "cacheHints.methods.tools/list.ttlMs" must be
 * ...`) when `value` is not `undefined` or a `CacheHints`: an unknown key or method, a `ttlMs`
 * that is not a non-negative safe integer, a `cacheScope` other than `'public'` and `'private'`.
 */
export function checkCacheHints(value: unknown, where: string): void {
  if (value === undefined) return;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw invalidOption(where, 'cacheHints', 'an object such as { ttlMs: 60000 }', value);
  const { methods, ...top } = value as { methods?: unknown };
  checkHint(top, where, 'cacheHints');
  if (methods === undefined) return;
  if (typeof methods !== 'object' || methods === null || Array.isArray(methods))
    throw invalidOption(where, 'cacheHints.methods', `an object keyed by ${CACHEABLE_METHODS.join(', ')}`, methods);
  for (const [method, hint] of Object.entries(methods)) {
    if (!(CACHEABLE_METHODS as readonly string[]).includes(method))
      throw new InvalidOptionError(
        `${where}: "cacheHints.methods" has no method ${JSON.stringify(method)}; use ${CACHEABLE_METHODS.join(', ')}`,
      );
    if (typeof hint !== 'object' || hint === null || Array.isArray(hint))
      throw invalidOption(where, `cacheHints.methods.${method}`, 'an object { ttlMs?, cacheScope? }', hint);
    checkHint(hint as Record<string, unknown>, where, `cacheHints.methods.${method}`);
  }
}

function checkHint(hint: Record<string, unknown>, where: string, path: string): void {
  for (const key of Object.keys(hint))
    if (!HINT_KEYS.has(key))
      throw new InvalidOptionError(
        `${where}: "${path}" has no member ${JSON.stringify(key)}; use ttlMs, cacheScope${path === 'cacheHints' ? ', methods' : ''}`,
      );
  const { ttlMs, cacheScope } = hint;
  if (ttlMs !== undefined && !(typeof ttlMs === 'number' && Number.isSafeInteger(ttlMs) && ttlMs >= 0))
    throw invalidOption(where, `${path}.ttlMs`, 'a non-negative whole number of milliseconds', ttlMs);
  if (cacheScope !== undefined && cacheScope !== 'public' && cacheScope !== 'private')
    throw new InvalidOptionError(
      `${where}: "${path}.cacheScope" must be "public" or "private", got ${typeof cacheScope === 'string' ? JSON.stringify(cacheScope) : kindOf(cacheScope)}`,
    );
}

/**
 * The hint of one result of `method` (see `CacheHints`): the method's configuration, then the top
 * level, then the defaults.
 */
export function cacheHintOf(
  method: CacheableMethod,
  hints: CacheHints | undefined,
  natural: NaturalScope,
): { readonly ttlMs: number; readonly cacheScope: CacheScope } {
  const own = hints?.methods?.[method];
  const ttlMs = own?.ttlMs ?? hints?.ttlMs ?? 0;
  const cacheScope = natural.mustBePrivate ? 'private' : (own?.cacheScope ?? hints?.cacheScope ?? natural.scope);
  return { ttlMs, cacheScope };
}

/**
 * `result` with the hint in the 2026-07-28 era (`ttlMs` and `cacheScope` beside the result's own
 * members, where the revision puts them), as it is in the 2025 era.
 */
export function hinted<T extends Record<string, unknown>>(
  result: T,
  era: ProtocolEra,
  hint: () => { readonly ttlMs: number; readonly cacheScope: CacheScope },
): T {
  if (era !== 'modern') return result;
  const { ttlMs, cacheScope } = hint();
  return { ...result, ttlMs, cacheScope };
}

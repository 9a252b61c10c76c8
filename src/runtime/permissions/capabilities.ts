import { invalidOption } from '../../util/options.js';

/**
 * Capabilities are the application's own names (`read`, `write`, `exec`, ...). Implications say
 * which capabilities a capability brings with it: with `{ write: ['read'] }`, a grant of `write`
 * also authorises `read`. toolwright attaches no meaning to any name.
 */

/** Implications as the application gives them: a `Map` or a plain object of name -> implied names. */
export type ImplicationsInit = ReadonlyMap<string, readonly string[]> | Readonly<Record<string, readonly string[]>>;

/** Implications after checking: a `Map` from a capability to the capabilities it directly implies. */
export type Implications = ReadonlyMap<string, readonly string[]>;

/** True for a capability name toolwright accepts: a non-empty string. */
export function isCapabilityName(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

/**
 * Checks and copies implications into a `Map` (own keys of a plain object only, so nothing is
 * read from a prototype). Throws a `TypeError` naming the capability whose implications are not
 * an array of non-empty strings.
 */
export function implicationsOf(init: ImplicationsInit | undefined): Implications {
  const checked = new Map<string, readonly string[]>();
  if (init === undefined) return checked;
  if (typeof init !== 'object' || init === null || Array.isArray(init)) {
    throw invalidOption(
      'permissions',
      'implications',
      'a Map or an object of capability -> implied capabilities',
      init,
    );
  }
  const entries: Iterable<[string, unknown]> = init instanceof Map ? init.entries() : Object.entries(init);
  for (const [name, implied] of entries) {
    if (!isCapabilityName(name))
      throw new TypeError(
        `permissions: implication keys must be non-empty capability names, got ${JSON.stringify(name)}`,
      );
    if (!Array.isArray(implied) || !implied.every(isCapabilityName)) {
      throw new TypeError(
        `permissions: the implications of ${JSON.stringify(name)} must be an array of non-empty capability names`,
      );
    }
    checked.set(name, Object.freeze([...implied]));
  }
  return checked;
}

/**
 * The closure of `grants`: every granted capability plus everything it implies, transitively.
 * Cycles (`a -> b -> a`) are safe: each capability is visited once. The set lists the granted
 * capabilities first, in the order given, then the implied ones in the order found.
 */
export function closureOf(implications: Implications, grants: Iterable<string>): Set<string> {
  const closure = new Set<string>();
  const queue: string[] = [];
  for (const grant of grants) {
    if (!closure.has(grant)) {
      closure.add(grant);
      queue.push(grant);
    }
  }
  for (let i = 0; i < queue.length; i += 1) {
    for (const implied of implications.get(queue[i]!) ?? []) {
      if (!closure.has(implied)) {
        closure.add(implied);
        queue.push(implied);
      }
    }
  }
  return closure;
}

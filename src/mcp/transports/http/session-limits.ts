import { isPositiveInteger } from '../../../util/limits.js';
import { invalidOption } from '../../../util/options.js';

/** Default time a session may stay without any open HTTP request before it is closed (30 min). */
export const DEFAULT_SESSION_IDLE_MS = 30 * 60 * 1000;

/**
 * Default largest number of sessions open at once (1,000; an idle session costs about 50 KiB of
 * heap). A new session past it is refused with 503 (see `HttpHandlerOptions.maxSessions`).
 */
export const DEFAULT_MAX_SESSIONS = 1000;

/**
 * Default largest number of sessions one principal may hold open at once (100, a tenth of
 * `DEFAULT_MAX_SESSIONS`: ten principals are needed to fill a server, while an SDK client holds
 * one session per connection).
 */
export const DEFAULT_MAX_SESSIONS_PER_PRINCIPAL = 100;

/** Default largest number of sessions requests without a principal may hold open from one address (100). */
export const DEFAULT_MAX_SESSIONS_PER_ADDRESS = 100;

/**
 * Default time an unused session (nothing but `initialize` and notifications so far, never a GET
 * stream) may live before it is closed (60 s; an SDK client opens its GET stream or sends its
 * first request within milliseconds of `initialize`). Never longer than `sessionIdleMs`.
 */
export const DEFAULT_UNUSED_SESSION_IDLE_MS = 60 * 1000;

/** The option whose limit refused a new session. */
export type SessionLimit = 'maxSessions' | 'maxSessionsPerPrincipal' | 'maxSessionsPerAddress';

/**
 * The message of the 503 a new session past a limit gets, naming the limit and its value:
 * `Service Unavailable: too many open sessions on this server (maxSessions 1000); end one with
 * DELETE or retry later`, `... for this principal (maxSessionsPerPrincipal 100); ...`, `... from
 * 127.0.0.1 (maxSessionsPerAddress 100); ...` (an IPv6 address shown by its /64 prefix, as it is
 * counted).
 */
export function tooManySessionsMessage(max: number, limit: SessionLimit = 'maxSessions', address = ''): string {
  const whose =
    limit === 'maxSessions'
      ? 'on this server'
      : limit === 'maxSessionsPerPrincipal'
        ? 'for this principal'
        : `from ${address}`;
  return `Service Unavailable: too many open sessions ${whose} (${limit} ${max}); end one with DELETE or retry later`;
}

/** The session options of `createHttpHandler` that `resolveSessionLimits` checks. */
export interface SessionLimitOptions {
  readonly sessionIdleMs?: number;
  readonly unusedSessionIdleMs?: number;
  readonly maxSessions?: number;
  readonly maxSessionsPerPrincipal?: number;
  readonly maxSessionsPerAddress?: number;
}

/** The session options with their defaults filled in. */
export type SessionLimits = { readonly [K in keyof SessionLimitOptions]-?: number };

/**
 * Checks and completes the session options. Throws an `InvalidOptionError` (a `TypeError`) naming
 * the option and the value: `createHttpHandler: "sessionIdleMs" must be a positive number of
 * milliseconds, got 0` (also `unusedSessionIdleMs`), `createHttpHandler: "unusedSessionIdleMs"
 * must be at most sessionIdleMs (60000), got 120000`, `createHttpHandler: "maxSessions" must be a
 * positive integer or Infinity, got 1.5` (also `maxSessionsPerPrincipal`,
 * `maxSessionsPerAddress`). `unusedSessionIdleMs` defaults to the
 * shorter of `DEFAULT_UNUSED_SESSION_IDLE_MS` and `sessionIdleMs`.
 */
/** The entry point the session options belong to, as their messages name it. */
const WHERE = 'createHttpHandler';

export function resolveSessionLimits(options: SessionLimitOptions): SessionLimits {
  const sessionIdleMs = options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;
  checkMilliseconds('sessionIdleMs', sessionIdleMs);
  const unusedSessionIdleMs = options.unusedSessionIdleMs ?? Math.min(DEFAULT_UNUSED_SESSION_IDLE_MS, sessionIdleMs);
  checkMilliseconds('unusedSessionIdleMs', unusedSessionIdleMs);
  if (unusedSessionIdleMs > sessionIdleMs)
    throw invalidOption(WHERE, 'unusedSessionIdleMs', `at most sessionIdleMs (${sessionIdleMs})`, unusedSessionIdleMs);
  return {
    sessionIdleMs,
    unusedSessionIdleMs,
    maxSessions: count('maxSessions', options.maxSessions ?? DEFAULT_MAX_SESSIONS),
    maxSessionsPerPrincipal: count(
      'maxSessionsPerPrincipal',
      options.maxSessionsPerPrincipal ?? DEFAULT_MAX_SESSIONS_PER_PRINCIPAL,
    ),
    maxSessionsPerAddress: count(
      'maxSessionsPerAddress',
      options.maxSessionsPerAddress ?? DEFAULT_MAX_SESSIONS_PER_ADDRESS,
    ),
  };
}

function checkMilliseconds(name: string, value: unknown): void {
  if (typeof value !== 'number' || !(value > 0))
    throw invalidOption(WHERE, name, 'a positive number of milliseconds', value);
}

function count(name: string, value: number): number {
  if (!(isPositiveInteger(value) || value === Infinity))
    throw invalidOption(WHERE, name, 'a positive integer or Infinity', value);
  return value;
}

/** How many sessions each client holds (opening ones included), by client key. */
export class SessionCounts {
  private readonly counts = new Map<string, number>();

  /** How many sessions `key` holds. */
  of(key: string): number {
    return this.counts.get(key) ?? 0;
  }

  /** Counts one more session for `key`. */
  add(key: string): void {
    this.counts.set(key, this.of(key) + 1);
  }

  /** Counts one session less for `key` (a key that reaches zero is forgotten). */
  remove(key: string): void {
    const left = this.of(key) - 1;
    if (left > 0) this.counts.set(key, left);
    else this.counts.delete(key);
  }
}

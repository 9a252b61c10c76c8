import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorText, kindOf } from '../../../util/describe.js';
import { raceTimeout } from '../../../util/timeout.js';
import { checkOptionsObject, invalidOption, optionKeys } from '../../../util/options.js';
import { sendJson } from './json-response.js';

/** What one readiness check found (see `HealthOptions.checks`). */
export interface HealthCheckResult {
  readonly ok: boolean;
  /** What is wrong, in words (shown in the readiness body). */
  readonly detail?: string;
}

/**
 * The health endpoints of an HTTP server (the `health` option of `createHttpHandler`,
 * `listenHttp` and `serveHttp`). Every member is optional.
 */
export interface HealthOptions {
  /** The liveness path (default `/healthz`): 200 while the process answers at all. */
  readonly livePath?: string;
  /** The readiness path (default `/readyz`): 200 while the server takes calls, 503 once it drains or closes. */
  readonly readyPath?: string;
  /**
   * Shared services to report in the readiness body, by name (`{ redis: () => connection.health() }`).
   * Reported, never failing readiness: every process shares them, so taking one out of rotation
   * for them helps nobody, and calls that need none are served while they are away. Each check
   * is given `checkTimeoutMs`; a check that throws or takes longer reads `{ ok: false }` with why.
   */
  readonly checks?: Readonly<Record<string, () => HealthCheckResult | Promise<HealthCheckResult>>>;
  /**
   * How long one check may take, in milliseconds (default `DEFAULT_HEALTH_CHECK_TIMEOUT_MS`,
   * 250). Keep it well below the balancer's check timeout: a readiness answer that waits on a
   * frozen Redis past it would take every process out of rotation at once.
   */
  readonly checkTimeoutMs?: number;
}

const OPTION_KEYS = optionKeys<HealthOptions>()('livePath', 'readyPath', 'checks', 'checkTimeoutMs');

/** The default liveness path. */
export const DEFAULT_LIVE_PATH = '/healthz';
/** The default readiness path. */
export const DEFAULT_READY_PATH = '/readyz';
/** How long one readiness check may take by default, in milliseconds. */
export const DEFAULT_HEALTH_CHECK_TIMEOUT_MS = 250;

/** The health endpoints of one handler: `serve` answers a request for them (true) or leaves it (false). */
export interface HealthEndpoints {
  /**
   * Answers `req` when it asks for a health path and returns true; returns false for any other
   * path. Runs before the `Host`/`Origin` check and auth: a balancer's probe carries neither.
   */
  serve(req: IncomingMessage, res: ServerResponse): boolean;
  /** From now on readiness answers 503 `draining`. */
  drain(): void;
}

function checkPath(name: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !value.startsWith('/'))
    throw invalidOption(
      'createHttpHandler',
      `health.${name}`,
      'a path beginning with "/"',
      value,
      typeof value === 'string' ? JSON.stringify(value) : kindOf(value),
    );
  return value;
}

/**
 * Builds the health endpoints from the `health` option (`false`: none; `undefined`: the
 * defaults). Throws a `TypeError` naming a bad member. Both endpoints answer GET and HEAD with
 * JSON (`Cache-Control: no-store`), any other method 405:
 *
 * - liveness: 200 `{"status":"ok"}`, also while draining (the process is alive, and a
 *   supervisor must not kill it mid-drain);
 * - readiness: 200 `{"status":"ready","checks":{...}}`, or 503 `{"status":"draining",...}` once
 *   `drain()` was called (a shutdown began), with each check's `{ ok, detail? }`.
 */
export function healthEndpointsOf(option: HealthOptions | false | undefined): HealthEndpoints | undefined {
  if (option === false) return undefined;
  const given = option ?? {};
  checkOptionsObject('createHttpHandler: "health"', given, OPTION_KEYS);
  const livePath = checkPath('livePath', given.livePath) ?? DEFAULT_LIVE_PATH;
  const readyPath = checkPath('readyPath', given.readyPath) ?? DEFAULT_READY_PATH;
  const checks = Object.entries(given.checks ?? {});
  for (const [name, check] of checks)
    if (typeof check !== 'function')
      throw invalidOption('createHttpHandler', `health.checks.${name}`, 'a function', check);
  const timeoutMs = given.checkTimeoutMs ?? DEFAULT_HEALTH_CHECK_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0)
    throw invalidOption(
      'createHttpHandler',
      'health.checkTimeoutMs',
      'a positive whole number of milliseconds',
      timeoutMs,
    );
  let draining = false;

  const report = async (): Promise<Record<string, HealthCheckResult>> => {
    const results = await Promise.all(
      checks.map(async ([name, check]) => {
        try {
          const found = await raceTimeout(Promise.resolve().then(check), timeoutMs, () => ({
            ok: false,
            detail: `no answer within ${timeoutMs} ms`,
          }));
          return [
            name,
            found.ok === true
              ? { ok: true }
              : { ok: false, ...(found.detail === undefined ? {} : { detail: found.detail }) },
          ] as const;
        } catch (thrown) {
          return [name, { ok: false, detail: errorText(thrown) }] as const;
        }
      }),
    );
    return Object.fromEntries(results);
  };

  const send = (req: IncomingMessage, res: ServerResponse, status: number, body: object): void =>
    sendJson(res, status, body, { 'Cache-Control': 'no-store' }, req.method === 'HEAD');

  return {
    drain: () => {
      draining = true;
    },
    serve: (req, res) => {
      const raw = req.url ?? '/';
      const query = raw.indexOf('?');
      const path = query === -1 ? raw : raw.slice(0, query);
      if (path !== livePath && path !== readyPath) return false;
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        sendJson(res, 405, { status: 'method-not-allowed' }, { Allow: 'GET, HEAD' });
        return true;
      }
      if (path === livePath) {
        send(req, res, 200, { status: 'ok' });
        return true;
      }
      const wasDraining = draining;
      void report().then(
        (found) =>
          send(req, res, wasDraining || draining ? 503 : 200, {
            status: wasDraining || draining ? 'draining' : 'ready',
            ...(checks.length === 0 ? {} : { checks: found }),
          }),
        () => send(req, res, 503, { status: 'draining' }),
      );
      return true;
    },
  };
}

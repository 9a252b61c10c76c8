import { isPositiveInteger } from '../../util/limits.js';
import { warnOnStderr } from '../../util/warn.js';
import { type SchemaValidator } from '../../compiler/validation/index.js';
import { checkValidatorOption } from '../../compiler/internal.js';
import { checkInterceptors } from '../interceptors/interceptors.js';
import type { Interceptor } from '../interceptors/types.js';
import { PermissionPolicy } from '../permissions/policy.js';
import { checkTimeout } from './time-limit.js';
import { DEFAULT_MAX_OUTPUT_CHARS } from '../output-limits/defaults.js';
import { invalidOption } from '../../util/options.js';
import { recordWatch, type CallWatch, type OnRecord } from './call-steps.js';
import { checkTelemetryOption, type TelemetryOptions } from '../telemetry/options.js';
import { tracingWatch } from '../telemetry/tracing-watch.js';
import { metricsWatch } from '../telemetry/metrics.js';

/**
 * What every host runs its calls with; the same options on `Executor`, `createServer`,
 * `serveStdio`, `serveHttp` and `prepareTools`. Every member is optional.
 */
export interface CallCoreOptions {
  /**
   * Decides `@Requires` and `ctx.requirePermission` (see `PermissionPolicy`); without one, the
   * host's own `requirePermission` decides (nothing is granted by default).
   */
  readonly policy?: PermissionPolicy;
  /** Run around every call, in this order (see `Interceptor`). */
  readonly interceptors?: readonly Interceptor[];
  /**
   * A bound on the characters of each final result for tools that state no `maxOutputChars`
   * (`@MaxOutput`) of their own: a positive integer, default `DEFAULT_MAX_OUTPUT_CHARS`
   * (100,000), so one tool returning megabytes cannot flood a client or its model. `Infinity`
   * switches the default off (a tool's own bound still applies; the transports'
   * `maxMessageBytes` still turns a message too big to send into an `isError` result).
   */
  readonly maxOutputChars?: number;
  /**
   * A time limit for each run of `execute` for tools that state no `timeoutMs` (`@Timeout`) of
   * their own (milliseconds). Default none: a tool with no limit that never settles holds its
   * call until the client cancels it or the connection closes.
   */
  readonly timeoutMs?: number;
  /**
   * What compiles hand-built tools' argument schemas and every output schema (default: the default
   * validator; see `SchemaValidator`).
   */
  readonly validator?: SchemaValidator;
  /**
   * Receives one-line warnings about the tool set (a schema in a JSON Schema dialect no validator
   * here knows is served unvalidated). Default: a stderr line prefixed `toolwright: `.
   */
  readonly log?: (message: string) => void;
  /**
   * Told every record of every call, in order, as the core learns of it, with the call it belongs
   * to (`call.tool`, `call.id`, `call.args`): each record the tool writes with `ctx.writeRecord`,
   * at once as it is written (so a record written before a failure or a time limit still
   * arrives); then, when the call ends, the record the tool returned (or its error carries); and
   * under a `policy`, the permissions record (`toolwright:permissions`, the call's decisions and
   * grants) when the permissions step ends. The result keeps one record, as the wire serves one:
   * the tool's (returned, else the last written), else the permissions record; so this hook is
   * where a host reads the permission decisions of a call whose tool kept a record of its own.
   * Called synchronously; a throw is ignored (it never changes the call). Default: none.
   */
  readonly onRecord?: OnRecord;
  /**
   * OpenTelemetry for this host's calls (see `TelemetryOptions` and docs/observability.md):
   * when a tracer provider is registered with `@opentelemetry/api`, every call gets a span
   * (`execute_tool <tool>`) with its waits and permission questions, and when a meter provider
   * is, the call metrics are kept. Default: on, recording neither arguments nor results; it costs
   * nothing without a registered provider (the API is not even loaded). `false` switches it off.
   */
  readonly telemetry?: TelemetryOptions | false;
}

/** The keys of `CallCoreOptions`, for the options checks of the hosts that take them. */
export const CALL_CORE_OPTION_KEYS = [
  'policy',
  'interceptors',
  'maxOutputChars',
  'timeoutMs',
  'validator',
  'log',
  'onRecord',
  'telemetry',
] as const satisfies readonly (keyof CallCoreOptions)[];

/** `CallCoreOptions` after checking, with the defaults applied. */
export interface CoreSettings {
  readonly policy: PermissionPolicy | undefined;
  readonly interceptors: readonly Interceptor[];
  readonly maxOutputChars: number | undefined;
  readonly timeoutMs: number | undefined;
  readonly validator: SchemaValidator | undefined;
  readonly log: (message: string) => void;
  /** What watches the calls' steps (the `onRecord` hook's watch, the tracing watch unless `telemetry: false`). */
  readonly watches: readonly CallWatch[];
}

/**
 * Checks the call-core members of a host's options and returns them as settings. Throws a
 * `TypeError` beginning with `where` naming the bad option: `"policy" must be a PermissionPolicy
 * (made with createPolicy)`, a bad interceptor (see `checkInterceptors`), `"maxOutputChars" must
 * be a positive integer or Infinity, got 0`, `"timeoutMs" expected a positive number of milliseconds ...`,
 * or a `validator` without a `compile` function.
 */
export function coreSettingsOf(options: CallCoreOptions, where: string): CoreSettings {
  const { policy, interceptors, maxOutputChars, timeoutMs, validator, log, onRecord, telemetry } = options;
  const traced = checkTelemetryOption(telemetry, where);
  if (log !== undefined && typeof log !== 'function') throw invalidOption(where, 'log', 'a function', log);
  if (onRecord !== undefined && typeof onRecord !== 'function')
    throw invalidOption(where, 'onRecord', 'a function (record, call) => void', onRecord);
  if (policy !== undefined && !(policy instanceof PermissionPolicy)) {
    throw invalidOption(where, 'policy', 'a PermissionPolicy (made with createPolicy)', policy);
  }
  if (maxOutputChars !== undefined && maxOutputChars !== Infinity && !isPositiveInteger(maxOutputChars)) {
    throw invalidOption(where, 'maxOutputChars', 'a positive integer or Infinity', maxOutputChars);
  }
  const timeoutProblem = checkTimeout(timeoutMs);
  if (timeoutProblem !== undefined) throw new TypeError(`${where}: "timeoutMs" ${timeoutProblem}`);
  return Object.freeze({
    policy,
    interceptors: interceptors === undefined ? Object.freeze([]) : checkInterceptors(interceptors, where),
    maxOutputChars:
      maxOutputChars === undefined
        ? DEFAULT_MAX_OUTPUT_CHARS
        : maxOutputChars === Infinity
          ? undefined
          : maxOutputChars,
    timeoutMs,
    validator: checkValidatorOption(validator, where),
    log: log ?? warnOnStderr,
    watches: Object.freeze([
      ...(onRecord === undefined ? [] : [recordWatch(onRecord)]),
      ...(traced === undefined ? [] : [tracingWatch(traced), metricsWatch()]),
    ]),
  });
}

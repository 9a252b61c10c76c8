import { InvalidOptionError, invalidOption } from '../../util/options.js';

/**
 * How a host's calls are traced and measured with OpenTelemetry (the call-core option
 * `telemetry`). Tracing and metrics need no option: they happen whenever a tracer provider (or
 * a meter provider) is registered with `@opentelemetry/api`, and cost nothing when none is.
 * `false` switches both off for the host even when a provider is registered.
 */
export interface TelemetryOptions {
  /**
   * Record each call's arguments, as JSON text, in `gen_ai.tool.call.arguments` on its span.
   * Default `false`: argument values never leave the process through telemetry.
   */
  readonly recordArguments?: boolean;
  /**
   * Record each call's result, as JSON text, in `gen_ai.tool.call.result` on its span. Default
   * `false`: results never leave the process through telemetry.
   */
  readonly recordResults?: boolean;
}

/** The keys of `TelemetryOptions`, for its check. */
const TELEMETRY_KEYS: readonly string[] = ['recordArguments', 'recordResults'];

/**
 * Checks a host's `telemetry` option: `undefined` (on, nothing recorded beyond the defaults),
 * `false` (off) or a `TelemetryOptions` object with boolean members. Returns `undefined` for
 * off. Throws an `InvalidOptionError` naming `where`, the key and what is expected.
 */
export function checkTelemetryOption(value: unknown, where: string): TelemetryOptions | undefined {
  if (value === undefined) return {};
  if (value === false) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw invalidOption(where, 'telemetry', 'false or an object { recordArguments?, recordResults? }', value);
  for (const key of Object.keys(value)) {
    if (!TELEMETRY_KEYS.includes(key))
      throw new InvalidOptionError(
        `${where}: unknown option "telemetry.${key}" (known options: ${TELEMETRY_KEYS.join(', ')})`,
      );
    const given = (value as Record<string, unknown>)[key];
    if (given !== undefined && typeof given !== 'boolean')
      throw invalidOption(where, `telemetry.${key}`, 'true or false', given);
  }
  return value as TelemetryOptions;
}

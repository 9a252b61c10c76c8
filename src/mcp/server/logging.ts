import type { LogLevel } from '../../contract/index.js';

/** MCP's log levels, least severe first. */
export const LOG_LEVELS: readonly LogLevel[] = Object.freeze([
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
]);

const SEVERITY: ReadonlyMap<string, number> = new Map(LOG_LEVELS.map((level, index) => [level, index]));

/** True when `value` is one of MCP's log levels. */
export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && SEVERITY.has(value);
}

/**
 * True when a message at `level` passes a client's minimum level. With no minimum set (the
 * client never sent `logging/setLevel`) every message passes.
 */
export function passesLevel(level: LogLevel, minimum: LogLevel | undefined): boolean {
  if (minimum === undefined) return true;
  return SEVERITY.get(level)! >= SEVERITY.get(minimum)!;
}

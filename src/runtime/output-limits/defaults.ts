import { isPositiveInteger } from '../../util/limits.js';

/**
 * The bound a served tool's final result gets when neither the tool (`@MaxOutput`) nor the
 * server (`maxOutputChars`) states one: 100,000 characters (about 25,000 tokens, what MCP hosts
 * commonly show a model of one result). Text past it is cut with a marker (see `boundResult`),
 * so one tool returning megabytes cannot flood a client or its model.
 */
export const DEFAULT_MAX_OUTPUT_CHARS = 100_000;

/**
 * The server-wide output bound a server option asks for: `undefined` is the default
 * (`DEFAULT_MAX_OUTPUT_CHARS`); `Infinity` switches the default off (a tool's own `@MaxOutput`
 * still applies; the transports' `maxMessageBytes` still guards the connection); a positive
 * integer is used as given. Returns the bound to apply, `undefined` for none. Throws a
 * `TypeError` beginning with `where` for anything else.
 */
export function serverOutputBoundOf(given: number | undefined, where: string): number | undefined {
  if (given === undefined) return DEFAULT_MAX_OUTPUT_CHARS;
  if (given === Infinity) return undefined;
  if (!isPositiveInteger(given)) throw new TypeError(`${where}: "maxOutputChars" must be a positive integer or Infinity, got ${String(given)}`);
  return given;
}

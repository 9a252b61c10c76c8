/**
 * What the edge bench's three servers share about their tools: how a server child reads its
 * arguments, and what the 6-property echo tool answers. Every server serves `echo6` plus
 * `toolCount - 1` copies of it (`echo6_2`, `echo6_3`, ...), each with a schema of its own, so a
 * cold start with 100 or 1,000 tools builds 100 or 1,000 schemas on every side.
 */
import type { Json, JsonObject } from 'toolwright';

/**
 * How the bench starts a server child: `node <server>.js [stdio|http|http-stateless] [toolCount]`.
 * `http` serves 2025-era clients with a session each (and, where the server speaks it, the
 * 2026-07-28 era per request); `http-stateless` serves every request on its own, with no session.
 */
export interface ServerArgs {
  readonly transport: 'stdio' | 'http' | 'http-stateless';
  readonly toolCount: number;
}

const TRANSPORTS: ReadonlySet<string> = new Set(['stdio', 'http', 'http-stateless']);

/**
 * Reads `process.argv`: transport `stdio` unless `http` or `http-stateless` is given; tool count 1
 * unless a positive integer up to 10,000 is given.
 */
export function serverArgs(argv: readonly string[] = process.argv): ServerArgs {
  const count = Number(argv[3] ?? '1');
  if (!Number.isInteger(count) || count < 1 || count > 10_000)
    throw new RangeError(`tool count must be an integer from 1 to 10,000, got ${String(argv[3])}`);
  const transport = argv[2] ?? 'stdio';
  if (!TRANSPORTS.has(transport))
    throw new RangeError(`transport must be stdio, http or http-stateless, got ${transport}`);
  return { transport: transport as ServerArgs['transport'], toolCount: count };
}

/** The name of the tool at `index` (0-based): `echo6`, then `echo6_2`, `echo6_3`, ... */
export function toolName(index: number): string {
  return index === 0 ? 'echo6' : `echo6_${index + 1}`;
}

/** The tool's description, the same on every side. */
export const DESCRIPTION =
  'Echoes the text back, repeated count times (1 to 5), joined by the separator, between prefix and suffix, upper-cased on request.';

/** The arguments of one echo6 call. */
export interface Echo6Input {
  text: string;
  count?: number | undefined;
  separator?: string | undefined;
  prefix?: string | undefined;
  suffix?: string | undefined;
  upper?: boolean | undefined;
}

/**
 * What echo6 answers: `prefix + (text repeated count times, joined by separator) + suffix`,
 * upper-cased when `upper`.
 */
export function echo6(input: Echo6Input): string {
  const joined = `${input.prefix ?? ''}${Array.from({ length: input.count ?? 1 }, () => input.text).join(input.separator ?? ' ')}${input.suffix ?? ''}`;
  return input.upper === true ? joined.toUpperCase() : joined;
}

/**
 * A fresh JSON Schema of echo6's arguments (each call makes a new object, so each tool gets its
 * own): the one toolwright generates from the decorated DTO, written by hand.
 */
export function echo6Schema(): { type: 'object'; [key: string]: Json } {
  return {
    type: 'object',
    properties: {
      text: { type: 'string', maxLength: 10_000, description: 'The text to echo back' },
      count: { type: 'integer', minimum: 1, maximum: 5, description: 'How many times to repeat it (default 1)' },
      separator: { type: 'string', maxLength: 10, description: 'What goes between the copies (default one space)' },
      prefix: { type: 'string', maxLength: 100, description: 'What goes before the copies' },
      suffix: { type: 'string', maxLength: 100, description: 'What goes after the copies' },
      upper: { type: 'boolean', description: 'Upper-case the answer' },
    },
    required: ['text'],
    additionalProperties: false,
  };
}

/**
 * The tool every HTTP server of the bench also serves, for the memory of a call waiting for the
 * client's answer: `ask` asks the user to confirm (`{ ok: boolean }`) and answers `true` or
 * `false`. In the 2026-07-28 era a toolwright server parks the call until the retry; the SDK's
 * answers `inputRequired` and keeps nothing.
 */
export const ASK_TOOL = {
  name: 'ask',
  description: 'Asks the user to confirm, then says whether they did.',
  question: 'Go ahead?',
  answerSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } as JsonObject,
} as const;

import * as z from 'zod/v4';
import { FACTS_METHOD } from './constants.js';

/*
 * The low-level SDK `Server` routes a request by the `method` literal of a zod schema and parses
 * the request with it before the handler runs; a parse failure becomes a `-32603` error with a
 * zod dump. These schemas check only the method and leave `params` to the handlers, which answer
 * malformed params with `-32602` and a readable message. They use `zod/v4`, the zod the SDK
 * itself imports (zod is the SDK's peer dependency, so it is always there with it).
 */

/** `tools/list`, params unchecked (pagination is not used: every tool is listed at once). */
export const ListToolsRequest = z.object({ method: z.literal('tools/list'), params: z.unknown().optional() });

/** `tools/call`, registered past the SDK Server's own wrapper (see `serveTools`); the handler checks the params. */
export const CallToolRequest = z.object({ method: z.literal('tools/call'), params: z.unknown().optional() });

/** `execution/facts`. */
export const FactsRequest = z.object({ method: z.literal(FACTS_METHOD), params: z.unknown().optional() });

/** `logging/setLevel`. */
export const SetLevelRequest = z.object({ method: z.literal('logging/setLevel'), params: z.unknown().optional() });


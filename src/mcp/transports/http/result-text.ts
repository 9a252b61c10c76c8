import { SERVER_INFO_META_KEY, type RequestId } from '@modelcontextprotocol/server';

/**
 * The JSON text of the response to a 2026-07-28 `tools/call` whose handler resolved `result`,
 * or `undefined` when it must be made the general way (the message object with
 * `codec.encodeResult`, then `JSON.stringify`).
 */
export type ResultText = (method: string, id: RequestId, result: Record<string, unknown>) => string | undefined;

/** The member of the SDK's 2026-07-28 wire codec `resultTextOf` checks itself against (see `ModernCodec`). */
interface ResultEncoder {
  encodeResult(method: string, result: Record<string, unknown>, serverInfo: unknown): Record<string, unknown>;
}

/** What a `ResultText` that never has a text answers. */
const NONE: ResultText = () => undefined;

/** Results the check in `resultTextOf` encodes both ways. */
const PROBES: readonly Record<string, unknown>[] = [
  { content: [{ type: 'text', text: 'probe' }] },
  { content: [{ type: 'text', text: 'probe' }], isError: true, structuredContent: { a: [1, null] } },
  {},
];

/**
 * How the direct 2026-07-28 path writes a `tools/call` result without the codec's copies: for a
 * plain result object that has no `resultType`, `_meta`, `capabilities` or `toJSON`, the SDK's
 * `encodeResult` copies it twice to append `resultType: "complete"` and then `_meta` holding
 * `serverInfo` under `SERVER_INFO_META_KEY` (nothing else changes on a `tools/call`), so its
 * text is the result's own JSON text with those two members' text (made once) spliced in before
 * its closing brace, in the message `{"result":...,"jsonrpc":"2.0","id":...}`. Byte for byte the
 * text of the general way (a result `JSON.stringify` throws on is left to it, to fail there as it
 * does): checked here against `codec.encodeResult` on a few results (`PROBES`),
 * and when any differs (another SDK version), the returned function always answers `undefined`.
 */
export function resultTextOf(codec: ResultEncoder, serverInfo: unknown): ResultText {
  const stamps = `"resultType":"complete","_meta":${JSON.stringify({ [SERVER_INFO_META_KEY]: serverInfo })}`;
  const text: ResultText = (method, id, result) => {
    if (
      method !== 'tools/call' ||
      Object.getPrototypeOf(result) !== Object.prototype ||
      'resultType' in result ||
      '_meta' in result ||
      'capabilities' in result ||
      'toJSON' in result
    )
      return undefined;
    let own: string;
    try {
      own = JSON.stringify(result);
    } catch {
      // Not JSON (a cycle, a BigInt): the general way fails as it always did.
      return undefined;
    }
    const body = own.length === 2 ? `{${stamps}}` : `${own.slice(0, -1)},${stamps}}`;
    return `{"result":${body},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`;
  };
  try {
    for (const probe of PROBES) {
      const general = JSON.stringify({
        result: codec.encodeResult('tools/call', probe, serverInfo),
        jsonrpc: '2.0',
        id: 7,
      });
      if (text('tools/call', 7, probe) !== general) return NONE;
    }
  } catch {
    return NONE;
  }
  return text;
}

import type { ClientCapabilities } from '@modelcontextprotocol/server';
import { ProtocolErrorCode } from '@modelcontextprotocol/server';
import { ProtocolError } from '../protocol-error.js';

/** The client capability an input request needs, by method (elicitation modes are checked by the elicitor). */
const REQUIRED_CAPABILITY: ReadonlyMap<string, string> = new Map([
  ['sampling/createMessage', 'sampling'],
  ['roots/list', 'roots'],
]);

/**
 * The `-32021` error of a 2026-07-28 question (`method`) whose request's client capabilities do
 * not declare what it needs (`sampling`, `roots`): `Cannot request input '<key>' (<method>): the
 * request's client capabilities do not declare the required capability` (without `'<key>'` when
 * none is given), `data: {requiredCapabilities: {<capability>: {}}}`, with the capability's
 * name; `undefined` when the capabilities offer it or the method needs none.
 */
export function missingCapabilityOf(
  method: string,
  capabilities: ClientCapabilities | undefined,
  key?: string,
): { readonly capability: string; readonly error: ProtocolError } | undefined {
  const capability = REQUIRED_CAPABILITY.get(method);
  if (capability === undefined || (capabilities as Record<string, unknown> | undefined)?.[capability] !== undefined)
    return undefined;
  const error = new ProtocolError(
    ProtocolErrorCode.MissingRequiredClientCapability,
    `Cannot request input${key === undefined ? '' : ` '${key}'`} (${method}): the request's client capabilities do not declare the required capability`,
    { requiredCapabilities: { [capability]: {} } },
  );
  return { capability, error };
}

/** The prefix of a question's generated key by method: `sample`, `roots`, else `elicit`. */
export function questionKeyPrefixOf(method: string): string {
  return method === 'sampling/createMessage' ? 'sample' : method === 'roots/list' ? 'roots' : 'elicit';
}

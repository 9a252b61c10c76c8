import { RootsUnavailableError, isJsonObject, type Root } from '../../contract/index.js';
import { keyOf } from './elicit.js';
import type { HandlerExtra } from './extra.js';

/**
 * Makes `ctx.roots` for one call: a `roots/list` request resolving the client's roots
 * (`{uri, name?}`, other fields dropped). In the 2025 era it is pushed on the call's own request
 * stream and rejects with `RootsUnavailableError` when the client offered no `roots` capability
 * (nothing is sent); in the 2026-07-28 era it rides the call's input round (see `ParkedRun`),
 * where a request whose capabilities do not offer roots fails with `-32021`. Rejects when the
 * answer has no `roots` array of objects with a string `uri`. Cancelling the call cancels it.
 * `signalOf` gives the call's signal; it is read only when a request is sent.
 */
export function rootsListerOf(
  extra: HandlerExtra,
  signalOf: () => AbortSignal,
): (options?: { readonly key?: string }) => Promise<readonly Root[]> {
  return async (options = {}) => {
    if (extra.era === 'legacy' && extra.clientCapabilities()?.roots === undefined) throw new RootsUnavailableError();
    const answer = (await extra.sendRequest(
      { method: 'roots/list', params: {}, ...keyOf(options.key) },
      { signal: signalOf() },
    )) as { roots?: unknown };
    if (
      !Array.isArray(answer?.roots) ||
      !answer.roots.every((root) => isJsonObject(root) && typeof root.uri === 'string')
    ) {
      throw new Error('roots/list: the client answered no "roots" array of objects with a string "uri"');
    }
    return Object.freeze(
      answer.roots.map((root: { uri: string; name?: unknown }) =>
        Object.freeze(typeof root.name === 'string' ? { uri: root.uri, name: root.name } : { uri: root.uri }),
      ),
    );
  };
}

import { ProtocolErrorCode, type Server, type ServerContext } from '@modelcontextprotocol/server';
import type { CallContext } from '../../contract/index.js';
import { bindingOf } from './add-tools.js';
import {
  answerComplete,
  answerGetPrompt,
  answerPromptsList,
  answerRead,
  answerResourcesList,
  answerTemplatesList,
  promptOf,
  subscribedUriOf,
  type FeatureContextOf,
} from './answer-features.js';
import { mcpCallContextOf } from './call-context.js';
import type { HandlerExtra } from './extra.js';
import type { ServedFeatures } from './features.js';
import { hinted, type CacheableMethod } from './cache-hints.js';
import type { LiveSet } from './live-set.js';
import { answerModernToolCall } from './input-rounds/modern-call.js';
import type { ParkedRuns, RunBinding } from './input-rounds/parked-runs.js';
import { ownHandlersOf } from './own-handlers.js';
import { ProtocolError } from './protocol-error.js';
import { stateOf, type ServerState } from './state.js';

/** The SDK `Server` members the feature handlers use. */
type FeatureServer = { onclose?: () => void };

/**
 * Runs `answer` with a context maker for the request `extra` serves: each context is a
 * `mcpCallContextOf` context of the request (its log, progress, elicitation, principal,
 * session), and every context made is finished once the answer settles, so later progress and
 * log messages are dropped.
 */
async function withContexts<T>(
  state: ServerState,
  extra: HandlerExtra,
  answer: (contextOf: FeatureContextOf) => Promise<T>,
): Promise<T> {
  const finishes: (() => void)[] = [];
  const contextOf: FeatureContextOf = (name, args): CallContext => {
    const made = mcpCallContextOf(state, extra, { id: String(extra.requestId), tool: name, args });
    finishes.push(made.finish);
    return made.ctx;
  };
  try {
    return await answer(contextOf);
  } finally {
    for (const finish of finishes) finish();
  }
}

/**
 * Serves the resources and prompts of `live` on a server `addTools` (or `createServer`) already
 * serves tools on, through the same fallback handler: `resources/list`,
 * `resources/templates/list`, `resources/read`, `resources/subscribe` and
 * `resources/unsubscribe` (2025 era only; the 2026-07-28 era subscribes on
 * `subscriptions/listen`) when the set serves resources now; `prompts/list` and `prompts/get`
 * when it serves prompts (a rendering that asks the user is parked as a 2026-07-28 input round
 * under `prompt:<name>`, or asks with `elicitation/create` in the 2025 era); and
 * `completion/complete` when something completes. Each request reads the set as it is when the
 * request arrives (see `LiveSet`). The capabilities must already be declared (see
 * `featureCapabilitiesOf`). The lists and reads carry the set's caching hints in the 2026-07-28
 * era (see `CacheHints`).
 *
 * A 2025-era client's subscriptions are kept in the server's state (`subscribed`), told to the
 * application's `changes` (`noteSubscription`: a proxy subscribes upstream), and ended when the
 * server closes; what reaches a subscriber is `followChanges`'s. Throws when the server serves
 * no toolwright tools yet.
 */
export function serveFeatures(server: Server, live: LiveSet, runs: ParkedRuns): void {
  const state = stateOf(server);
  if (state === undefined) throw new Error('serveFeatures: serve the tools first (addTools or createServer)');
  const served = live.features;
  if (served === undefined) return;
  const target = server as unknown as FeatureServer;
  const own = ownHandlersOf(server);
  // The set serves what it served when this server was made, or more: a kind never goes away.
  const features = (): ServedFeatures => live.features ?? served;
  const withRequest = <T>(extra: HandlerExtra, answer: (contextOf: FeatureContextOf) => Promise<T>): Promise<T> =>
    withContexts(state, extra, answer);
  const hint =
    (method: CacheableMethod, extra: HandlerExtra) =>
    (result: Record<string, unknown>): Record<string, unknown> =>
      hinted(result, extra.era, () => live.hintOf(method));
  const subscribed = state.subscribed;

  if (served.resources !== undefined) {
    own.set('resources/list', (params, extra) =>
      withRequest(extra, (contextOf) => answerResourcesList(features(), params, contextOf)).then(
        hint('resources/list', extra),
      ),
    );
    own.set('resources/templates/list', (params, extra) =>
      hint('resources/templates/list', extra)(answerTemplatesList(features(), params)),
    );
    own.set('resources/read', (params, extra) =>
      withRequest(extra, (contextOf) => answerRead(features(), params, contextOf)).then(hint('resources/read', extra)),
    );
    own.set('resources/subscribe', (params, extra) => {
      if (extra.era === 'modern') throw new ProtocolError(ProtocolErrorCode.MethodNotFound, 'Method not found');
      const uri = subscribedUriOf(features(), params, 'resources/subscribe');
      if (!subscribed.has(uri)) {
        subscribed.add(uri);
        features().changes?.noteSubscription(uri, true);
      }
      return {};
    });
    own.set('resources/unsubscribe', (params, extra) => {
      if (extra.era === 'modern') throw new ProtocolError(ProtocolErrorCode.MethodNotFound, 'Method not found');
      const uri = subscribedUriOf(features(), params, 'resources/unsubscribe');
      if (subscribed.delete(uri)) features().changes?.noteSubscription(uri, false);
      return {};
    });
    const previous = target.onclose;
    target.onclose = () => {
      for (const uri of subscribed) features().changes?.noteSubscription(uri, false);
      subscribed.clear();
      previous?.();
    };
  }
  if (served.prompts !== undefined) {
    own.set('prompts/list', (params, extra) => hint('prompts/list', extra)(answerPromptsList(features(), params)));
    // On stateless HTTP every 2026-era request has a server of its own (see addTools).
    const connection = state.transport === 'http' ? undefined : (server as object);
    own.set('prompts/get', async (params, extra, ctx) => {
      const current = features();
      const execute = (runExtra: HandlerExtra) =>
        withRequest(runExtra, (contextOf) => answerGetPrompt(current, params, contextOf));
      if (extra.era === 'legacy') return execute(extra);
      const name = promptOf(current, params).prompt.name;
      const binding: RunBinding = bindingOf(ctx as ServerContext, connection);
      const result = await answerModernToolCall(runs, binding, params, extra, ctx, execute, `prompt:${name}`);
      return staleAsError(result);
    });
  }
  if (served.completes)
    own.set('completion/complete', (params, extra) =>
      withRequest(extra, (contextOf) => answerComplete(features(), params, contextOf)),
    );
}

/**
 * A `prompts/get` retry whose state names no waiting rendering gets the tools' "call again"
 * result from the input rounds; a prompt has no error result, so it becomes `-32602` with that
 * text. Every other result is returned as it is.
 */
function staleAsError(result: Record<string, unknown>): Record<string, unknown> {
  if (result.isError !== true || 'messages' in result) return result;
  const content = Array.isArray(result.content) ? (result.content[0] as { text?: unknown } | undefined) : undefined;
  throw new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    typeof content?.text === 'string' ? content.text : 'the rendering is no longer waiting',
  );
}

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
import type { HandlerExtra, ProtocolEra } from './extra.js';
import type { ServedFeatures } from './features.js';
import { answerModernToolCall } from './input-rounds/modern-call.js';
import type { ParkedRuns, RunBinding } from './input-rounds/parked-runs.js';
import { ownHandlersOf } from './own-handlers.js';
import { ProtocolError } from './protocol-error.js';
import { stateOf, type ServerState } from './state.js';

/** The SDK `Server` members the feature handlers use. */
type FeatureServer = Pick<Server, 'sendResourceUpdated' | 'sendResourceListChanged'> & {
  readonly transport?: unknown;
  onclose?: () => void;
};

/**
 * Runs `answer` with a context maker for the request `extra` serves: each context is a
 * `mcpCallContextOf` context of the request (its log, progress, elicitation, principal,
 * session), and every context made is finished once the answer settles, so later progress and
 * log messages are dropped.
 */
async function withContexts<T>(
  server: object,
  state: ServerState,
  extra: HandlerExtra,
  answer: (contextOf: FeatureContextOf) => Promise<T>,
): Promise<T> {
  const finishes: (() => void)[] = [];
  const contextOf: FeatureContextOf = (name, args): CallContext => {
    const made = mcpCallContextOf(server, state, extra, { id: String(extra.requestId), tool: name, args });
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
 * Serves `features` on a server `addTools` (or `createServer`) already serves tools on, through
 * the same fallback handler: `resources/list`, `resources/templates/list`, `resources/read`,
 * `resources/subscribe` and `resources/unsubscribe` (2025 era only; the 2026-07-28 era
 * subscribes on `subscriptions/listen`) when it has resources; `prompts/list` and `prompts/get`
 * when it has prompts (a rendering that asks the user is parked as a 2026-07-28 input round
 * under `prompt:<name>`, or asks with `elicitation/create` in the 2025 era); and
 * `completion/complete` when something completes. The capabilities must already be declared
 * (see `featureCapabilitiesOf`).
 *
 * With `features.changes`, the server tells its client of announced changes while it is
 * connected: a 2025-era session of `resources/updated` for the URIs it subscribed to, and of
 * `resources/list_changed`; a 2026-07-28 stdio connection of every change (the SDK's listen
 * router then sends each to the streams that asked for it). `era` is what the server was made
 * for (`modern` on a 2026-07-28 request or connection); a 2026-07-28 HTTP server lives for one
 * request and is never told (its endpoint's change bus tells the listen streams). Throws when
 * the server serves no toolwright tools yet.
 */
export function serveFeatures(
  server: Server,
  features: ServedFeatures,
  runs: ParkedRuns,
  era: ProtocolEra | undefined,
): void {
  const state = stateOf(server);
  if (state === undefined) throw new Error('serveFeatures: serve the tools first (addTools or createServer)');
  const target = server as unknown as FeatureServer;
  const own = ownHandlersOf(server);
  const withRequest = <T>(extra: HandlerExtra, answer: (contextOf: FeatureContextOf) => Promise<T>): Promise<T> =>
    withContexts(server, state, extra, answer);
  const subscribed = new Set<string>();

  if (features.resources !== undefined) {
    own.set('resources/list', (params, extra) =>
      withRequest(extra, (contextOf) => answerResourcesList(features, params, contextOf)),
    );
    own.set('resources/templates/list', (params) => answerTemplatesList(features, params));
    own.set('resources/read', (params, extra) =>
      withRequest(extra, (contextOf) => answerRead(features, params, contextOf)),
    );
    own.set('resources/subscribe', (params, extra) => {
      if (extra.era === 'modern') throw new ProtocolError(ProtocolErrorCode.MethodNotFound, 'Method not found');
      const uri = subscribedUriOf(features, params, 'resources/subscribe');
      if (!subscribed.has(uri)) {
        subscribed.add(uri);
        features.changes?.noteSubscription(uri, true);
      }
      return {};
    });
    own.set('resources/unsubscribe', (params, extra) => {
      if (extra.era === 'modern') throw new ProtocolError(ProtocolErrorCode.MethodNotFound, 'Method not found');
      const uri = subscribedUriOf(features, params, 'resources/unsubscribe');
      if (subscribed.delete(uri)) features.changes?.noteSubscription(uri, false);
      return {};
    });
  }
  if (features.prompts !== undefined) {
    own.set('prompts/list', (params) => answerPromptsList(features, params));
    // On stateless HTTP every 2026-era request has a server of its own (see addTools).
    const connection = state.transport === 'http' ? undefined : (server as object);
    own.set('prompts/get', async (params, extra, ctx) => {
      const execute = (runExtra: HandlerExtra) =>
        withRequest(runExtra, (contextOf) => answerGetPrompt(features, params, contextOf));
      if (extra.era === 'legacy') return execute(extra);
      const name = promptOf(features, params).prompt.name;
      const binding: RunBinding = bindingOf(ctx as ServerContext, connection);
      const result = await answerModernToolCall(runs, binding, params, extra, ctx, execute, `prompt:${name}`);
      return staleAsError(result);
    });
  }
  if (features.completes)
    own.set('completion/complete', (params, extra) =>
      withRequest(extra, (contextOf) => answerComplete(features, params, contextOf)),
    );

  const changes = features.changes;
  if (changes === undefined || features.resources === undefined) return;
  const endSubscriptions = (): void => {
    for (const uri of subscribed) changes.noteSubscription(uri, false);
    subscribed.clear();
  };
  if (era === 'modern' && state.transport === 'http') return;
  const forwardAll = era === 'modern';
  const stop = changes.listen({
    resourceUpdated: (uri) => {
      if (target.transport === undefined || (!forwardAll && !subscribed.has(uri))) return;
      void target.sendResourceUpdated({ uri }).catch(() => undefined);
    },
    resourcesChanged: () => {
      if (target.transport === undefined) return;
      void target.sendResourceListChanged().catch(() => undefined);
    },
  });
  const previous = target.onclose;
  target.onclose = () => {
    stop();
    endSubscriptions();
    previous?.();
  };
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

import type { ServerContext } from '@modelcontextprotocol/server';
import type { ServerOptions } from './add-tools.js';
import { bindingOf, listedToolsOf } from './add-tools.js';
import { answerToolCall } from './call.js';
import { handlerExtraOf, type ClientCapabilitiesHolder, type HandlerExtra } from './extra.js';
import { answerModernToolCall } from './input-rounds/modern-call.js';
import type { ParkedRuns } from './input-rounds/parked-runs.js';
import type { RequestCancellation } from './input-rounds/request-cancellation.js';
import type { LiveSet } from './live-set.js';
import { traceRequest } from './request-span.js';
import { taskRunnerOf } from './tasks/serve-tasks.js';
import { ToolServerState } from './tool-server-state.js';

/**
 * Answers one 2026-07-28 `tools/call` with no SDK `Server` behind it: `params` are the request's
 * params with the envelope lifted out, `ctx` the request context the SDK's dispatch would have
 * built for it (`ctx.mcpReq.envelope` set). Resolves with the result before the era's encoding
 * (the caller encodes it as the SDK does), or rejects as toolwright's `tools/call` handler does.
 * `cancellation`, when given, tells the call that its request was cancelled, and the call does not
 * listen to `ctx.mcpReq.signal` (see `RequestCancellation`).
 */
export type ModernToolCall = (
  params: unknown,
  ctx: ServerContext,
  cancellation?: RequestCancellation,
) => Promise<Record<string, unknown>>;

/** What answers a 2026-07-28 HTTP endpoint's plain `tools/call` requests without a server (see `modernToolCallsOf`). */
export interface ModernToolCalls {
  /**
   * The answerer of one request, with state of its own (a fresh `ToolServerState`: a session
   * object, log levels and scheduling scope no other request sees), or `undefined` when the set
   * has (or had) a tool that runs as a task: such a request is served by a server of its own.
   */
  forRequest(): ModernToolCall | undefined;
  /**
   * Answers one 2026-07-28 `tools/list` (`params` as the SDK's request schema parsed them, `ctx`
   * as for a call) as the servers' `tools/list` handler does: the set's tools now (see
   * `listedToolsOf`), traced when `telemetry` is not `false`.
   */
  list(params: unknown, ctx: ServerContext): Promise<Record<string, unknown>>;
}

/** Stands in for the server `handlerExtraOf` reads: it reads it only for a 2025-era request, never here. */
const NO_SERVER: ClientCapabilitiesHolder = { getClientCapabilities: () => undefined };

/**
 * The `tools/call` answers of the servers `serverFor(info, live, options, runs, 'modern')` makes
 * for a 2026-07-28 HTTP endpoint (`options.transport` is `'http'`), made without one: each
 * request gets the state a new server would have, the same `HandlerExtra` (`handlerExtraOf`),
 * the same trace (`traceRequest`, when `telemetry` is not `false`) and the same input rounds
 * (`answerModernToolCall` with the endpoint's `runs`, bound to no connection), and runs through
 * the call core (`answerToolCall`), exactly as the server's fallback handler answers it, and the
 * same `tools/list`. It never starts tasks: `forRequest` declines while the set has a task runner
 * (see `taskRunnerOf`).
 */
export function modernToolCallsOf(live: LiveSet, options: ServerOptions, runs: ParkedRuns): ModernToolCalls {
  return {
    forRequest() {
      if (taskRunnerOf(live.source, live.tools, options.tasks) !== undefined) return undefined;
      // serverFor's servers always declare logging.
      const state = new ToolServerState(live, options, runs, true);
      return async (params, ctx, cancellation) => {
        const extra = handlerExtraOf(NO_SERVER, ctx);
        const answer = (traced: HandlerExtra) =>
          answerModernToolCall(
            runs,
            bindingOf(ctx, undefined),
            params,
            traced,
            ctx,
            (e) => answerToolCall(state, params, e),
            undefined,
            undefined,
            cancellation,
          ) as Promise<Record<string, unknown>>;
        if (!state.traced) return answer(extra);
        return traceRequest('tools/call', params, ctx, extra, state.transport, answer);
      };
    },
    async list(params, ctx) {
      if (options.telemetry === false) return listedToolsOf(live, options, ctx);
      return traceRequest('tools/list', params, ctx, handlerExtraOf(NO_SERVER, ctx), 'http', () =>
        listedToolsOf(live, options, ctx),
      );
    },
  };
}

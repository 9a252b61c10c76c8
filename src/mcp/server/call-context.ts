import {
  createCallContext,
  type Call,
  type CallContext,
  type CallContextInit,
  type Json,
  type LogLevel,
  type ToolRecord,
} from '../../contract/index.js';
import { createLazySignalContext, writtenRecordOf } from '../../contract/internal.js';
import { elicitorOf } from './elicit.js';
import { principalOf } from '../auth/principal.js';
import type { HandlerExtra } from './extra.js';
import { LOG_LEVELS, isLogLevel, passesLevel } from './logging.js';
import { progressSenderOf } from './progress.js';
import { samplerOf } from './sample.js';
import { rootsListerOf } from './roots.js';
import { sessionOfState, type ServerState } from './state.js';

/** A call's context and the switch that ends it. */
export interface McpCallContext {
  readonly ctx: CallContext;
  /** The record the call last wrote with `ctx.writeRecord`, if any. */
  written(): ToolRecord | undefined;
  /** Marks the call answered: later progress and log messages are dropped. */
  finish(): void;
}

/**
 * Builds the `CallContext` of one served request (a tool call or a facts question) with
 * `createCallContext`: `signal` is the one given, else the request's signal (it fires on
 * `notifications/cancelled` and when the connection closes), read from `extra.signal` each time
 * `ctx.signal` is read (see `createLazySignalContext`), so a call that never looks at it never
 * makes it when the transport makes it on first read; `session` is the connection's one session object;
 * `principal` is the verified token's principal when the transport authenticated the request
 * (`extra.authInfo`, see the HTTP edge's `auth`); progress goes out only when the request has a
 * progress token (see `progressSenderOf`); `log` sends `notifications/message {level, logger?,
 * data}` when the server has the logging capability and the level passes the client's: in the 2025
 * era the session's `logging/setLevel` (everything passes until the client sets one), in the
 * 2026-07-28 era the request's own `_meta` log level (nothing is sent when the request names none);
 * it throws a `TypeError` for an unknown level; `elicit`, `sample` and `roots` ask the client (see
 * `elicitorOf`, `samplerOf`, `rootsListerOf`), unless `canAsk` is false (then elicitation answers
 * `cancel` and sampling and roots reject, as with nobody to ask); `writeRecord` keeps the last
 * record written (a string as raw JSON text; the call core puts it on the result), read with
 * `written()`; `continueAsTask` is the request's (`extra.continueAsTask`), else resolves at
 * once. Messages go out on the request's own stream, best effort, and stop once `finish()` is
 * called.
 */
export function mcpCallContextOf(
  state: ServerState,
  extra: HandlerExtra,
  call: Call,
  signal?: AbortSignal,
  canAsk = true,
): McpCallContext {
  // Without a signal of its own the call's is the request's, read when someone reads it (a
  // transport may make it on first read: most calls never look at it).
  const signalOf = signal === undefined ? () => extra.signal : () => signal;
  const served = new ServedCallContext();
  const session = sessionOfState(state, extra.sessionId);
  // Most requests carry no progress token: then there is no sender, and nothing to check it with.
  const progress = extra._meta?.progressToken === undefined ? undefined : progressSenderOf(extra, () => served.open);
  const log = (level: LogLevel, data: Json, logger?: string): void => {
    if (!isLogLevel(level))
      throw new TypeError(`ctx.log: unknown level ${JSON.stringify(level)}; use one of ${LOG_LEVELS.join(', ')}`);
    if (!served.open || !state.logging) return;
    if (extra.era === 'modern') {
      if (extra.requestLogLevel === undefined || !passesLevel(level, extra.requestLogLevel)) return;
    } else if (!passesLevel(level, state.logLevels.get(session.id))) return;
    const params: Record<string, unknown> = { level };
    if (typeof logger === 'string') params.logger = logger;
    params.data = data;
    void extra.sendNotification({ method: 'notifications/message', params });
  };
  // One shape for every call: a member left `undefined` gets `createCallContext`'s default.
  const init: CallContextInit = {
    call,
    session,
    principal: principalOf(extra.authInfo),
    progress: progress?.progress,
    update: progress?.update,
    log,
    continueAsTask: extra.continueAsTask,
    elicit: canAsk ? elicitorOf(extra, signalOf, state.validator) : undefined,
    sample: canAsk ? samplerOf(extra, signalOf) : undefined,
    roots: canAsk ? rootsListerOf(extra, signalOf) : undefined,
  };
  served.ctx = signal === undefined ? createLazySignalContext(init, signalOf) : createCallContext({ ...init, signal });
  return served;
}

/**
 * What `mcpCallContextOf` returns: the context, whether the call is still open (its messages
 * still go out), `written()` on the prototype, and `finish` an own function (a caller may keep
 * it apart from this object).
 */
class ServedCallContext implements McpCallContext {
  ctx!: CallContext;
  open = true;
  readonly finish = (): void => {
    this.open = false;
  };

  written(): ToolRecord | undefined {
    return writtenRecordOf(this.ctx);
  }
}

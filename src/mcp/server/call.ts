import type { CallToolResult } from '@modelcontextprotocol/server';
import { isJsonObject, type CallContext, type Call } from '../../contract/index.js';
import { errorText, kindOf } from '../../util/describe.js';
import type { CallEnd } from '../../runtime/call/index.js';
import { mcpCallContextOf } from './call-context.js';
import { contentOf } from './content.js';
import type { HandlerExtra } from './extra.js';
import { wireRecordOf } from './record.js';
import { forwardedMetaOf, resultMetaFor } from './result-meta.js';
import type { ServedTool } from './served-tools.js';
import { runInTurn } from './scheduling.js';
import { bindTurn, CallTimeoutError, LazyAbort } from '../../runtime/internal.js';
import type { ServerState } from './state.js';
import { invalidParams } from './protocol-error.js';
import { insufficientScopeText, missingScopes } from '../auth/tool-scopes.js';
import { principalOf } from '../auth/principal.js';
import { callOnce, idempotencyKeyOf } from './replay.js';
import { fileCallTrace, otelNames, type CallTrace } from '../../runtime/internal.js';
import { fileRequestCall } from './request-span.js';

/** The result MCP sends for a failed call: `isError` with the failure's text, nothing else. */
export function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/**
 * The MCP result of a call's end, exactly as every toolwright host sends it: a failure is
 * `isError` with its message as the one text block (see `errorText`; a `ToolError`'s details
 * never cross) and the failed call's record, when it has one (see `CallEnd`); a result gives its
 * content and structured content (see `contentOf`), `isError` when the tool marked it so, and its
 * record (returned, else the permissions record, else the last one written with
 * `ctx.writeRecord`) as `_meta[RECORD_META_KEY]` (see `wireRecordOf`; a record that cannot be
 * made never fails the call). A consumed tool's result or failure also carries the rest of its
 * upstream's result `_meta`, as given (see `resultMetaFor`).
 */
export function mcpResultOf(end: CallEnd): CallToolResult {
  if (!end.ok) {
    const failure = errorResult(errorText(end.error));
    const meta = resultMetaFor(
      forwardedMetaOf(end.error),
      end.record === undefined ? undefined : wireRecordOf(end.record),
    );
    if (meta !== undefined) failure._meta = meta;
    return failure;
  }
  const result = end.result;
  const answer: CallToolResult = { ...contentOf(result) };
  if (result.isError === true) answer.isError = true;
  const meta = resultMetaFor(
    forwardedMetaOf(result),
    result.record === undefined ? undefined : wireRecordOf(result.record),
  );
  if (meta !== undefined) answer._meta = meta;
  return answer;
}

/**
 * Checks the params of a `tools/call` and finds its tool. An unknown tool is a protocol error
 * (`-32602`, `Unknown tool: <name>`), as are a missing name or non-object arguments (a
 * transport-level refusal: MCP's `arguments` is an object); missing arguments are `{}`.
 */
export function toolCallOf(
  tools: ReadonlyMap<string, ServedTool>,
  params: unknown,
): { readonly served: ServedTool; readonly args: Record<string, unknown> } {
  const given = (isJsonObject(params) ? params : {}) as { name?: unknown; arguments?: unknown };
  if (typeof given.name !== 'string')
    throw invalidParams(`tools/call: params.name must be a string, got ${kindOf(given.name)}`);
  const served = tools.get(given.name);
  if (served === undefined) throw invalidParams(`Unknown tool: ${given.name}`);
  const args = given.arguments ?? {};
  if (!isJsonObject(args)) throw invalidParams(`tools/call: params.arguments must be an object, got ${kindOf(args)}`);
  return { served, args };
}

/**
 * Answers one `tools/call`: the params are checked (see `toolCallOf`), then the call core runs
 * the call (see `runToolCall`: validation, permissions, interceptors, time limit, `execute`,
 * output check, bounds, records) with the request's context, and its end becomes the MCP result
 * (see `mcpResultOf`). A principal without the tool's `scopes` is refused first
 * (`insufficient_scope: tool "x" needs the scope a`; the HTTP edge with `auth` answers 403
 * earlier). When the request is cancelled the SDK sends no response at all, whatever
 * this returns.
 *
 * The core's run waits for its turn first, by the tool's scheduling claims (see `runInTurn`):
 * while it waits, a cancel withdraws it and the tool's time limit counts from when the request
 * was received (a call that waits past it ends `tool "<name>" timed out after <ms> ms` and never
 * starts); once it starts, each run of `execute` gets its limit as on every host. With a shared
 * scheduling store, a turn lost while the tool runs (see `HeldTurn.lost`) aborts the call's
 * signal with its `TurnLostError`, and the tool reads its turn with `heldTurnOf(ctx)`.
 */
export function answerToolCall(state: ServerState, params: unknown, extra: HandlerExtra): Promise<CallToolResult> {
  // A request whose params._meta is malformed never gets here: the SDK's Protocol drops any
  // message its JSON-RPC schema refuses (and the transports answer it -32600 first).
  const receivedAt = Date.now();
  try {
    const { served, args } = toolCallOf(state.tools, params);
    return answerServedCall(state, served, args, extra, receivedAt);
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * `answerToolCall` once its params named a served tool and its arguments: a function of its own,
 * so that a call waiting for its end (a 2026-07-28 call parked for its client's answers) keeps
 * neither the request's params nor anything else this step no longer needs.
 */
async function answerServedCall(
  state: ServerState,
  served: ServedTool,
  args: Record<string, unknown>,
  extra: HandlerExtra,
  receivedAt: number,
): Promise<CallToolResult> {
  const key = idempotencyKeyOf(extra._meta);
  const missing = missingScopes(served.prepared.tool.scopes, principalOf(extra.authInfo));
  if (missing.length > 0) return errorResult(insufficientScopeText(served.prepared.name, missing));
  // The optional members are added only when set (no spread of an empty object per call).
  const call: { -readonly [K in keyof Call]: Call[K] } = {
    id: String(extra.requestId),
    tool: served.prepared.name,
    args,
  };
  if (key !== undefined) call.idempotencyKey = key;
  if (extra.taskId !== undefined) call.taskId = extra.taskId;
  if (extra.trace !== undefined) fileRequestCall(extra, fileCallTrace(call, callTraceOfRequest(extra, receivedAt)));
  // With a shared scheduling store a turn can be lost while the tool runs: the call's signal then aborts too.
  const turnLost = state.scheduling?.store?.shared === true ? new AbortController() : undefined;
  // Without a lost turn to follow, the call's signal is the request's, read only when needed (see `mcpCallContextOf`).
  const { ctx, finish } = mcpCallContextOf(
    state,
    extra,
    call,
    turnLost === undefined ? undefined : AbortSignal.any([extra.signal, turnLost.signal]),
  );
  const waiting = waitLimitOf(extra, served.prepared.name, served.prepared.timeoutMs);
  try {
    // The client is answered with the call's end as the core gives it (a timeout at once), but
    // the turn is held until the tool's own run really settles, so a tool that outlives its time
    // limit keeps its resource until it stops. `runInTurn` resolves once the call started (it
    // rejects when the call was withdrawn first), so the call's end is known by then.
    let running: Promise<CallEnd> | undefined;
    await runInTurn(
      state.scheduling,
      state.transport,
      served.prepared.tool,
      extra,
      waiting,
      ctx as CallContext,
      (release) => {
        waiting.clear();
        running = callOnce(state.replay, served.prepared, args, ctx as CallContext, key, release);
      },
      turnLost === undefined
        ? undefined
        : (turn) => {
            bindTurn(call, turn);
            const lost = turn.lost!;
            if (lost.aborted) turnLost.abort(lost.reason);
            else lost.addEventListener('abort', () => turnLost.abort(lost.reason), { once: true });
          },
    );
    const end = await running!;
    return mcpResultOf(end);
  } catch (err) {
    return errorResult(errorText(err));
  } finally {
    waiting.clear();
    finish();
  }
}

/** What withdraws a call waiting for its turn when the tool has no time limit: the request's signal, unread. */
const NO_WAIT_LIMIT: { readonly signal: undefined; clear(): void } = { signal: undefined, clear() {} };

/**
 * What withdraws a call still waiting for its turn (see `runInTurn`, which reads `signal` only
 * when the call has to wait): the request's own signal (a cancel, a closed connection; `signal`
 * `undefined` stands for it), or, when the tool has a time limit, that signal or the limit counted
 * from now, the moment the request was received, whichever fires first (its reason is the
 * `CallTimeoutError`). `clear` stops the timer once the call starts.
 */
function waitLimitOf(
  extra: HandlerExtra,
  tool: string,
  timeoutMs: number | undefined,
): { readonly signal: AbortSignal | undefined; clear(): void } {
  return timeoutMs === undefined ? NO_WAIT_LIMIT : new WaitLimit(extra, tool, timeoutMs);
}

/**
 * A time limit on a call's wait for its turn whose signal is made only when read (a call that
 * starts at once, the common case, makes no abort signal: see `LazyAbort`); read after the limit
 * passed, it is already aborted with the `CallTimeoutError`.
 */
class WaitLimit {
  private readonly limit = new LazyAbort();
  private readonly timer: ReturnType<typeof setTimeout>;
  private made: AbortSignal | undefined;

  constructor(
    private readonly extra: HandlerExtra,
    tool: string,
    timeoutMs: number,
  ) {
    this.timer = setTimeout(() => this.limit.abort(new CallTimeoutError(tool, timeoutMs)), timeoutMs);
  }

  get signal(): AbortSignal {
    return (this.made ??= AbortSignal.any([this.extra.signal, this.limit.signal]));
  }

  clear(): void {
    clearTimeout(this.timer);
  }
}

/**
 * What the call core's tracing is told of a traced request's call: the request's span as its
 * parent, when the request was received, and the request and session ids and the era.
 */
function callTraceOfRequest(extra: HandlerExtra, receivedAt: number): CallTrace {
  const attributes: Record<string, string> = {
    [otelNames.ATTR_JSONRPC_REQUEST_ID]: String(extra.requestId),
    [otelNames.ATTR_TOOLWRIGHT_ERA]: extra.era,
  };
  if (extra.sessionId !== undefined) attributes[otelNames.ATTR_MCP_SESSION_ID] = extra.sessionId;
  return { parent: extra.trace?.context, receivedAt, attributes };
}

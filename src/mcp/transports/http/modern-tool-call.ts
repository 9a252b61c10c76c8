import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  Server,
  type JSONRPCRequest,
  type RequestId,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { isJsonObject } from '../../../contract/index.js';
import type { ModernToolCall, ModernToolCalls } from '../../server/modern-tool-calls.js';
import type { RequestCancellation } from '../../server/input-rounds/request-cancellation.js';
import { DirectCall } from './direct-call.js';
import { EnvelopeVerdicts } from './envelope-verdicts.js';
import { sendJson, sendJsonText } from './json-response.js';
import type { ResultText } from './result-text.js';
import type { DirectRoute } from './modern-direct.js';

/** The envelope keys of `_meta` the SDK lifts out of a request (its `RESERVED_ENVELOPE_META_KEYS`), in its order. */
const ENVELOPE_KEYS = [
  PROTOCOL_VERSION_META_KEY,
  CLIENT_INFO_META_KEY,
  CLIENT_CAPABILITIES_META_KEY,
  LOG_LEVEL_META_KEY,
];
/** The same keys, to look one up. */
const ENVELOPE_KEY_SET: ReadonlySet<string> = new Set(ENVELOPE_KEYS);

/** The members of the SDK's 2026-07-28 wire codec the direct call uses (read by shape). */
export interface ModernCodec {
  readonly era: string;
  checkInboundEnvelope(material: { readonly envelope?: Record<string, unknown> }): string | undefined;
  encodeResult(method: string, result: Record<string, unknown>, serverInfo: unknown): Record<string, unknown>;
  encodeErrorCode(code: number): number;
  validateRequest(
    method: string,
    request: unknown,
  ):
    | { readonly ok: true; readonly value: unknown }
    | { readonly ok: false; readonly reason: string; readonly message?: string };
}

/**
 * The SDK's 2026-07-28 wire codec, as a server bound to that revision resolves it (through the
 * `Protocol`'s `_negotiatedWireCodec`, which reads only the negotiated version), or `undefined`
 * when this SDK's `Server` is not shaped so (another SDK version): requests then keep the path
 * with a server.
 */
export function modernCodecOf(): ModernCodec | undefined {
  const resolve = (Server.prototype as unknown as { _negotiatedWireCodec?: unknown })._negotiatedWireCodec;
  if (typeof resolve !== 'function') return undefined;
  let codec: Partial<ModernCodec> | undefined;
  try {
    codec = (resolve as (this: object) => Partial<ModernCodec>).call({ _negotiatedProtocolVersion: '2026-07-28' });
  } catch {
    return undefined;
  }
  return codec?.era === '2026-07-28' &&
    typeof codec.checkInboundEnvelope === 'function' &&
    typeof codec.encodeResult === 'function' &&
    typeof codec.encodeErrorCode === 'function' &&
    typeof codec.validateRequest === 'function'
    ? (codec as ModernCodec)
    : undefined;
}

/**
 * A `tools/call` or `tools/list` served without a server: the request with its envelope lifted
 * out, and the envelope.
 */
export interface LiftedToolCall {
  readonly request: JSONRPCRequest;
  readonly envelope: Record<string, unknown>;
}

/** The kept envelope verdicts of each codec (see `envelopeProblem`). */
const verdictsByCodec = new WeakMap<ModernCodec, EnvelopeVerdicts>();

/**
 * What the SDK's dispatch says of `envelope` (`codec.checkInboundEnvelope`: a problem text, or
 * `undefined` when it is valid). The check is a pure function of the envelope's JSON value, and
 * a client sends the same envelope with every request, so the verdict is kept by that value (see
 * `EnvelopeVerdicts`).
 */
function envelopeProblem(codec: ModernCodec, envelope: Record<string, unknown>): string | undefined {
  let verdicts = verdictsByCodec.get(codec);
  if (verdicts === undefined) {
    verdicts = new EnvelopeVerdicts((checked) => codec.checkInboundEnvelope({ envelope: checked }));
    verdictsByCodec.set(codec, verdicts);
  }
  return verdicts.verdictOf(envelope);
}

/**
 * The `tools/call` or `tools/list` of `route` lifted as the SDK's dispatch lifts it
 * (`liftWireOnlyMaterial`: the envelope keys moved out of `params._meta`, which is dropped once
 * empty), when it may be served without a server (see `serveToolCallDirectly`), else
 * `undefined`: only a request that is not an input-round retry (no `inputResponses`, no
 * `requestState`), asks for no progress (no `progressToken`) and no log messages (no log level
 * in its envelope), so that nothing is ever streamed before its result, and whose envelope the
 * SDK's own check accepts (a refused one is the SDK's to answer, with its status and text).
 */
export function liftedToolCallOf(route: DirectRoute, codec: ModernCodec): LiftedToolCall | undefined {
  const message = route.message;
  if (message.method !== 'tools/call' && message.method !== 'tools/list') return undefined;
  const params = message.params as Record<string, unknown> | undefined;
  if (!isJsonObject(params) || 'inputResponses' in params || 'requestState' in params) return undefined;
  const meta = params._meta;
  if (!isJsonObject(meta) || 'progressToken' in meta || LOG_LEVEL_META_KEY in meta) return undefined;
  const envelope: Record<string, unknown> = {};
  for (const key of ENVELOPE_KEYS) if (key in meta) envelope[key] = meta[key];
  if (envelopeProblem(codec, envelope) !== undefined) return undefined;
  // Copied key by key (no spread and delete, which would leave dictionary-mode objects), in the
  // SDK's order; a "__proto__" key (which an assignment would not copy) keeps the SDK's path.
  let rest: Record<string, unknown> | undefined;
  for (const key of Object.keys(meta)) {
    if (key === '__proto__') return undefined;
    if (!ENVELOPE_KEY_SET.has(key)) (rest ??= {})[key] = meta[key];
  }
  const lifted: Record<string, unknown> = {};
  for (const key of Object.keys(params)) {
    if (key === '__proto__') return undefined;
    if (key !== '_meta') lifted[key] = params[key];
    else if (rest !== undefined) lifted._meta = rest;
  }
  return { request: { ...message, params: lifted } as JSONRPCRequest, envelope };
}

/** What `serveToolCallDirectly` needs besides the request. */
export interface DirectCallOptions {
  readonly codec: ModernCodec;
  /** What the servers stamp on results (`_meta[SERVER_INFO_META_KEY]`): their implementation info. */
  readonly serverInfo: unknown;
  /** The calls in flight, which closing the endpoint ends (see `endDirectCalls`). */
  readonly inFlight: Set<DirectCall>;
  /** Writes a result's answer text without the codec's copies, when it can (see `resultTextOf`). */
  readonly resultText?: ResultText;
}

/** The error a closed connection aborts a request's signal with, as the SDK's `Protocol` makes it. */
const connectionClosed = (): Error => new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed');

/**
 * Answers one lifted request (see `liftedToolCallOf`) with the context the SDK would build for it;
 * `cancellation` tells it the request was cancelled, as `ctx.mcpReq.signal` does.
 */
export type DirectAnswer = (
  request: JSONRPCRequest,
  ctx: ServerContext,
  cancellation: RequestCancellation,
) => Promise<Record<string, unknown>>;

/** The `DirectAnswer` of a `tools/call`: `call` with the request's params and cancellation. */
export const toolCallAnswerOf =
  (call: ModernToolCall): DirectAnswer =>
  (request, ctx, cancellation) =>
    call(request.params, ctx, cancellation);

/**
 * Answers `call` (see `liftedToolCallOf`) with `answerCall` and no SDK `Server`, exactly as the
 * SDK's dispatch and per-request transport answer it on a server of the endpoint: the handler
 * gets the context the SDK builds (`sessionId` none; `mcpReq` with the id, method, lifted
 * `_meta`, `envelope`, no request state, an abort signal made when read; `http` with `authInfo` when given and
 * the `node:http` request as `req`) in a microtask of its own; its result is encoded by the era's
 * codec (`encodeResult`, stamping `serverInfo`) and written as one JSON body (`200`,
 * `application/json`, its `Content-Length`); a throw is the JSON-RPC error the SDK makes of it
 * (its code through `encodeErrorCode`, `-32603` without one; its message, else `Internal
 * error`; its data) answered `200` (`400` for `-32021`, as the SDK's transport does), and a result
 * the codec cannot encode is `-32603 Internal error`; every answer is one JSON body written by
 * `sendJson`. `answerCall` is also given the call's `DirectCall` as its cancellation. The client
 * hanging up cancels it (the signal, when made, aborts with the SDK's `Connection closed` error)
 * and nothing is written. The call never notifies the
 * client (`liftedToolCallOf` takes no call that could) and never sends it a request (2026-07-28
 * calls ask through input rounds): `notify` resolves without sending, `send` rejects.
 */
export async function serveToolCallDirectly(
  answerCall: DirectAnswer,
  call: LiftedToolCall,
  req: IncomingMessage,
  res: ServerResponse,
  authInfo: unknown,
  options: DirectCallOptions,
): Promise<void> {
  const { codec, inFlight } = options;
  const request = call.request;
  const id = request.id;
  const entry = new DirectCall(res);
  inFlight.add(entry);
  const onClose = (): void => {
    if (!res.writableFinished) entry.cancel(connectionClosed());
  };
  res.once('close', onClose);
  const ctx = {
    sessionId: undefined,
    mcpReq: new DirectMcpReq(request, call.envelope, entry),
    http: {
      ...(authInfo ? { authInfo } : {}),
      req,
      closeSSE: undefined,
      closeStandaloneSSE: undefined,
    },
  } as unknown as ServerContext;
  try {
    let message: { jsonrpc: '2.0'; id: RequestId; result?: unknown; error?: unknown };
    let status = 200;
    try {
      const result = await Promise.resolve().then(() => answerCall(request, ctx, entry));
      if (entry.cancelled) return;
      const text = options.resultText?.(request.method, id, result);
      if (text !== undefined) {
        if (!res.destroyed) sendJsonText(res, 200, text);
        return;
      }
      try {
        message = { result: codec.encodeResult(request.method, result, options.serverInfo), jsonrpc: '2.0', id };
      } catch {
        message = errorMessageOf(id, ProtocolErrorCode.InternalError, 'Internal error', undefined);
      }
    } catch (error) {
      if (entry.cancelled) return;
      const thrown = error as { code?: unknown; message?: string; data?: unknown };
      const code = Number.isSafeInteger(thrown.code) ? (thrown.code as number) : ProtocolErrorCode.InternalError;
      message = errorMessageOf(id, codec.encodeErrorCode(code), thrown.message ?? 'Internal error', thrown.data);
      if (code === ProtocolErrorCode.MissingRequiredClientCapability) status = 400;
    }
    if (!res.destroyed) sendJson(res, status, message);
  } finally {
    inFlight.delete(entry);
    res.off('close', onClose);
  }
}

/** Ends the direct calls in flight as closing their servers ends theirs: aborted, answered 499 with no body. */
export function endDirectCalls(inFlight: Set<DirectCall>): void {
  for (const call of inFlight) {
    const res = call.res;
    call.cancel(connectionClosed());
    if (!res.headersSent && !res.destroyed) res.writeHead(499).end();
  }
  inFlight.clear();
}

function errorMessageOf(
  id: RequestId,
  code: number,
  message: string,
  data: unknown,
): { jsonrpc: '2.0'; id: RequestId; error: unknown } {
  return { jsonrpc: '2.0', id, error: { code, message, ...(data !== undefined && { data }) } };
}

/** The request-state accessor of a request that carries none (the SDK's `NO_REQUEST_STATE`). */
const noRequestState = (): undefined => undefined;
const resolved = (): Promise<void> => Promise.resolve();
const unavailable = (): Promise<never> =>
  Promise.reject(new Error('a 2026-07-28 tools/call sends the client no requests: it asks through input rounds'));

/**
 * The `ctx.mcpReq` of a direct call, as the SDK builds it for the request: its id, method, lifted
 * `_meta`, envelope, no request state, no way to notify or ask the client, and a `signal` that is
 * the call's (`DirectCall.signal`, made only when read). A class, so that the getter is one on
 * the prototype and every context has the same hidden class.
 */
class DirectMcpReq {
  readonly id: RequestId;
  readonly method: string;
  readonly _meta: unknown;
  readonly requestState = noRequestState;
  readonly send = unavailable;
  readonly notify = resolved;
  readonly log = resolved;
  readonly elicitInput = unavailable;
  readonly requestSampling = unavailable;

  constructor(
    request: JSONRPCRequest,
    readonly envelope: Record<string, unknown>,
    private readonly call: DirectCall,
  ) {
    this.id = request.id;
    this.method = request.method;
    this._meta = (request.params as { _meta?: unknown } | undefined)?._meta;
  }

  get signal(): AbortSignal {
    return this.call.signal;
  }
}

/**
 * The answer of a 2026-07-28 `tools/list` for `serveToolCallDirectly`, as the servers' registered
 * handler gives it: the request checked against the era's request schema first (a request it
 * refuses is `-32603` with the schema's message, as the SDK's handler wrapper throws it), then
 * `calls.list` with the params as the schema parsed them.
 */
export function toolListAnswerOf(calls: ModernToolCalls, codec: ModernCodec): DirectAnswer {
  return async (request, ctx) => {
    const outcome = codec.validateRequest('tools/list', request);
    if (!outcome.ok)
      throw outcome.reason === 'not-in-era'
        ? new ProtocolError(ProtocolErrorCode.InternalError, 'No wire schema for tools/list in the resolved era')
        : new Error(outcome.message);
    return calls.list((outcome.value as { params?: unknown }).params, ctx);
  };
}

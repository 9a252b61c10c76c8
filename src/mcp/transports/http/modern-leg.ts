import type { IncomingMessage } from 'node:http';
import {
  classifyInboundRequest,
  createMcpHandler,
  PROTOCOL_VERSION_META_KEY,
  type RequestId,
  type Server,
  type ServerEventBus,
} from '@modelcontextprotocol/server';
import { answeredMethodsOf, listedInputSchemaOf, parkedRunsOf } from '../../server/add-tools.js';
import { tooManyParkedMessage } from '../../server/input-rounds/errors.js';
import { recordRequestClient, type RequestClient } from '../../server/request-client.js';
import type { ServerFactory } from '../server-factory.js';
import type { HttpLeg } from './http-leg.js';
import { sendJsonError } from './json-response.js';
import { paramHeaderProblem, paramHeadersOf } from './param-headers.js';
import type { LooseMessage, PostBody } from './post-body.js';
import { authOf, sendWebResponse, toWebRequest } from './web-bridge.js';
import { directRouteOf, serveModernDirectly, servesModernDirectly } from './modern-direct.js';
import { buildsResettableServers, modernToolCallsFor } from '../server-factory.js';
import {
  endDirectCalls,
  liftedToolCallOf,
  modernCodecOf,
  serveToolCallDirectly,
  toolCallAnswerOf,
  toolListAnswerOf,
  type DirectAnswer,
  type DirectCallOptions,
  type LiftedToolCall,
  type ModernCodec,
} from './modern-tool-call.js';
import type { ModernToolCalls } from '../../server/modern-tool-calls.js';
import type { DirectCall } from './direct-call.js';
import { resultTextOf } from './result-text.js';
import { hasClosed } from './http-session.js';
import { authInfoOf } from './node-http-transport.js';
import { asError } from '../../../util/describe.js';

/** What the modern leg needs from the handler. */
export interface ModernLegOptions {
  /** Whom a request counts against (see `RequestClient`). */
  readonly clientOf: (req: IncomingMessage) => RequestClient;
  /** See `HttpHandlerOptions.changeEvents`. */
  readonly changeEvents?: ServerEventBus | undefined;
  /** Receives what failed unexpectedly while a request was served (see `HttpHandlerOptions.onError`). */
  readonly onError: (error: Error) => void;
}

/** A server factory as the SDK's entry calls it, with the era of the request. */
type ModernFactory = (context: { readonly era: 'modern' }) => Server;

/**
 * Serves 2026-07-28 requests for `createHttpHandler` (after its Host/Origin, method, media type
 * and body checks): the SDK's per-request handler (`createMcpHandler(factory, { legacy:
 * 'reject' })`) builds one server per request with no session, checks the request's `_meta`
 * envelope, protocol-version headers and declared capabilities, and answers `server/discover`.
 * Before it, toolwright answers what the SDK cannot from a handled method: a method the servers
 * do not answer is HTTP 404 `-32601` (the SDK's own handlers answer errors with 200), and a
 * `tools/call` whose `Mcp-Param-*` headers disagree with its arguments is HTTP 400 `-32020` (see
 * `paramHeaderProblem`). A new `tools/call` (one without a `requestState`) of a client that has
 * `inputRounds.maxParkedPerClient` calls parked already is HTTP 503 `-32000` with
 * `tooManyParkedMessage` and `Retry-After: 1`; the request the SDK is handed carries its client
 * (`recordRequestClient`), so a call it parks counts against the same client. A client hanging
 * up aborts the request's signal, which closes its server and so aborts the call. The methods
 * and tool schemas are read from a server built by `factory` and never connected (its tools are
 * the set's as it is now; it is made again when a method it does not answer is asked, since the
 * set may have come to answer it).
 * `subscriptions/listen` streams are served by the SDK and told of what is published on
 * `changeEvents`. When the factory is `serveHttp`'s (see `withResettableServers`) and this SDK has
 * the members it relies on, a request that passes `directRouteOf` is answered without the SDK's
 * entry (no web `Request`; a JSON result written straight to the response, see
 * `serveModernDirectly`), an unexpected failure there as HTTP 500 `-32603 Internal server error`
 * with the request's id, as the SDK's entry answers it. When the factory is also marked with
 * `withModernToolCalls` (serveHttp's), such a request that is a plain `tools/call` or `tools/list`
 * (see `liftedToolCallOf`) gets no server at all: it is answered as the factory's servers would
 * answer it (see `serveToolCallDirectly`), and closing the leg ends those calls as it ends the
 * servers' (aborted, 499).
 */
export function createModernLeg(factory: ServerFactory, options: ModernLegOptions): HttpLeg {
  const { clientOf, changeEvents, onError } = options;
  const handler = createMcpHandler(factory, {
    legacy: 'reject',
    onerror: () => undefined,
    ...(changeEvents === undefined ? {} : { bus: changeEvents }),
  });
  let probe: Server | undefined;
  let answered: ReadonlySet<string> | undefined | null = null;
  /** Whether requests are served without the SDK's entry (see `serveModernDirectly`); decided on the first probe. */
  let direct = false;
  /** The servers of the requests served directly, until their responses end. */
  const inFlight = new Set<Server>();
  /**
   * What answers plain 2026-07-28 tools/call requests without a server (`serveHttp`'s factory
   * only), and with what codec.
   */
  const calls = modernToolCallsFor(factory);
  const codec = calls === undefined ? undefined : modernCodecOf();
  /** What the servers stamp on their results; read from the first probe. */
  let serverInfo: unknown;
  /** How direct calls are answered (see `serveToolCallDirectly`); made once `serverInfo` is read. */
  let directOptions: DirectCallOptions | undefined;
  /** The tools/call requests answered without a server, until they are answered. */
  const directCalls = new Set<DirectCall>();
  return {
    async serve(req, res, body) {
      if (probe === undefined) {
        probe = factory();
        direct = buildsResettableServers(factory) && servesModernDirectly(probe);
        serverInfo = (probe as unknown as { _outboundServerInfo?: () => unknown })._outboundServerInfo?.();
        if (codec !== undefined && serverInfo !== undefined)
          directOptions = { codec, serverInfo, inFlight: directCalls, resultText: resultTextOf(codec, serverInfo) };
      }
      if (answered === null) answered = answeredMethodsOf(probe);
      let unknown = unknownRequestOf(body.single, answered);
      if (unknown !== undefined) {
        // The set may have come to serve the method since the probe was made (prompts added, say).
        probe = factory();
        answered = answeredMethodsOf(probe);
        unknown = unknownRequestOf(body.single, answered);
      }
      if (unknown !== undefined) return sendJsonError(res, 404, -32601, 'Method not found', {}, unknown.id);
      const call = toolCallOf(body.single);
      const client = clientOf(req);
      if (call !== undefined && call.requestState === undefined) {
        const runs = parkedRunsOf(probe);
        if (runs !== undefined && runs.parkedBy(client.key) >= runs.options.maxParkedPerClient)
          return sendJsonError(
            res,
            503,
            -32000,
            tooManyParkedMessage(runs.options.maxParkedPerClient, client),
            { 'Retry-After': '1' },
            call.id,
          );
      }
      if (call !== undefined) {
        const problem = paramHeaderProblem(
          paramHeadersOf(listedInputSchemaOf(probe, call.name)),
          call.arguments,
          req.headers,
        );
        if (problem !== undefined)
          return sendJsonError(
            res,
            400,
            -32020,
            `Bad Request: the request headers and body disagree: ${problem}`,
            {},
            call.id,
          );
      }
      const route = direct ? directRouteOf(req, body) : undefined;
      if (route !== undefined) {
        if (hasClosed(res)) return;
        recordRequestClient(req, client.key);
        const lifted = directOptions === undefined ? undefined : liftedToolCallOf(route, directOptions.codec);
        const answerCall = lifted === undefined ? undefined : directAnswerOf(lifted, calls!, codec!);
        if (answerCall !== undefined) {
          try {
            await serveToolCallDirectly(answerCall, lifted!, req, res, authInfoOf(req), directOptions!);
          } catch (error) {
            onError(asError(error));
            sendJsonError(res, 500, -32603, 'Internal server error', {}, route.message.id);
          }
          return;
        }
        const server = (factory as ModernFactory)({ era: 'modern' });
        inFlight.add(server);
        res.once('close', () => inFlight.delete(server));
        let outcome: 'served' | 'refused';
        try {
          outcome = await serveModernDirectly(server, route, req, res, authInfoOf(req), (response) =>
            sendWebResponse(res, response),
          );
        } catch (error) {
          onError(asError(error));
          sendJsonError(res, 500, -32603, 'Internal server error', {}, route.message.id);
          return;
        }
        // Refused by the SDK's dispatch before any handler ran: its handler answers it below.
        if (outcome === 'served' || hasClosed(res)) return;
      }
      const controller = new AbortController();
      res.once('close', () => {
        if (!res.writableFinished) controller.abort();
      });
      const request = toWebRequest(req, controller.signal);
      recordRequestClient(request, client.key);
      const response = await handler.fetch(request, { parsedBody: body.value, ...authOf(req) });
      await sendWebResponse(res, response);
    },
    async close() {
      endDirectCalls(directCalls);
      await Promise.all([handler.close(), ...[...inFlight].map((server) => server.close().catch(() => undefined))]);
    },
  };
}

/**
 * How `calls` answers `lifted` without a server, or `undefined` when it does not (a call while
 * the set has task tools).
 */
function directAnswerOf(lifted: LiftedToolCall, calls: ModernToolCalls, codec: ModernCodec): DirectAnswer | undefined {
  if (lifted.request.method === 'tools/list') return toolListAnswerOf(calls, codec);
  const call = calls.forRequest();
  return call === undefined ? undefined : toolCallAnswerOf(call);
}

/**
 * True when a POST is for the 2026-07-28 era: the SDK's `classifyInboundRequest` routes it
 * modern (it carries the per-request `_meta` envelope claim), or refuses it while it claims that
 * era (a modern `MCP-Protocol-Version` header or an envelope claim), so that the SDK's modern
 * handler answers the revision's own errors. Everything else is served as a 2025-era request
 * (which answers bad JSON-RPC as it always did).
 */
export function isModernBody(req: IncomingMessage, body: PostBody): boolean {
  const header = (name: string): string | undefined => {
    const value = req.headers[name];
    return typeof value === 'string' ? value : undefined;
  };
  // The common 2026-07-28 request: the SDK's classification can only say modern or refuse it
  // (both mean true here), so its envelope and message-shape checks are not run twice.
  if (claimSettlesModern(body.value)) return true;
  const protocolVersionHeader = header('mcp-protocol-version');
  // Nothing names the 2026-07-28 era (no modern header, no envelope claim in any message): the
  // SDK's classification can only say legacy or refuse the body, and both mean false here. Its
  // two zod checks that fail for every request (is it a response?) are skipped.
  if (
    (protocolVersionHeader === undefined || protocolVersionHeader.trim() < MODERN_REVISION) &&
    !body.claimsModernEnvelope()
  )
    return false;
  const outcome = classifyInboundRequest({
    httpMethod: 'POST',
    protocolVersionHeader,
    mcpMethodHeader: header('mcp-method'),
    mcpNameHeader: header('mcp-name'),
    body: body.value,
  });
  if (outcome.kind === 'modern') return true;
  if (outcome.kind === 'legacy') return false;
  return (
    (protocolVersionHeader !== undefined && protocolVersionHeader >= MODERN_REVISION) || body.claimsModernEnvelope()
  );
}

/**
 * True when `classifyInboundRequest` can only route `value` modern or refuse it while it claims
 * the 2026-07-28 era: one message (not a batch), not a response (no `result` or `error`), not an
 * `initialize` (which a malformed claim leaves a 2025 handshake), whose `params._meta` (plain
 * objects both) carries the envelope's protocol-version key. Every such body is the modern
 * handler's to answer, whatever else is wrong with it.
 */
function claimSettlesModern(value: unknown): boolean {
  if (!isPlainObject(value) || 'result' in value || 'error' in value || value.method === 'initialize') return false;
  const params = value.params;
  const meta = isPlainObject(params) ? params._meta : undefined;
  return isPlainObject(meta) && PROTOCOL_VERSION_META_KEY in meta;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The request of a 2026-07-28 body whose method the server does not answer (the revision answers
 * it with HTTP 404 and `-32601`), or `undefined`. Notifications, responses and
 * `subscriptions/listen` and `server/discover` (served by the SDK for every 2026-07-28 server)
 * never count; nor does anything
 * when the answered methods are not known.
 */
function unknownRequestOf(
  message: LooseMessage | undefined,
  answered: ReadonlySet<string> | undefined,
): { id: RequestId } | undefined {
  if (answered === undefined || message === undefined) return undefined;
  const { method, id } = message;
  if (typeof method !== 'string' || (typeof id !== 'string' && typeof id !== 'number')) return undefined;
  if (method === 'subscriptions/listen' || method === 'server/discover' || answered.has(method)) return undefined;
  return { id };
}

/** The `tools/call` request of a body (its id, tool name, arguments, a retry's `requestState`), or `undefined`. */
function toolCallOf(
  message: LooseMessage | undefined,
): { id: RequestId; name: string; arguments: unknown; requestState: unknown } | undefined {
  if (message === undefined) return undefined;
  const { method, id, params } = message;
  if (
    method !== 'tools/call' ||
    (typeof id !== 'string' && typeof id !== 'number') ||
    typeof params !== 'object' ||
    params === null
  )
    return undefined;
  const {
    name,
    arguments: args,
    requestState,
  } = params as {
    name?: unknown;
    arguments?: unknown;
    requestState?: unknown;
  };
  return typeof name === 'string' ? { id, name, arguments: args, requestState } : undefined;
}

/** The first protocol revision of the modern era. */
const MODERN_REVISION = '2026-07-28';

import type { IncomingMessage, ServerResponse } from 'node:http';
import { isInitializeRequest, isJsonContentType, type RequestId } from '@modelcontextprotocol/server';
import { standInForBadResponse, toJsonRpcMessage } from '../jsonrpc-shape.js';
import { JsonRpcCode } from '../jsonrpc-error.js';
import { sendJsonError } from './json-response.js';
import { readBody } from './read-body.js';

/** The `_meta` key of a 2026-07-28 request envelope's protocol version. */
const ENVELOPE_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';

/** The parts of a JSON-RPC message the handler reads, none of them checked yet. */
export interface LooseMessage {
  readonly method?: unknown;
  readonly id?: unknown;
  readonly params?: unknown;
}

const loose = (message: unknown): LooseMessage =>
  typeof message === 'object' && message !== null ? (message as LooseMessage) : ({} as LooseMessage);

const isRequestId = (id: unknown): id is RequestId => typeof id === 'string' || typeof id === 'number';

/**
 * One request's body, parsed once: its JSON value as the client sent it (`value`: one message
 * or a batch array, nothing checked yet) and the list of its messages (`messages`: a batch's
 * entries, the one message, or none for a request without a body: GET, DELETE). Every step of
 * the HTTP handler reads the body through it (the auth gate's scope check, the era routing, the
 * session's bookkeeping), so the body is never re-listed or re-parsed on the way.
 */
export class PostBody {
  /** The body of a request without one (GET, DELETE). */
  static readonly NONE = new PostBody(undefined);

  readonly messages: readonly unknown[];

  constructor(readonly value: unknown) {
    this.messages = Array.isArray(value) ? value : value === undefined ? [] : [value];
  }

  /** Whether the body is a JSON-RPC batch (an array). */
  get isBatch(): boolean {
    return Array.isArray(this.value);
  }

  /** The one message of a body that is not a batch, else `undefined`. */
  get single(): LooseMessage | undefined {
    return this.value === undefined || Array.isArray(this.value) ? undefined : loose(this.value);
  }

  /** Whether a message is an `initialize` request (by the SDK's schema). */
  hasInitialize(): boolean {
    return this.messages.some((message) => isInitializeRequest(message));
  }

  /** Whether every message is valid JSON-RPC, as the SDK's schema says (see `toJsonRpcMessage`). */
  isJsonRpc(): boolean {
    return this.messages.every((message) => toJsonRpcMessage(message) !== undefined);
  }

  /** Whether a message is a request other than `initialize` (one that uses a session). */
  hasUsingRequest(): boolean {
    return this.messages.some((message) => {
      const { method, id } = loose(message);
      return typeof method === 'string' && method !== 'initialize' && isRequestId(id);
    });
  }

  /** The tool names of the `tools/call` requests. */
  calledTools(): string[] {
    const names: string[] = [];
    for (const message of this.messages) {
      const { method, params } = loose(message);
      if (method !== 'tools/call' || typeof params !== 'object' || params === null) continue;
      const name = (params as { name?: unknown }).name;
      if (typeof name === 'string') names.push(name);
    }
    return names;
  }

  /** Whether a message names a protocol version in its 2026-07-28 `_meta` envelope. */
  claimsModernEnvelope(): boolean {
    return this.messages.some((message) => {
      const { params } = loose(message);
      const meta = typeof params === 'object' && params !== null ? (params as { _meta?: unknown })._meta : undefined;
      return typeof meta === 'object' && meta !== null && ENVELOPE_VERSION_KEY in meta;
    });
  }

  /**
   * The body with every malformed response in it replaced by its stand-in error response (see
   * `standInForBadResponse`): the request it answers fails at once and the client gets 202, not
   * a 400 for a reply. The body itself when nothing is replaced.
   */
  withBadResponsesReplaced(): unknown {
    if (Array.isArray(this.value)) {
      let replaced = false;
      const messages = this.value.map((message: unknown) => {
        const standIn = standInForBadResponse(message);
        if (standIn === undefined) return message;
        replaced = true;
        return standIn;
      });
      return replaced ? messages : this.value;
    }
    return standInForBadResponse(this.value) ?? this.value;
  }
}

/**
 * Reads and checks a POST's body for `createHttpHandler`, answering what is wrong itself: an
 * `Accept` that does not list both `application/json` and `text/event-stream` -> 406, a
 * `Content-Type` other than `application/json` -> 415, a body over `maxBodyBytes` -> 413
 * (`Connection: close`), bad JSON -> 400 `-32700 Parse error: Invalid JSON`; a client that gives
 * up mid-upload has its response destroyed. A body another middleware already parsed into
 * `req.body` (as `express.json()` leaves it) is used as it is. Resolves with the parsed body, or
 * `undefined` when the request was answered (or abandoned).
 */
export async function readPostBody(
  req: IncomingMessage,
  res: ServerResponse,
  maxBodyBytes: number,
): Promise<PostBody | undefined> {
  const accept = req.headers.accept ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
    sendJsonError(
      res,
      406,
      JsonRpcCode.ServerError,
      'Not Acceptable: Client must accept both application/json and text/event-stream',
    );
    return undefined;
  }
  if (!isJsonContentType(req.headers['content-type'])) {
    sendJsonError(res, 415, JsonRpcCode.ServerError, 'Unsupported Media Type: Content-Type must be application/json');
    return undefined;
  }
  const preParsed = (req as IncomingMessage & { body?: unknown }).body;
  if (preParsed !== undefined) return new PostBody(preParsed);
  let read: Awaited<ReturnType<typeof readBody>>;
  try {
    read = await readBody(req, maxBodyBytes);
  } catch {
    // The client gave up mid-upload: there is nobody left to answer.
    res.destroy();
    return undefined;
  }
  if (read.kind === 'too-large') {
    sendJsonError(
      res,
      413,
      JsonRpcCode.ServerError,
      `Payload Too Large: Request body must not exceed ${maxBodyBytes} bytes`,
      { Connection: 'close' },
    );
    return undefined;
  }
  try {
    return new PostBody(JSON.parse(read.text));
  } catch {
    sendJsonError(res, 400, JsonRpcCode.ParseError, 'Parse error: Invalid JSON');
    return undefined;
  }
}

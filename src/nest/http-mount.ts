import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AbstractHttpAdapter } from '@nestjs/core';
// The edge's narrower faces, so the module never loads the client and proxy parts of toolwright/mcp.
import { JsonRpcCode, jsonRpcError, type McpHttpHandler } from '../mcp/transports/index.js';
import { httpRequestStore } from './tool-call.js';

/** An Express request as far as mounting needs it. */
interface ExpressLikeRequest extends IncomingMessage {
  body?: unknown;
}

/** A Fastify request and reply as far as mounting needs them. */
interface FastifyLikeRequest {
  readonly raw: IncomingMessage & { body?: unknown };
  readonly body?: unknown;
}
interface FastifyLikeReply {
  readonly raw: ServerResponse;
  hijack(): void;
  code(status: number): FastifyLikeReply;
  type(contentType: string): FastifyLikeReply;
  send(payload: unknown): void;
}

/** Where else `mountHandler` mounts the handler, and who hears of each request. */
export interface MountOptions {
  /**
   * More paths answered by the same handler, every method (the protected resource metadata paths of
   * an endpoint with `auth`).
   */
  readonly alsoAt?: readonly string[];
  /** Called with each request's node request and response before the handler sees them. */
  readonly onRequest?: (req: IncomingMessage, res: ServerResponse) => void;
}

/**
 * Mounts `handler` on the Nest application's own HTTP server at `path` (and at `options.alsoAt`),
 * for every HTTP method, so the handler's own checks (Host and Origin, methods, media types, sessions) answer every
 * request there with JSON. While a request is handled, its framework request object (Express's
 * `req`, Fastify's `FastifyRequest`) is the one `toolCallOf(...).request` gives the calls it
 * carries. A body the framework already parsed is handed over as it is (`req.body`), so Nest's
 * body parser may run first. With Express, a body its JSON parser refused is answered
 * `400 -32700 Parse error: Invalid JSON` at `path` (never Express's HTML page); with Fastify, a
 * body its parser refused is answered as the plain handler answers it (400 `-32700`, 413, 415),
 * with a JSON-RPC error body.
 *
 * Throws a `TypeError` for an adapter other than Express's or Fastify's.
 */
export function mountHandler(
  adapter: AbstractHttpAdapter,
  path: string,
  handler: McpHttpHandler,
  options: MountOptions = {},
): void {
  const type = adapter.getType();
  const instance = adapter.getInstance() as Record<string, (...args: unknown[]) => unknown>;
  const paths = [path, ...(options.alsoAt ?? [])];
  const onRequest = options.onRequest ?? (() => {});
  if (type === 'express') {
    for (const at of paths) {
      instance.all!(at, (req: ExpressLikeRequest, res: ServerResponse) => {
        onRequest(req, res);
        httpRequestStore.run(req, () => handler(req, res));
      });
    }
    instance.use!(path, (err: unknown, _req: IncomingMessage, res: ServerResponse, next: (err: unknown) => void) => {
      if (!isBodyParseError(err) || res.headersSent) return next(err);
      const body = JSON.stringify(jsonRpcError(JsonRpcCode.ParseError, 'Parse error: Invalid JSON'));
      res.writeHead(400, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    });
    return;
  }
  if (type === 'fastify') {
    for (const at of paths) {
      instance.all!(
        at,
        { errorHandler: fastifyBodyErrorHandler },
        (request: FastifyLikeRequest, reply: FastifyLikeReply) => {
          reply.hijack();
          if (request.body !== undefined) request.raw.body = request.body;
          onRequest(request.raw, reply.raw);
          httpRequestStore.run(request, () => handler(request.raw, reply.raw));
        },
      );
    }
    return;
  }
  throw new TypeError(
    `ToolwrightModule: transport 'http' supports the Express and Fastify adapters, not ${JSON.stringify(type)}`,
  );
}

/**
 * Fastify's body parser errors at the endpoint, answered as JSON-RPC errors the way
 * `createHttpHandler` answers them.
 */
function fastifyBodyErrorHandler(error: { statusCode?: number }, _request: unknown, reply: FastifyLikeReply): void {
  const answers: Record<number, [number, string]> = {
    400: [JsonRpcCode.ParseError, 'Parse error: Invalid JSON'],
    413: [JsonRpcCode.ServerError, 'Payload Too Large: the request body is larger than the server accepts'],
    415: [JsonRpcCode.ServerError, 'Unsupported Media Type: Content-Type must be application/json'],
  };
  const answer = error.statusCode === undefined ? undefined : answers[error.statusCode];
  if (answer === undefined) return reply.send(error);
  reply
    .code(error.statusCode!)
    .type('application/json')
    .send(JSON.stringify(jsonRpcError(answer[0], answer[1])));
}

/** True for the error Express's JSON body parser passes on for a body that is not JSON. */
function isBodyParseError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { type?: unknown }).type === 'entity.parse.failed';
}

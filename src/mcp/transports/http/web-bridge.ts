import type { IncomingMessage, ServerResponse } from 'node:http';
import { authInfoOf } from './node-http-transport.js';

/**
 * The HTTP edge's one bridge between `node:http` and the web-standard `Request`/`Response` the
 * SDK's web-standard parts take and give (the 2026-07-28 handler, the auth helpers' challenge
 * responses).
 */

/**
 * Builds a web-standard `Request` from a `node:http` request: its method, URL (on `http://<Host>`)
 * and headers. The body is never attached: the handler has already read and parsed it (and hands
 * it to the SDK as `parsedBody`). `signal` becomes the request's signal (abort it when the client
 * hangs up).
 */
export function toWebRequest(req: IncomingMessage, signal?: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  const host = typeof req.headers.host === 'string' && req.headers.host !== '' ? req.headers.host : 'localhost';
  let url: URL;
  try {
    url = new URL(req.url ?? '/', `http://${host}`);
  } catch {
    url = new URL('http://localhost/');
  }
  return new Request(url, { method: req.method ?? 'GET', headers, ...(signal === undefined ? {} : { signal }) });
}

/**
 * Writes a web-standard `Response` to a `node:http` response: its status and headers (every
 * `Set-Cookie` kept), then its body. An event stream (`Content-Type: text/event-stream`) is
 * streamed chunk by chunk, honouring back-pressure, each event flushed as it arrives, and
 * cancelled when the client hangs up (the SDK then drops the stream); any other body is read
 * whole and sent with its `Content-Length` in one write. When the node response has already
 * started or ended, the body is cancelled and nothing is written. Resolves once the body is
 * finished or abandoned; never rejects.
 */
export async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  if (res.headersSent || res.destroyed) {
    await response.body?.cancel().catch(() => undefined);
    return;
  }
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name === 'set-cookie') return;
    headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  const body = response.body;
  if (body === null) {
    res.writeHead(response.status, headers);
    res.end();
    return;
  }
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) {
    let bytes: Buffer;
    try {
      bytes = Buffer.from(await response.arrayBuffer());
    } catch {
      res.destroy();
      return;
    }
    if (res.headersSent || res.destroyed) return;
    headers['content-length'] = String(bytes.length);
    res.writeHead(response.status, headers);
    res.end(bytes);
    return;
  }
  res.writeHead(response.status, headers);
  res.flushHeaders();
  await pipeStream(body, res);
}

/** Streams `body` to `res`, honouring back-pressure; cancels it when the client hangs up. Never rejects. */
async function pipeStream(body: ReadableStream<Uint8Array>, res: ServerResponse): Promise<void> {
  const reader = body.getReader();
  let gone = false;
  const onClose = (): void => {
    gone = true;
    void reader.cancel().catch(() => undefined);
  };
  res.once('close', onClose);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || gone) break;
      if (!res.write(value)) {
        await new Promise<void>((resolve) => {
          const release = (): void => {
            res.off('drain', release);
            res.off('close', release);
            resolve();
          };
          res.on('drain', release);
          res.on('close', release);
        });
      }
    }
  } catch {
    // The stream failed or was cancelled: end what was sent.
  } finally {
    res.off('close', onClose);
    if (!res.writableEnded && !res.destroyed) res.end();
  }
}

/**
 * The verified token's info the auth gate left on the request (`req.auth`), as the web-standard
 * transports' `handleRequest` options take it (`{ authInfo }`), so handlers see it as
 * `ctx.http.authInfo`; nothing when the request was not authenticated.
 */
export function authOf(req: IncomingMessage): { authInfo?: never } {
  const auth = authInfoOf(req);
  return auth === undefined ? {} : ({ authInfo: auth } as unknown as { authInfo?: never });
}

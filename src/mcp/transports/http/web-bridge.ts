import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Builds a web-standard `Request` for the SDK's web-standard transports from a `node:http`
 * request: its method, URL (on `http://<Host>`) and headers. The body is never attached: the
 * handler has already read and parsed it (and hands it to the SDK as `parsedBody`). `signal`
 * becomes the request's signal (abort it when the client hangs up).
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
 * Writes a web-standard `Response` to a `node:http` response: status, headers, then the body
 * streamed chunk by chunk, honouring back-pressure (an SSE stream is flushed as each event
 * arrives). When the client hangs up, the body stream is cancelled (the SDK then drops the
 * stream). Resolves once the body is finished or abandoned; never rejects.
 */
export async function sendWebResponse(response: Response, res: ServerResponse): Promise<void> {
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
  res.writeHead(response.status, headers);
  const body = response.body;
  if (body === null) {
    res.end();
    return;
  }
  res.flushHeaders();
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
 * transport's `handleRequest` options take it (`{ authInfo }`), so handlers see it as
 * `ctx.http.authInfo`; nothing when the request was not authenticated.
 */
export function authOf(req: IncomingMessage): { authInfo?: never } {
  const auth = (req as IncomingMessage & { auth?: unknown }).auth;
  return auth === undefined ? {} : ({ authInfo: auth } as unknown as { authInfo?: never });
}

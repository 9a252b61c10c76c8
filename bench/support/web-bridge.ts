/**
 * The bench's own `node:http` <-> web-standard bridge for the SDK 2.x servers, which take a web
 * `Request` and give back a `Response`: what a user of the SDK writes (and what toolwright's
 * HTTP edge did before issue 28), kept here so that changes to toolwright's edge never change what
 * the SDK contenders cost. Only bench servers use it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** A web `Request` with `req`'s method, URL (on `http://<Host>`) and headers, without a body. */
export function toWebRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  const host = typeof req.headers.host === 'string' && req.headers.host !== '' ? req.headers.host : 'localhost';
  return new Request(new URL(req.url ?? '/', `http://${host}`), { method: req.method ?? 'GET', headers });
}

/** Writes a web `Response` to `res`: status, headers, then the body streamed chunk by chunk. */
export async function sendWebResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  res.writeHead(response.status, headers);
  if (response.body === null) {
    res.end();
    return;
  }
  res.flushHeaders();
  const reader = response.body.getReader();
  res.once('close', () => void reader.cancel().catch(() => undefined));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
  } catch {
    // Cancelled when the client left.
  } finally {
    if (!res.writableEnded) res.end();
  }
}

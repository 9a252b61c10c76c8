import { request } from 'node:http';
import { Readable } from 'node:stream';

/**
 * A `fetch` whose connections leave from `localAddress` (another loopback address, such as
 * `127.0.0.2`, so that a server on 127.0.0.1 sees a second client address), for SDK client
 * transports (their `fetch` option). Plain `http:` only; the body is sent whole and the answer
 * streamed (SSE works); `signal` aborts the request. Every request uses a fresh connection.
 */
export function fetchFrom(localAddress: string): typeof fetch {
  return async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers = new Headers(input instanceof Request ? input.headers : undefined);
    new Headers(init.headers).forEach((value, name) => headers.set(name, value));
    const method = init.method ?? (input instanceof Request ? input.method : 'GET');
    const body =
      init.body === undefined || init.body === null
        ? undefined
        : Buffer.from(await new Response(init.body).arrayBuffer());
    const signal = init.signal ?? undefined;
    return new Promise<Response>((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: `${url.pathname}${url.search}`,
          method,
          localAddress,
          agent: false,
          headers: Object.fromEntries(headers),
          ...(signal === undefined ? {} : { signal }),
        },
        (res) => {
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (Array.isArray(value)) for (const item of value) responseHeaders.append(name, item);
            else if (value !== undefined) responseHeaders.set(name, value);
          }
          const status = res.statusCode ?? 0;
          const empty = status === 204 || status === 304 || method === 'HEAD';
          resolve(
            new Response(empty ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), {
              status,
              headers: responseHeaders,
            }),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  };
}

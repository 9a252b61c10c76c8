import type { IncomingMessage } from 'node:http';

/** The outcome of reading a request body under a size limit. */
export type BodyRead = { readonly kind: 'ok'; readonly text: string } | { readonly kind: 'too-large' };

/**
 * Reads a request body as UTF-8 text, never holding more than `maxBytes`. A declared
 * `Content-Length` over the limit is refused before anything is read; otherwise reading stops
 * as soon as the limit is passed. After `too-large` the rest of the body is discarded as it
 * arrives (so the 413 can still be delivered). Rejects when the client aborts the upload.
 */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<BodyRead> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    req.resume();
    return Promise.resolve({ kind: 'too-large' });
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const cleanup = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onAborted);
    };
    const onData = (chunk: Buffer): void => {
      received += chunk.length;
      if (received > maxBytes) {
        cleanup();
        chunks.length = 0;
        req.on('error', () => undefined);
        req.resume();
        resolve({ kind: 'too-large' });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve({ kind: 'ok', text: Buffer.concat(chunks, received).toString('utf8') });
    };
    const onError = (error: Error): void => {
      cleanup();
      reject(error);
    };
    const onAborted = (): void => onError(new Error('request aborted by the client'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onAborted);
  });
}

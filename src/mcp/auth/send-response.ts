import type { ServerResponse } from 'node:http';

/**
 * Copies a web-standard `Response` (status, headers, body) onto a `node:http` response. Does
 * nothing when the node response has already started.
 */
export async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  if (res.headersSent) return;
  const body = Buffer.from(await response.arrayBuffer());
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  if (body.length > 0 || response.status !== 204) headers['content-length'] = String(body.length);
  res.writeHead(response.status, headers);
  res.end(body);
}

/** Answers `status` with an OAuth error body (`{"error", "error_description"}`) and optional `WWW-Authenticate`. */
export function sendOAuthError(
  res: ServerResponse,
  status: number,
  error: string,
  description: string,
  challenge?: string,
): void {
  if (res.headersSent) return;
  const body = JSON.stringify({ error, error_description: description });
  const headers: Record<string, string | number> = {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
  };
  if (challenge !== undefined) headers['WWW-Authenticate'] = challenge;
  res.writeHead(status, headers);
  res.end(body);
}

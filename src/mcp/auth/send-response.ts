import type { ServerResponse } from 'node:http';
import { sendJson } from '../transports/http/json-response.js';

/**
 * Answers `status` with an OAuth error body (`{"error", "error_description"}`) and, when given,
 * a `WWW-Authenticate` challenge (see `sendJson`).
 */
export function sendOAuthError(
  res: ServerResponse,
  status: number,
  error: string,
  description: string,
  challenge?: string,
): void {
  sendJson(
    res,
    status,
    { error, error_description: description },
    challenge === undefined ? {} : { 'WWW-Authenticate': challenge },
  );
}

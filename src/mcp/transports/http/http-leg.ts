import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PostBody } from './post-body.js';

/**
 * One way `createHttpHandler` serves the requests it has checked: with sessions (2025-11-25),
 * without (`stateless`), or per request in the 2026-07-28 era.
 */
export interface HttpLeg {
  /** Serves one request whose body (`PostBody.NONE` for GET and DELETE) is already read and parsed. */
  serve(req: IncomingMessage, res: ServerResponse, body: PostBody): Promise<void>;
  /** Closes every server the leg holds (aborting their calls in flight) and resolves when done. */
  close(): Promise<void>;
}

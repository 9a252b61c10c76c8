import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';

/** What the SDK hands a request handler: the request's signal, session id, `_meta` and send helpers. */
export type HandlerExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

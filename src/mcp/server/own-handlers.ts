import type { ServerContext } from '@modelcontextprotocol/server';
import type { HandlerExtra } from './extra.js';

/** A method toolwright answers itself, past the SDK's request and result parsing. */
export type OwnHandler = (
  params: unknown,
  extra: HandlerExtra,
  ctx: ServerContext,
) => Promise<Record<string, unknown>> | Record<string, unknown>;

const handlers = new WeakMap<object, Map<string, OwnHandler>>();

/**
 * The methods toolwright answers itself on `server` through its `fallbackRequestHandler`, by
 * method (made on first use). `addTools` installs the fallback that reads it; the resource,
 * prompt and completion handlers add theirs to the same map, so one fallback answers them all.
 */
export function ownHandlersOf(server: object): Map<string, OwnHandler> {
  let own = handlers.get(server);
  if (own === undefined) {
    own = new Map();
    handlers.set(server, own);
  }
  return own;
}

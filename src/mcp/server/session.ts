import type { CallContext, Session } from '../../contract/index.js';

/**
 * The connection a call arrived on: one object per connection (per SDK `Server`), the same for
 * every call on it, or `undefined` outside MCP. Key per-client state on it with a `WeakMap`;
 * a tool that needs a session should refuse to run without one rather than share state.
 */
export function sessionFrom(ctx: CallContext): Session | undefined {
  return ctx.session;
}

/**
 * The session id for logs: the streamable HTTP session id, or `""` when there is none (stdio,
 * in memory, outside MCP). Never key state on it; use `sessionFrom(ctx)`.
 */
export function sessionId(ctx: CallContext): string {
  return ctx.session?.id ?? '';
}

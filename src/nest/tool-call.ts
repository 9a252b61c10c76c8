import { AsyncLocalStorage } from 'node:async_hooks';
import type { ArgumentsHost } from '@nestjs/common';
import type { CallContext, Session } from '../contract/index.js';

/** The context type (`ExecutionContext.getType()`) of a tool call run through Nest's enhancers. */
export const TOOL_CALL_CONTEXT_TYPE = 'toolwright';

/**
 * One tool call as Nest's guards, interceptors, exception filters and the tool itself see it.
 * Over HTTP, `request` is the framework's request object the MCP POST arrived on (Express's
 * `req`, Fastify's `FastifyRequest`), so whatever an auth guard or middleware put on it
 * (`request.user`) is there; over stdio it is `undefined`.
 */
export interface NestToolCall {
  /** The tool's name. */
  readonly tool: string;
  /** The arguments exactly as the client sent them (validated only once the guards let the call through). */
  readonly arguments: unknown;
  /** The MCP session the call arrived on. */
  readonly session: Session | undefined;
  /** The HTTP request of the call, or `undefined` over stdio. */
  readonly request: unknown;
  /** The call's context, as the tool receives it. */
  readonly context: CallContext;
  /**
   * What is served: absent for a tool call; `resource` for a read (`tool` is then the resource's
   * name, `arguments` the URI's variables with `uri`), `prompt` for a rendering (`arguments` the
   * prompt's arguments).
   */
  readonly kind?: 'resource' | 'prompt';
}

/**
 * The execution-context arguments of a tool call, in Nest's order: `[request, response, call]`.
 * `request` is the HTTP request (so an HTTP guard's `context.switchToHttp().getRequest()` works
 * unchanged); `response` is always `undefined` (a filter must never write to the MCP stream).
 */
export type ToolCallArgs = [request: unknown, response: undefined, call: NestToolCall];

const callsByContext = new WeakMap<object, NestToolCall>();

/** Records `call` as the call of `ctx` (the context the tool will receive). */
export function rememberCall(ctx: CallContext, call: NestToolCall): void {
  callsByContext.set(ctx, call);
}

/**
 * The Nest view of a tool call: from the `ExecutionContext` (or any `ArgumentsHost`) a guard,
 * interceptor or exception filter received for a tool call, or from the `CallContext` a tool
 * served by `ToolwrightModule` received. `undefined` for anything else (an HTTP route's
 * execution context, a context the module did not make).
 */
export function toolCallOf(source: ArgumentsHost | CallContext): NestToolCall | undefined {
  if (typeof source !== 'object' || source === null) return undefined;
  const host = source as Partial<ArgumentsHost>;
  if (typeof host.getType === 'function' && typeof host.getArgByIndex === 'function') {
    return (host.getType() as string) === TOOL_CALL_CONTEXT_TYPE ? (host.getArgByIndex(2) as NestToolCall) : undefined;
  }
  return callsByContext.get(source);
}

/**
 * The HTTP request of the MCP message being handled, carried through the SDK's asynchronous
 * handling by `AsyncLocalStorage` from the module's HTTP route to the tool call.
 */
export const httpRequestStore = new AsyncLocalStorage<unknown>();
